package dev.paddock.agent;

import java.util.Objects;

/**
 * One thing in an agent's transcript, whatever agent printed it: immutable, built by a {@link TranscriptParser}
 * from the agent's headless output.
 */
public sealed interface TranscriptEntry {
    /** Longest text an entry keeps; the rest is cut with a note saying how much. */
    int MAX_TEXT = 16 * 1024;

    /** The agent's session began (or was resumed): its id, model and working directory where it says them. */
    record SessionStarted(String sessionId, String model, String cwd) implements TranscriptEntry {}

    /**
     * Text from the model ({@code assistant}) or the prompt ({@code user}).
     *
     * @param partial a piece of a message still arriving (Gemini CLI streams its text in pieces); a
     *     {@link Transcript} joins it to the piece before
     */
    record Message(String role, String text, boolean partial) implements TranscriptEntry {
        public Message {
            Objects.requireNonNull(role, "role");
            text = cut(text);
        }
    }

    /** The model calls a tool: its id (to pair the result with), name and input (JSON text). */
    record ToolCall(String id, String name, String inputJson) implements TranscriptEntry {
        public ToolCall {
            Objects.requireNonNull(name, "name");
            inputJson = cut(inputJson == null ? "{}" : inputJson);
        }
    }

    /** A tool's result as the model receives it, collapsed to text; {@code error} when the call failed or was denied. */
    record ToolResult(String toolCallId, String text, boolean error) implements TranscriptEntry {
        public ToolResult {
            text = cut(text);
        }
    }

    /** Something went wrong in the agent (an API error, a failed turn). */
    record Error(String message) implements TranscriptEntry {
        public Error {
            message = cut(message);
        }
    }

    /**
     * The end of a run or turn with what it cost; any figure the agent does not give is null.
     *
     * @param failed whether the agent says the run failed
     */
    record Usage(boolean failed, Long inputTokens, Long outputTokens, Double costUsd, Long durationMs, Integer turns)
            implements TranscriptEntry {}

    /** A line that is not one of the agent's events (plain text output, a stray line in a JSON stream). */
    record Output(String line) implements TranscriptEntry {
        public Output {
            line = cut(line);
        }
    }

    /** {@code text} up to {@link #MAX_TEXT} characters, with a note of what was cut; "" for null. */
    static String cut(String text) {
        if (text == null) {
            return "";
        }
        if (text.length() <= MAX_TEXT) {
            return text;
        }
        return text.substring(0, MAX_TEXT) + "\n… (" + (text.length() - MAX_TEXT) + " more characters)";
    }
}
