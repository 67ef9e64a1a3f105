package dev.paddock.agent;

import java.util.List;

/**
 * Reads an agent's headless output incrementally: {@link #feed} takes any piece of it (a chunk may end in the
 * middle of a line, which is kept until its end arrives) and returns the entries of the lines it completed.
 * Unknown event types are skipped and a line that is not JSON becomes an {@link TranscriptEntry.Output}, so a
 * newer agent version or a stray line never stops the transcript. Not thread-safe: one reader per log.
 */
public interface TranscriptParser {
    /** The entries of the lines {@code chunk} completes. */
    List<TranscriptEntry> feed(String chunk);

    /** The entries of a last line without a line break (the agent has exited). */
    List<TranscriptEntry> finish();
}
