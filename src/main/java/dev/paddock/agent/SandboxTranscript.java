package dev.paddock.agent;

import dev.paddock.sandbox.SandboxException;
import dev.paddock.sandbox.SandboxRecord;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A sandbox's transcript, read back from its agent's log with the parser of its preset's output
 * ({@link AgentPreset#format()}): Claude Code's stream-json, Codex's JSON lines, Gemini CLI's stream-json, or text.
 * The log's own lines (Paddock's {@code === ... run N of ID: ...} header before each run, an agent's stray
 * output) come out as {@link TranscriptEntry.Output}. The last {@value #MAX_BYTES} bytes are read at most, from the
 * first whole line in them.
 */
public final class SandboxTranscript {
    /** Most bytes of a log read (its end). */
    public static final int MAX_BYTES = 8 * 1024 * 1024;

    private SandboxTranscript() {
    }

    /**
     * The transcript in {@code log} of sandbox {@code s}; empty when the log is not there (yet).
     *
     * @throws SandboxException when the log cannot be read
     */
    public static Transcript read(SandboxRecord s, Path log) throws SandboxException {
        AgentPreset preset = PresetPrograms.presetOf(s.agent());
        if (!Files.exists(log)) {
            return Transcript.EMPTY;
        }
        String text;
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
            long start = Math.max(0, f.length() - MAX_BYTES);
            byte[] bytes = new byte[(int) (f.length() - start)];
            f.seek(start);
            f.readFully(bytes);
            text = new String(bytes, StandardCharsets.UTF_8);
            if (start > 0) {
                text = text.substring(text.indexOf('\n') + 1);
            }
        } catch (IOException e) {
            throw new SandboxException("Cannot read the log of " + s.id() + ": " + e.getMessage(), e);
        }
        TranscriptParser parser = preset.format().newParser();
        return Transcript.EMPTY.plus(parser.feed(text)).plus(parser.finish());
    }
}
