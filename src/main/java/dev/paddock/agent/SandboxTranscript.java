package dev.paddock.agent;

import dev.paddock.sandbox.SandboxException;
import dev.paddock.sandbox.SandboxRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A sandbox's transcript, read back from its agent's log with the parser of its preset's output
 * ({@link AgentPreset#format()}): Claude Code's stream-json, Codex's JSON lines, Gemini CLI's stream-json, or text.
 * The log's own lines (Paddock's {@code === ... run N of ID: ...} header before each run, an agent's stray
 * output) come out as {@link TranscriptEntry.Output}. The last {@value #MAX_BYTES} bytes are read at most, from the
 * first whole line in them, by a {@link TranscriptFollower}.
 */
public final class SandboxTranscript {
    /** Most bytes of a log read (its end). */
    public static final int MAX_BYTES = 8 * 1024 * 1024;
    /** Most approvals (the newest) a transcript's tool calls are paired with. */
    public static final int MAX_APPROVALS = 20_000;

    private SandboxTranscript() {}

    /**
     * The transcript in {@code log} of sandbox {@code s}; empty when the log is not there (yet).
     *
     * @throws SandboxException when the log cannot be read
     */
    public static Transcript read(SandboxRecord s, Path log) throws SandboxException {
        AgentPreset preset = PresetPrograms.presetOf(s.spec().agent());
        if (!Files.exists(log)) {
            return Transcript.EMPTY;
        }
        try {
            return Transcript.EMPTY.plus(new TranscriptFollower(log, preset.format(), MAX_BYTES)
                    .finish()
                    .entries());
        } catch (IOException e) {
            throw new SandboxException("Cannot read the log of " + s.id() + ": " + e.getMessage(), e);
        }
    }
}
