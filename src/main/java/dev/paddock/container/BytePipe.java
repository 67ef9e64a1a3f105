package dev.paddock.container;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A bounded pipe between threads, unlike {@link java.io.PipedInputStream} indifferent to which thread writes or
 * dies: chunks written to {@link #sink()} are read from {@link #source()}; closing the sink is an end of stream
 * for the reader, closing the source makes further writes fail.
 */
final class BytePipe {
    private static final byte[] END = new byte[0];

    private final BlockingQueue<byte[]> chunks;
    private volatile boolean readerGone;
    private volatile boolean ended;

    /** @param capacity chunks that may wait before a writer blocks */
    BytePipe(int capacity) {
        this.chunks = new ArrayBlockingQueue<>(capacity);
    }

    OutputStream sink() {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                if (ended || readerGone) {
                    throw new IOException("the pipe is closed");
                }
                if (len == 0) {
                    return;
                }
                put(Arrays.copyOfRange(b, off, off + len));
            }

            @Override
            public void close() {
                end();
            }
        };
    }

    /** Ends the stream for the reader (once; later writes fail). */
    void end() {
        if (!ended) {
            ended = true;
            chunks.offer(END); // a full queue: the reader sees ended when it drains it
        }
    }

    private void put(byte[] chunk) throws IOException {
        try {
            while (!readerGone && !chunks.offer(chunk, 100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                // wait for room while a reader is there
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while writing to the pipe");
        }
        if (readerGone) {
            throw new IOException("the pipe's reader is gone");
        }
    }

    InputStream source() {
        return new InputStream() {
            private byte[] current;
            private int pos;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (len == 0) {
                    return 0;
                }
                while (current == null || pos >= current.length) {
                    if (current == END || readerGone) {
                        return -1;
                    }
                    try {
                        byte[] next = chunks.poll(100, java.util.concurrent.TimeUnit.MILLISECONDS);
                        if (next == null) {
                            if (ended && chunks.isEmpty()) {
                                current = END;
                            }
                            continue;
                        }
                        current = next;
                        pos = 0;
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new InterruptedIOException("interrupted while reading the pipe");
                    }
                }
                int n = Math.min(len, current.length - pos);
                System.arraycopy(current, pos, b, off, n);
                pos += n;
                return n;
            }

            @Override
            public void close() {
                readerGone = true;
                chunks.clear();
            }
        };
    }
}
