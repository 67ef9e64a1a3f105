package dev.paddock.agent;

import java.util.ArrayList;
import java.util.List;

/**
 * An agent's transcript so far: its entries in order, immutable. {@link #plus} gives a new transcript with more
 * entries, joining a partial message to the piece before it.
 */
public record Transcript(List<TranscriptEntry> entries) {
    /** An empty transcript. */
    public static final Transcript EMPTY = new Transcript(List.of());

    public Transcript {
        entries = List.copyOf(entries);
    }

    /** This transcript with {@code more} appended. */
    public Transcript plus(List<TranscriptEntry> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<TranscriptEntry> all = new ArrayList<>(entries);
        for (TranscriptEntry e : more) {
            int last = all.size() - 1;
            if (e instanceof TranscriptEntry.Message m
                    && m.partial()
                    && last >= 0
                    && all.get(last) instanceof TranscriptEntry.Message prev
                    && prev.partial()
                    && prev.role().equals(m.role())) {
                all.set(last, new TranscriptEntry.Message(m.role(), prev.text() + m.text(), true));
            } else {
                all.add(e);
            }
        }
        return new Transcript(all);
    }

    /** The session id the agent last named, or null. */
    public String sessionId() {
        for (int i = entries.size() - 1; i >= 0; i--) {
            if (entries.get(i) instanceof TranscriptEntry.SessionStarted s && s.sessionId() != null) {
                return s.sessionId();
            }
        }
        return null;
    }
}
