package dev.paddock.ui.sandboxes;

/** The New Sandbox form's container limit fields read as numbers, with messages for the person. */
final class LimitFields {
    private LimitFields() {
    }

    /**
     * {@code text} as a finite number.
     *
     * @throws IllegalArgumentException "CPUs must be a number such as 2 or 0.5 (got "x")."
     */
    static double number(String text, String field, String example) {
        try {
            double d = Double.parseDouble(text == null ? "" : text.strip());
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(field + " must be " + example + " (got \"" + text + "\").");
        }
    }

    /**
     * {@code text} as a whole number above 0.
     *
     * @throws IllegalArgumentException "Memory must be a whole number such as 512 (got \"x\")."
     */
    static long whole(String text, String field) {
        try {
            long n = Long.parseLong(text == null ? "" : text.strip());
            if (n <= 0) {
                throw new IllegalArgumentException(field + " must be a whole number above 0 (got " + n + ").");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(field + " must be a whole number such as 512 (got \"" + text + "\").");
        }
    }

    /** "2" for two CPUs, "0.5" for half of one. */
    static String cpusText(long nanoCpus) {
        return java.math.BigDecimal.valueOf(nanoCpus, 9).stripTrailingZeros().toPlainString();
    }
}
