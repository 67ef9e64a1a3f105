package dev.paddock.cli.thin;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One {@code GET} to the API on {@code 127.0.0.1}, over a plain socket: HTTP/1.1, {@code Connection: close}, the
 * install token as a bearer token, the same deadlines as the full CLI's {@code ApiClient} (2 s to connect, 10 s for
 * each read). {@code HttpURLConnection} would load about a hundred classes more for the same request.
 */
final class LoopbackGet {
    /** Time to connect: the API is on loopback, so a connection that takes longer will not come. */
    private static final int CONNECT_TIMEOUT_MS = 2000;
    /** Time a read may wait, as {@code ApiClient.TIMEOUT}. */
    private static final int READ_TIMEOUT_MS = 10_000;
    /** Longest answer taken; a larger one is left to the full CLI. */
    private static final int MAX_ANSWER_BYTES = 64 * 1024 * 1024;

    private LoopbackGet() {}

    /**
     * The body of a {@code 200} answer to {@code GET pathAndQuery} that carries the header {@code header} with
     * {@code value} and has a {@code Content-Length} (or none, then up to the end of the connection); null for any
     * other answer (another status, a chunked or cut answer, a missing header).
     *
     * @throws IOException when nothing answers in time
     */
    static byte[] get(LiveApi api, String pathAndQuery, String header, String value) throws IOException {
        byte[] raw;
        try (Socket s = new Socket()) {
            s.connect(
                    new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), api.port()),
                    CONNECT_TIMEOUT_MS);
            s.setSoTimeout(READ_TIMEOUT_MS);
            String request = new StringBuilder("GET ")
                    .append(pathAndQuery)
                    .append(" HTTP/1.1\r\nHost: 127.0.0.1:")
                    .append(api.port())
                    .append("\r\nAuthorization: Bearer ")
                    .append(api.token())
                    .append("\r\nAccept: text/plain\r\nConnection: close\r\n\r\n")
                    .toString();
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            raw = readAll(s.getInputStream());
        }
        return raw == null ? null : body(raw, header, value);
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream(8192);
        byte[] buf = new byte[8192];
        for (int n; (n = in.read(buf)) > 0; ) {
            all.write(buf, 0, n);
            if (all.size() > MAX_ANSWER_BYTES) {
                return null;
            }
        }
        return all.toByteArray();
    }

    /** The body of a whole {@code 200} answer with {@code header: value}, else null. */
    static byte[] body(byte[] raw, String header, String value) {
        int end = headEnd(raw);
        if (end < 0) {
            return null;
        }
        // Split by hand: String.split with a two-character separator compiles a regular expression.
        String head = new String(raw, 0, end, StandardCharsets.ISO_8859_1);
        java.util.List<String> lines = new java.util.ArrayList<>();
        for (int from = 0, at; from <= head.length(); from = at + 2) {
            at = head.indexOf("\r\n", from);
            at = at < 0 ? head.length() : at;
            lines.add(head.substring(from, at));
        }
        if (!lines.get(0).startsWith("HTTP/1.1 200 ") && !lines.get(0).equals("HTTP/1.1 200")) {
            return null;
        }
        long length = -1;
        boolean marked = false;
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            int colon = line.indexOf(':');
            if (colon <= 0) {
                return null;
            }
            String name = line.substring(0, colon).trim();
            String v = line.substring(colon + 1).trim();
            if (name.equalsIgnoreCase("Transfer-Encoding")) {
                return null;
            } else if (name.equalsIgnoreCase("Content-Length")) {
                try {
                    length = Long.parseLong(v);
                } catch (NumberFormatException e) {
                    return null;
                }
            } else if (name.equalsIgnoreCase(header)) {
                marked = v.equals(value);
            }
        }
        int start = end + 4;
        if (!marked || length >= 0 && raw.length - start != length) {
            return null;
        }
        byte[] body = new byte[raw.length - start];
        System.arraycopy(raw, start, body, 0, body.length);
        return body;
    }

    /** Where the head ends ({@code \r\n\r\n}), or -1. */
    private static int headEnd(byte[] raw) {
        for (int i = 0; i + 3 < raw.length; i++) {
            if (raw[i] == '\r' && raw[i + 1] == '\n' && raw[i + 2] == '\r' && raw[i + 3] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
