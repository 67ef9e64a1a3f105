package dev.paddock.policy.shell;

/** Shortens source text quoted in a problem, so a reason stays readable for a command of any length. */
public final class Snippet {
    /** Characters kept of a quoted part; longer parts end in an ellipsis. */
    public static final int MAX = 80;

    private Snippet() {}

    /** {@code text} with newlines shown as {@code \n}, cut to {@link #MAX} characters. */
    public static String of(String text) {
        String t = text.length() > MAX + 1 ? text.substring(0, MAX) + "…" : text;
        return t.replace("\n", "\\n");
    }
}
