package dev.paddock.ui.sandboxes;

/**
 * One row of the Transcript tab, ready to show: every text is made off the FX thread ({@link TranscriptRows}), so a
 * cell only sets them. Immutable; {@link #withExpanded} and {@link #withDecision} give changed copies.
 *
 * @param index the row's place in the list
 * @param kind what it is
 * @param label the short word before it ({@code agent}, {@code Bash}, {@code result}, ...)
 * @param text what it says: a message, a tool call's command or path, a result's first line, an error
 * @param detail the whole text shown when the row is expanded (a tool result, a long call's input), or null when
 *     there is nothing more than {@code text}
 * @param more how the collapsed row names what it hides ("12 lines"), or null
 * @param error whether it is an error (an error entry, a failed tool result, a failed run)
 * @param decision what was decided about a tool call, or null where nothing is known
 * @param expanded whether {@code detail} shows
 */
record TranscriptRow(
        int index,
        Kind kind,
        String label,
        String text,
        String detail,
        String more,
        boolean error,
        Decision decision,
        boolean expanded) {
    /** The kinds of rows. */
    enum Kind {
        /** The agent's session began: its id, model and folder. */
        SESSION,
        /** A message of the model. */
        AGENT,
        /** A message of the person (the task, a follow-up). */
        PROMPT,
        /** The model calls a tool. */
        TOOL_CALL,
        /** A tool's result. */
        TOOL_RESULT,
        /** Something went wrong in the agent. */
        ERROR,
        /** A run or turn ended, with its tokens and cost. */
        USAGE,
        /** A line that is not an event of the agent (plain output). */
        OUTPUT,
        /** Paddock's own line in the log (a run starting, an exit code), or a note about the transcript itself. */
        MARKER
    }

    /** How a decision looks. */
    enum Tone {
        ALLOWED,
        DENIED,
        WAITING,
        NEUTRAL
    }

    /**
     * What the policy or a person decided about a tool call.
     *
     * @param text the chip's words ("allowed", "asked · approved by ann", "denied")
     * @param tone its colour
     * @param reason why it was denied or cancelled, shown under the call; null otherwise
     * @param tooltip the whole story: by what rule or whom, why, when
     * @param isFinal whether it can still change (false while a person is asked)
     */
    record Decision(String text, Tone tone, String reason, String tooltip, boolean isFinal) {}

    /** Whether Enter or a click shows or hides more. */
    boolean expandable() {
        return detail != null;
    }

    /** The row expanded or collapsed. */
    TranscriptRow withExpanded(boolean on) {
        return on == expanded || !expandable()
                ? this
                : new TranscriptRow(index, kind, label, text, detail, more, error, decision, on);
    }

    /** The row with this decision. */
    TranscriptRow withDecision(Decision d) {
        return new TranscriptRow(index, kind, label, text, detail, more, error, d, expanded);
    }

    /** The text a copy takes: the whole of it. */
    String fullText() {
        return detail != null ? detail : text;
    }
}
