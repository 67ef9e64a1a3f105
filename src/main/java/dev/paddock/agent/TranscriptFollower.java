package dev.paddock.agent;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Follows an agent's growing log into its transcript: a {@link LogFollower} over the log whose text goes through
 * the parser of the agent's {@link TranscriptFormat}. Each {@link #poll} returns the entries of the lines completed
 * since the last one (a line or a UTF-8 character split across two writes is read whole); when the log starts over
 * (replaced, shrunk, or far more arrived than the tail) the parser does too and the update says so. Not thread-safe:
 * one poller at a time.
 */
public final class TranscriptFollower {
    /** The most of a log's end the panel's transcript reads (a longer log's start is left out). */
    public static final long MAX_TAIL_BYTES = 64L * 1024 * 1024;
    /** Bytes read by one {@link #poll()} at most, so a long log arrives in steps. */
    public static final int STEP_BYTES = 1024 * 1024;

    /**
     * What a poll found.
     *
     * @param reset whether the entries replace all that came before (the log started over)
     * @param entries the new entries, in order
     * @param skippedBytes bytes at the log's start left out (its tail is read), 0 when it is read whole
     */
    public record Update(boolean reset, List<TranscriptEntry> entries, long skippedBytes) {
        public Update {
            entries = List.copyOf(entries);
        }
    }

    private final LogFollower log;
    private final TranscriptFormat format;
    private TranscriptParser parser;

    /** Follows {@code log}, read by {@code format}'s parser, from its last {@code tailBytes} bytes. */
    public TranscriptFollower(Path log, TranscriptFormat format, long tailBytes) {
        this.log = new LogFollower(log, tailBytes);
        this.format = format;
        this.parser = format.newParser();
    }

    /** Reads at most {@link #STEP_BYTES} of what is new; {@link #behind()} says whether more is waiting. */
    public Update poll() throws IOException {
        return poll(STEP_BYTES);
    }

    /**
     * Reads at most {@code maxBytes} of what is new.
     *
     * @throws IOException when the log exists but cannot be read
     */
    public Update poll(int maxBytes) throws IOException {
        LogFollower.Chunk c = log.poll(maxBytes);
        if (c.reset()) {
            parser = format.newParser();
        }
        List<TranscriptEntry> entries = c.text().isEmpty() ? List.of() : parser.feed(c.text());
        return new Update(c.reset(), entries, log.skipped());
    }

    /** Whether the last poll left part of the log unread. */
    public boolean behind() {
        return log.behind();
    }

    /** After the agent exited: everything not read yet, and the entries of a last line without a line break. */
    public Update finish() throws IOException {
        boolean reset = false;
        List<TranscriptEntry> out = new ArrayList<>();
        do {
            Update u = poll();
            if (u.reset()) {
                reset = true;
                out.clear();
            }
            out.addAll(u.entries());
        } while (behind());
        String rest = log.finish();
        if (!rest.isEmpty()) {
            out.addAll(parser.feed(rest));
        }
        out.addAll(parser.finish());
        return new Update(reset, out, log.skipped());
    }
}
