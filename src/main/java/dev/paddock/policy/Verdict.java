package dev.paddock.policy;

/** What the policy answers for a request, from the most to the least permissive. */
public enum Verdict {
    /** Run it without asking. */
    ALLOW,
    /** A human decides. */
    ASK,
    /** Refuse it. */
    DENY;

    private final String word = name().toLowerCase(java.util.Locale.ROOT);

    /** The stricter of this and {@code other} (deny over ask over allow). */
    public Verdict strictest(Verdict other) {
        return other.ordinal() > ordinal() ? other : this;
    }

    /** Whether this is stricter than {@code other}. */
    public boolean isStricterThan(Verdict other) {
        return ordinal() > other.ordinal();
    }

    /** The lower-case word printed by the CLI and used in JSON: {@code allow}, {@code ask}, {@code deny}. */
    public String word() {
        return word;
    }
}
