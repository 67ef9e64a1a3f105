package dev.paddock.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import java.util.ArrayList;
import java.util.List;

/** A {@link TranscriptParser} of one JSON event per line; subclasses turn an event into entries. */
abstract class JsonLineParser implements TranscriptParser {
    /** Longest partial line kept while its end has not arrived (a longer one is dropped as garbage). */
    static final int MAX_LINE = 16 * 1024 * 1024;

    private final StringBuilder pending = new StringBuilder();

    @Override
    public final List<TranscriptEntry> feed(String chunk) {
        List<TranscriptEntry> out = new ArrayList<>();
        int start = 0;
        for (int i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', start)) {
            pending.append(chunk, start, i);
            line(pending.toString(), out);
            pending.setLength(0);
            start = i + 1;
        }
        pending.append(chunk, start, chunk.length());
        if (pending.length() > MAX_LINE) {
            out.add(new TranscriptEntry.Error(
                    "a line of the agent's output is longer than " + MAX_LINE + " characters; it was skipped"));
            pending.setLength(0);
        }
        return out;
    }

    @Override
    public final List<TranscriptEntry> finish() {
        List<TranscriptEntry> out = new ArrayList<>();
        if (pending.length() > 0) {
            line(pending.toString(), out);
            pending.setLength(0);
        }
        return out;
    }

    private void line(String raw, List<TranscriptEntry> out) {
        String line = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
        if (line.isBlank()) {
            return;
        }
        JsonNode n = null;
        if (parsesJson() && line.stripLeading().startsWith("{")) {
            try {
                n = Json.mapper().readTree(line);
            } catch (JsonProcessingException e) {
                n = null;
            }
        }
        if (n == null || !n.isObject()) {
            out.add(new TranscriptEntry.Output(line));
            return;
        }
        event(n, out);
    }

    /** Whether lines are JSON events; when not, every line is output as it is. */
    boolean parsesJson() {
        return true;
    }

    /** Adds the entries of one event (nothing for an event it does not know). */
    abstract void event(JsonNode event, List<TranscriptEntry> out);

    static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.isValueNode() ? v.asText() : v.toString();
    }

    static Long longOrNull(JsonNode n) {
        return n == null || !n.isNumber() ? null : n.asLong();
    }
}
