package dev.paddock.agent;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** Plain-text output (Aider, a custom command): every line is an {@link TranscriptEntry.Output}. */
final class TextParser extends JsonLineParser {
    @Override
    boolean parsesJson() {
        return false;
    }

    @Override
    void event(JsonNode event, List<TranscriptEntry> out) {
        out.add(new TranscriptEntry.Output(event.toString()));
    }
}
