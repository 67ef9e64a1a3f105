package dev.paddock.agent;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Follows a growing log file (an agent's stdout) into a {@link TranscriptParser}: each {@link #poll} reads what was
 * appended since the last one and hands the parser the complete lines only, so a UTF-8 character or a line split
 * across two writes is read whole. A file that shrank (replaced, truncated) is read again from its start. Not
 * thread-safe.
 */
public final class LogFollower {
    private static final int CHUNK = 256 * 1024;
    private final Path file;
    private final TranscriptParser parser;
    private long offset;
    private byte[] carry = new byte[0];

    public LogFollower(Path file, TranscriptParser parser) {
        this.file = file;
        this.parser = parser;
    }

    /**
     * The entries of the lines completed since the last call (none when the file does not exist yet).
     *
     * @throws IOException when the file exists but cannot be read
     */
    public List<TranscriptEntry> poll() throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < offset) {
                offset = 0;
                carry = new byte[0];
            }
            java.util.ArrayList<TranscriptEntry> out = new java.util.ArrayList<>();
            ByteBuffer buf = ByteBuffer.allocate(CHUNK);
            while (offset < size) {
                buf.clear();
                int n = ch.read(buf, offset);
                if (n <= 0) {
                    break;
                }
                offset += n;
                byte[] data = new byte[carry.length + n];
                System.arraycopy(carry, 0, data, 0, carry.length);
                System.arraycopy(buf.array(), 0, data, carry.length, n);
                int lastNewline = -1;
                for (int i = data.length - 1; i >= 0; i--) {
                    if (data[i] == '\n') {
                        lastNewline = i;
                        break;
                    }
                }
                if (lastNewline < 0) {
                    carry = data;
                    if (carry.length > JsonLineParser.MAX_LINE) {
                        // A line without end: the parser drops it and says so.
                        out.addAll(parser.feed(new String(carry, StandardCharsets.UTF_8)));
                        carry = new byte[0];
                    }
                    continue;
                }
                out.addAll(parser.feed(new String(data, 0, lastNewline + 1, StandardCharsets.UTF_8)));
                carry = java.util.Arrays.copyOfRange(data, lastNewline + 1, data.length);
            }
            return out;
        } catch (NoSuchFileException e) {
            return List.of();
        }
    }

    /** After the agent exited: the entries of a last line without a line break. */
    public List<TranscriptEntry> finish() throws IOException {
        List<TranscriptEntry> out = new java.util.ArrayList<>(poll());
        if (carry.length > 0) {
            out.addAll(parser.feed(new String(carry, StandardCharsets.UTF_8)));
            carry = new byte[0];
        }
        out.addAll(parser.finish());
        return out;
    }
}
