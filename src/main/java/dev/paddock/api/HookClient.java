package dev.paddock.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import dev.paddock.common.Threads;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;

/**
 * The Claude Code hook's conversation with the broker, in Java ({@code paddock hook claude}): the same request,
 * proof and deadlines as the shell hook ({@link HookAuth}; {@code dev.paddock.approval.HookScript}), over a plain
 * socket so that every step has a bound. The hook's key is never sent; an answer counts only with the proof.
 */
public final class HookClient {
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Longest answer line kept, and most headers taken: a peer that streams without end must not fill memory. */
    private static final int MAX_LINE = 1 << 16;

    private static final int MAX_HEADERS = 64;

    private final String host;
    private final int port;
    private final String keyId;
    private final String key;
    private final Duration answer;
    private final Duration quiet;

    /**
     * @param baseUrl the broker, {@code http://127.0.0.1:PORT} ({@code localhost} is taken as 127.0.0.1)
     * @param keyId {@link HookAuth#INSTALL} or {@code sandbox/<id>}
     * @param answer time for connecting, sending and the first answer
     * @param quiet longest silence while a person decides
     * @throws PaddockException when {@code baseUrl} is not such a URL
     */
    public HookClient(String baseUrl, String keyId, String key, Duration answer, Duration quiet)
            throws PaddockException {
        URI uri;
        try {
            uri = URI.create(baseUrl.strip());
        } catch (IllegalArgumentException e) {
            throw new PaddockException("\"" + baseUrl + "\" is not the URL of Paddock's API.", e);
        }
        String h = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
        if (!"http".equals(uri.getScheme()) || uri.getPort() < 1 || !(h.equals("127.0.0.1") || h.equals("localhost"))) {
            throw new PaddockException("\"" + baseUrl + "\" is not http://127.0.0.1:PORT, the URL of Paddock's API.");
        }
        this.host = "127.0.0.1";
        this.port = uri.getPort();
        this.keyId = keyId;
        this.key = key;
        this.answer = answer;
        this.quiet = quiet;
    }

    /** The broker's decision: allow or deny, and the reason it gives. */
    public record Decision(boolean allow, String reason) {}

    /** The server on the port did not prove it is the broker of this key (another program, another home). */
    public static final class Unproven extends PaddockException {
        private static final long serialVersionUID = 1L;

        Unproven(String message) {
            super(message);
        }
    }

    /**
     * Asks the broker about one PreToolUse payload.
     *
     * @param sandboxId sent as {@code ?sandbox=}, or null
     * @param cap the whole time the call may take, waits for a person included
     * @throws ApiUnreachableException when the broker cannot be reached or misses a deadline
     * @throws ApiAnswerException when the real broker answers an error status (its message)
     * @throws PaddockException when the server on the port does not prove it is the broker of this key
     */
    public Decision ask(byte[] payload, String sandboxId, Duration cap) throws PaddockException {
        long start = System.nanoTime();
        long capEnd = start + cap.toNanos();
        long answerEnd = Math.min(capEnd, start + answer.toNanos());
        String hostPort = host + ":" + port;
        String target = ApprovalRoutes.HOOK + (sandboxId == null ? "" : "?sandbox=" + sandboxId);
        byte[] n = new byte[16];
        RANDOM.nextBytes(n);
        String nonce = HexFormat.of().formatHex(n);
        long ts = System.currentTimeMillis() / 1000;
        String mac = HookAuth.requestMac(key, keyId, ts, nonce, hostPort, "POST", target, payload);
        String proof = HookAuth.answerProof(key, keyId, nonce, hostPort);
        String head = "POST " + target + " HTTP/1.0\r\nHost: " + hostPort + "\r\n" + HookAuth.AUTH_HEADER + ": "
                + new HookAuth.Presented(keyId, ts, nonce, mac).header() + "\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + payload.length + "\r\n\r\n";
        Socket socket = new Socket();
        // Closes the socket at the first deadline unless the answer was verified: a write to a peer that never
        // reads has no timeout of its own.
        Thread watchdog = Threads.start("hook-watchdog", () -> {
            try {
                Thread.sleep(Math.max(1, (answerEnd - System.nanoTime()) / 1_000_000));
                socket.close();
            } catch (InterruptedException | IOException released) {
                // verified in time, or already closed
            }
        });
        try (socket) {
            try {
                socket.connect(new InetSocketAddress(host, port), millisLeft(answerEnd));
                OutputStream out = socket.getOutputStream();
                out.write(head.getBytes(StandardCharsets.US_ASCII));
                out.write(payload);
                out.flush();
                InputStream in = socket.getInputStream();
                socket.setSoTimeout(millisLeft(answerEnd));
                String status = line(in);
                String[] parts = status.split(" ", 3);
                int code = parts.length >= 2 && parts[1].matches("[0-9]{3}") ? Integer.parseInt(parts[1]) : 0;
                String got = null;
                int headers = 0;
                for (String h = line(in); !h.isEmpty(); h = line(in)) {
                    if (++headers > MAX_HEADERS) {
                        throw new PaddockException("the server on " + hostPort + " sent too many headers");
                    }
                    socket.setSoTimeout(millisLeft(answerEnd));
                    int colon = h.indexOf(':');
                    if (colon > 0 && h.substring(0, colon).strip().equalsIgnoreCase(HookAuth.PROOF_HEADER)) {
                        got = h.substring(colon + 1).strip();
                    }
                }
                if (!HookAuth.same(proof, got)) {
                    throw new Unproven(
                            code == 401
                                    ? "the server on " + hostPort + " refused this hook's key"
                                            + " (HTTP 401): it is not this home's Paddock, or the key is wrong"
                                    : "the server on " + hostPort + " did not prove it is this home's Paddock (HTTP "
                                            + code + ")");
                }
                watchdog.interrupt();
                if (code != 200) {
                    socket.setSoTimeout((int) quiet.toMillis());
                    String body = new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8);
                    throw new ApiAnswerException(code, errorOf(body, code), null);
                }
                int c;
                do {
                    long left = millisLeft(capEnd);
                    socket.setSoTimeout((int) Math.min(left, quiet.toMillis()));
                    c = in.read();
                } while (c == ' ');
                if (c < 0) {
                    throw new ApiUnreachableException("Paddock's broker closed the connection without an answer", null);
                }
                socket.setSoTimeout((int) quiet.toMillis());
                String verdict = (char) c + line(in);
                line(in); // the shell hook's stdout JSON: rebuilt by the caller
                String reason = line(in);
                if (!verdict.equals("allow") && !verdict.equals("deny")) {
                    throw new PaddockException("Paddock's answer is not understood: " + verdict);
                }
                return new Decision(verdict.equals("allow"), reason);
            } catch (SocketTimeoutException e) {
                throw new ApiUnreachableException("Paddock's broker gave no answer or sign in time", e);
            } catch (IOException e) {
                throw new ApiUnreachableException(
                        System.nanoTime() >= answerEnd
                                ? "Paddock's broker did not answer within " + answer.toSeconds() + " s"
                                : "Paddock's broker cannot be reached at " + hostPort + " (" + e.getMessage() + ")",
                        e);
            }
        } catch (IOException e) {
            throw new ApiUnreachableException("Paddock's broker cannot be reached at " + hostPort, e);
        } finally {
            watchdog.interrupt();
        }
    }

    private static int millisLeft(long end) throws SocketTimeoutException {
        long ms = (end - System.nanoTime()) / 1_000_000;
        if (ms <= 0) {
            throw new SocketTimeoutException("deadline passed");
        }
        return (int) Math.min(Integer.MAX_VALUE, ms);
    }

    /** One line without its CR LF, as UTF-8; end of stream ends it. */
    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
            if (b.size() >= MAX_LINE) {
                throw new IOException("an answer line longer than " + MAX_LINE + " bytes");
            }
            b.write(c);
        }
        String s = b.toString(StandardCharsets.UTF_8);
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
    }

    private static String errorOf(String body, int code) {
        try {
            JsonNode n = Json.mapper().readTree(body);
            if (n != null && n.hasNonNull("error")) {
                return n.get("error").asText();
            }
        } catch (IOException | RuntimeException notJson) {
            // fall through
        }
        return "the broker answered HTTP " + code;
    }
}
