package dev.paddock.ui.sandboxes;

/** The New Sandbox form's container limit fields read as numbers, with messages for the person. */
final class LimitFields {
    private LimitFields() {}

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

    /**
     * The limits the container fields describe.
     *
     * @throws IllegalArgumentException with a message for the person when a field is not a number or docker would
     *     refuse the value
     */
    static dev.paddock.container.ResourceLimits limits(String cpus, String memoryMib, String pids) {
        double c = number(cpus, "CPUs", "a number such as 2 or 0.5");
        if (!(c >= 0.01)) {
            throw new IllegalArgumentException("CPUs must be at least 0.01 (docker's smallest --cpus).");
        }
        long mib = whole(memoryMib, "Memory");
        long p = whole(pids, "Processes");
        return dev.paddock.container.ResourceLimits.DEFAULTS
                .withNanoCpus(Math.round(c * dev.paddock.container.ResourceLimits.ONE_CPU))
                .withMemoryBytes(Math.multiplyExact(mib, dev.paddock.container.ResourceLimits.MIB))
                .withPids(p);
    }

    /**
     * What is wrong with the container part of the form (no image, a limit that is not a number or that docker would
     * refuse), or null when nothing is.
     *
     * @param defaultImage the repository's image, or null when it has none
     */
    static String problem(String image, String defaultImage, String cpus, String memoryMib, String pids) {
        if (image == null || image.isBlank()) {
            return defaultImage == null
                    ? "Give an image: this repository has none set (paddock sandbox image IMAGE sets one)."
                    : "Give an image: the repository's is " + defaultImage + ".";
        }
        try {
            limits(cpus, memoryMib, pids);
            return null;
        } catch (IllegalArgumentException | ArithmeticException e) {
            return e instanceof ArithmeticException ? "Memory is too large." : e.getMessage();
        }
    }
}
