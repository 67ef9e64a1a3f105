package dev.paddock.sandbox;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A sandbox's heartbeat file, as {@code paddock heartbeat} writes it without a network ({@link AgentCommands}):
 * the progress on the first line, then {@code seq N}, one more than the file held before. Every write replaces the
 * file through a rename.
 *
 * <p>A file is a new heartbeat when its content differs from the last one taken for the same run of the agent.
 * Not its modification time: the file system stamps files from the kernel's coarse clock, which can lag the
 * clock the supervisor records heartbeats with by a few milliseconds, so a heartbeat written just after the
 * previous one was read could carry a time at or before it and was dropped. The sequence number makes two
 * heartbeats with the same progress differ. What was taken is remembered in memory, and so is a look that found no
 * file: a file that then appears is new. Only the first look at a run that already has a file (after a restart of
 * Paddock) has no memory to go by: a file whose progress is the recorded one was taken before; another counts when
 * there is no heartbeat yet or its time is no more than {@link #COARSE_CLOCK} before the last one (an API heartbeat
 * sent just before the file was written can carry a later time than the file).
 */
public final class HeartbeatFile {
    /** At most this much of a file is read (a progress text is cut to {@link #PROGRESS_MAX} characters anyway). */
    static final int MAX_BYTES = 8192;

    /** The longest progress text kept. */
    static final int PROGRESS_MAX = 500;

    /** How far a file's time can lag the clock heartbeats are recorded with (a few kernel ticks). */
    static final Duration COARSE_CLOCK = Duration.ofMillis(20);

    private static final String SEQ = "seq ";

    /** What was taken last, per sandbox id, with the run it belongs to; {@code content} null: no file was there. */
    private record Taken(int run, String content) {}

    private final Map<String, Taken> taken = new ConcurrentHashMap<>();

    /**
     * The progress of a heartbeat written since the last call for this sandbox's run, or empty. Call
     * {@link #taken} once it is recorded.
     *
     * @throws IOException when the file exists but cannot be read
     */
    Optional<Beat> poll(SandboxRecord s, Path file) throws IOException {
        String content;
        // The time first: a file replaced between the two reads then looks newer, never older. In milliseconds, by
        // java.io.File: 0 is no file, found without an exception (most agents heartbeat by the API: the supervisor
        // looks at hundreds of missing files a second).
        long modifiedMs = file.toFile().lastModified();
        if (modifiedMs == 0) {
            taken.put(s.id(), new Taken(s.run().iteration(), null));
            return Optional.empty();
        }
        try {
            content = read(file);
        } catch (NoSuchFileException e) {
            taken.put(s.id(), new Taken(s.run().iteration(), null));
            return Optional.empty();
        }
        Taken last = taken.get(s.id());
        if (last != null && last.run() == s.run().iteration()) {
            return content.equals(last.content()) ? Optional.empty() : Optional.of(new Beat(s, content));
        }
        Beat beat = new Beat(s, content);
        Instant since = s.lease().lastHeartbeatAt();
        if (since != null
                && (beat.progress().equals(s.lease().progress())
                        || Instant.ofEpochMilli(modifiedMs).isBefore(since.minus(COARSE_CLOCK)))) {
            taken.put(s.id(), new Taken(s.run().iteration(), content)); // taken before this Paddock looked
            return Optional.empty();
        }
        return Optional.of(beat);
    }

    /** Remembers a heartbeat as taken (recorded, or refused because the sandbox no longer runs). */
    void taken(Beat beat) {
        taken.put(beat.sandbox().id(), new Taken(beat.sandbox().run().iteration(), beat.content()));
    }

    /** Forgets a sandbox (its run ended). */
    void forget(String sandboxId) {
        taken.remove(sandboxId);
    }

    /**
     * A heartbeat found in the file.
     *
     * @param sandbox the sandbox as read when it was found
     * @param content the file's whole content
     */
    record Beat(SandboxRecord sandbox, String content) {
        /** The first line, stripped, cut to {@link #PROGRESS_MAX} characters. */
        String progress() {
            int nl = content.indexOf('\n');
            String line = (nl < 0 ? content : content.substring(0, nl)).strip();
            return line.length() > PROGRESS_MAX ? line.substring(0, PROGRESS_MAX) : line;
        }
    }

    /** The first {@link #MAX_BYTES} of the file; a longer file's length is appended, so its end still counts. */
    private static String read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            String head = new String(in.readNBytes(MAX_BYTES), StandardCharsets.UTF_8);
            long more = in.transferTo(java.io.OutputStream.nullOutputStream());
            return more == 0 ? head : head + "\n[" + more + " more bytes]";
        }
    }

    /**
     * What a heartbeat with {@code progress} writes into {@code file} now: the progress as one line, then the
     * sequence number after the one the file holds ({@code seq 1} when it holds none).
     */
    public static String next(Path file, String progress) {
        long seq = 0;
        try {
            String old = read(file);
            for (String line : old.split("\n")) {
                if (line.startsWith(SEQ) && line.substring(SEQ.length()).matches("[0-9]{1,18}")) {
                    seq = Long.parseLong(line.substring(SEQ.length()));
                }
            }
        } catch (IOException e) {
            // no file yet (or unreadable): the first heartbeat
        }
        return progress.replace('\n', ' ').replace('\r', ' ') + "\n" + SEQ + (seq + 1) + "\n";
    }
}
