package dev.paddock.policy.shell;

/**
 * Decodes the body of an ANSI-C quote ({@code $'...'}) as bash does: {@code \n}, {@code \x72}, {@code \u00e9},
 * octal, {@code \cX}; an escape bash does not know keeps its backslash ({@code $'\q'} is {@code \q}), and a NUL
 * ends the quote's value (bash's strings are C strings: {@code $'a\x00b'c} is {@code ac}).
 */
final class AnsiC {
    private final String s;
    private int pos;
    private boolean cut;

    private AnsiC(String s, int pos) {
        this.s = s;
        this.pos = pos;
    }

    /**
     * Decodes from {@code from} (just after the opening quote) into {@code value}; answers the index after
     * the closing quote, or -1 when there is none (then everything to the end was decoded).
     */
    static int decode(String s, int from, StringBuilder value) {
        AnsiC a = new AnsiC(s, from);
        StringBuilder out = new StringBuilder();
        int end = a.run(out);
        value.append(out);
        return end;
    }

    private int run(StringBuilder value) {
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (c == '\'') {
                return pos + 1;
            }
            if (c != '\\' || pos + 1 >= s.length()) {
                append(value, c);
                pos++;
                continue;
            }
            char e = s.charAt(pos + 1);
            pos += 2;
            switch (e) {
                case 'n' -> append(value, '\n');
                case 't' -> append(value, '\t');
                case 'r' -> append(value, '\r');
                case 'a' -> append(value, '\u0007');
                case 'b' -> append(value, '\b');
                case 'e', 'E' -> append(value, '\u001b');
                case 'f' -> append(value, '\f');
                case 'v' -> append(value, '\u000b');
                case '\\', '\'', '"', '?' -> append(value, e);
                case 'x' -> number(value, 16, 2, "\\x");
                case 'u' -> number(value, 16, 4, "\\u");
                case 'U' -> number(value, 16, 8, "\\U");
                case 'c' -> {
                    if (pos < s.length() && s.charAt(pos) != '\'') {
                        append(value, (char) (s.charAt(pos++) & 0x1f));
                    } else {
                        append(value, '\\');
                        append(value, 'c');
                    }
                }
                default -> {
                    if (e >= '0' && e <= '7') {
                        pos--;
                        number(value, 8, 3, "");
                    } else {
                        append(value, '\\');
                        append(value, e);
                    }
                }
            }
        }
        return -1;
    }

    private void number(StringBuilder value, int radix, int maxDigits, String noDigits) {
        int v = 0;
        int digits = 0;
        while (digits < maxDigits && pos < s.length() && Character.digit(s.charAt(pos), radix) >= 0) {
            v = v * radix + Character.digit(s.charAt(pos), radix);
            pos++;
            digits++;
        }
        if (digits == 0) {
            value.append(cut ? "" : noDigits);
        } else if (radix == 16 && maxDigits > 2) {
            if (v == 0) {
                cut = true;
            } else if (!cut) {
                value.appendCodePoint(Math.min(v, Character.MAX_CODE_POINT));
            }
        } else {
            append(value, (char) (v & 0xff));
        }
    }

    private void append(StringBuilder value, char c) {
        if (c == '\0') {
            cut = true;
        } else if (!cut) {
            value.append(c);
        }
    }
}
