package dev.paddock.agent;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Follows a growing log file (an agent's output) like {@code tail -f}: the first {@link #poll} starts at the last
 * {@code tailBytes} bytes (from a line start), later ones return only what was appended since. A file that shrank
 * or was replaced starts over, and so does one that grew by more than four tails between two polls (the middle is
 * skipped). UTF-8 characters split between two writes come out whole. The panel's log view reads it as text; a
 * {@link TranscriptFollower} feeds it to an agent's parser. Not thread-safe: one poller at a time.
 */
public final class LogFollower {
    /** Bytes the log view starts with at most (its tail), and shows again when more than four of it arrived. */
    public static final int TAIL_BYTES = 64 * 1024;

    /**
     * What a poll found.
     *
     * @param reset whether the text replaces what was read before (first poll, file replaced, too much arrived)
     * @param text the new text (may be empty)
     */
    public record Chunk(boolean reset, String text) {}

    private final Path file;
    private final long tailBytes;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE);
    private long offset = -1;
    private long length;
    private long skipped;
    private boolean skipToLine;
    private byte[] carry = new byte[0];

    /** Follows {@code file} from its last {@link #TAIL_BYTES} bytes. */
    public LogFollower(Path file) {
        this(file, TAIL_BYTES);
    }

    /** Follows {@code file} from its last {@code tailBytes} bytes. */
    public LogFollower(Path file, long tailBytes) {
        if (tailBytes <= 0) {
            throw new IllegalArgumentException("tailBytes must be positive: " + tailBytes);
        }
        this.file = file;
        this.tailBytes = tailBytes;
    }

    /** Reads everything new. A missing file is an empty log. */
    public Chunk poll() throws IOException {
        return poll(Integer.MAX_VALUE);
    }

    /**
     * Reads what is new, at most {@code maxBytes} of it; {@link #behind()} then says whether more is waiting. A
     * missing file is an empty log.
     *
     * @throws IOException when the file exists but cannot be read
     */
    public Chunk poll(int maxBytes) throws IOException {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive: " + maxBytes);
        }
        if (!Files.exists(file)) {
            boolean reset = offset != 0;
            offset = 0;
            length = 0;
            skipped = 0;
            skipToLine = false;
            carry = new byte[0];
            return new Chunk(reset, "");
        }
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            length = f.length();
            boolean reset = false;
            if (offset < 0 || length < offset || (length - offset) / 4 > tailBytes) {
                reset = true;
                offset = Math.max(0, length - tailBytes);
                skipped = offset;
                skipToLine = offset > 0;
                carry = new byte[0];
                decoder.reset();
            }
            int n = (int) Math.min(length - offset, maxBytes);
            byte[] bytes = new byte[carry.length + n];
            System.arraycopy(carry, 0, bytes, 0, carry.length);
            f.seek(offset);
            f.readFully(bytes, carry.length, n);
            offset += n;
            int from = 0;
            if (skipToLine) {
                int nl = indexOf(bytes, (byte) '\n');
                if (nl < 0) {
                    // The first line goes on past what was read: keep skipping it.
                    skipped += bytes.length;
                    carry = new byte[0];
                    return new Chunk(reset, "");
                }
                from = nl + 1;
                skipped += from;
                skipToLine = false;
            }
            return new Chunk(reset, decode(bytes, from, false));
        }
    }

    /** Whether the last poll left bytes unread (it read its {@code maxBytes}). */
    public boolean behind() {
        return offset >= 0 && offset < length;
    }

    /** Bytes at the file's start that the text since the last reset leaves out (0 when it starts at the start). */
    public long skipped() {
        return skipped;
    }

    /**
     * After the writer is done: the text of the bytes kept back at the end (an incomplete UTF-8 character, shown
     * as a replacement character), or "".
     */
    public String finish() {
        if (carry.length == 0) {
            return "";
        }
        return decode(carry, 0, true);
    }

    /** Decodes complete UTF-8 characters and keeps an incomplete one at the end for the next poll. */
    private String decode(byte[] bytes, int from, boolean end) {
        ByteBuffer in = ByteBuffer.wrap(bytes, from, bytes.length - from);
        CharBuffer out = CharBuffer.allocate(bytes.length - from + 1);
        decoder.reset();
        decoder.decode(in, out, end);
        if (end) {
            decoder.flush(out);
        }
        carry = new byte[in.remaining()];
        in.get(carry);
        out.flip();
        return out.toString();
    }

    private static int indexOf(byte[] bytes, byte b) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }
}
