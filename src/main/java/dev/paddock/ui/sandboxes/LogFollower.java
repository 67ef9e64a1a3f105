package dev.paddock.ui.sandboxes;

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
 * Follows a growing log file like {@code tail -f}: the first {@link #poll} returns the last
 * {@link #TAIL_BYTES} bytes (from a line start), later ones only what was appended since. A file that
 * shrank or was replaced starts over. UTF-8 characters split between two polls are kept whole. Not
 * thread-safe: one poller at a time.
 */
final class LogFollower {
    /** Bytes shown at most when following starts, or when more than that arrived between two polls. */
    static final int TAIL_BYTES = 64 * 1024;

    /**
     * What a poll found.
     *
     * @param reset whether the text replaces what was shown (first poll, file replaced, or too much arrived)
     * @param text the new text (may be empty)
     */
    record Chunk(boolean reset, String text) {
    }

    private final Path file;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
    private long offset = -1;
    private byte[] carry = new byte[0];

    LogFollower(Path file) {
        this.file = file;
    }

    /** Reads what is new. A missing file is an empty log. */
    Chunk poll() throws IOException {
        if (!Files.exists(file)) {
            boolean reset = offset != 0;
            offset = 0;
            carry = new byte[0];
            return new Chunk(reset, "");
        }
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            long length = f.length();
            boolean reset = false;
            boolean skipToLine = false;
            if (offset < 0 || length < offset || length - offset > TAIL_BYTES * 4L) {
                reset = true;
                long start = Math.max(0, length - TAIL_BYTES);
                skipToLine = start > 0;
                offset = start;
                carry = new byte[0];
            }
            int n = (int) (length - offset);
            byte[] bytes = new byte[carry.length + n];
            System.arraycopy(carry, 0, bytes, 0, carry.length);
            f.seek(offset);
            f.readFully(bytes, carry.length, n);
            offset = length;
            int from = 0;
            if (skipToLine) {
                int nl = indexOf(bytes, (byte) '\n');
                from = nl < 0 ? bytes.length : nl + 1;
            }
            return new Chunk(reset, decode(bytes, from));
        }
    }

    /** Decodes complete UTF-8 characters and keeps an incomplete one at the end for the next poll. */
    private String decode(byte[] bytes, int from) {
        ByteBuffer in = ByteBuffer.wrap(bytes, from, bytes.length - from);
        CharBuffer out = CharBuffer.allocate(bytes.length - from + 1);
        decoder.reset();
        decoder.decode(in, out, false);
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
