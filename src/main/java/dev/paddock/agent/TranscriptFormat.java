package dev.paddock.agent;

/** What an agent prints on stdout in headless mode, and so which parser reads its log. */
public enum TranscriptFormat {
    /** Claude Code's {@code --output-format stream-json --verbose}: {@link ClaudeStreamParser}. */
    CLAUDE_STREAM_JSON,
    /** Codex's {@code exec --json}: {@link CodexJsonParser}. */
    CODEX_JSON,
    /** Gemini CLI's {@code --output-format stream-json}: {@link GeminiStreamParser}. */
    GEMINI_STREAM_JSON,
    /** Plain text (Aider, a custom command): every line is output. */
    TEXT;

    /** A new parser for this format. */
    public TranscriptParser newParser() {
        return switch (this) {
            case CLAUDE_STREAM_JSON -> new ClaudeStreamParser();
            case CODEX_JSON -> new CodexJsonParser();
            case GEMINI_STREAM_JSON -> new GeminiStreamParser();
            case TEXT -> new TextParser();
        };
    }
}
