package dev.paddock.api;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * How the Claude Code hook and the broker recognise each other without the hook ever sending a token (see
 * docs/decisions/0003-loopback-api-hardening.md). The same formats are written out in shell in
 * {@code dev.paddock.approval.HookScript} and in C in {@code src/main/c/paddock-hook-claude.c}; change all three
 * together.
 *
 * <p>Both sides know a key: the install's token ({@code api-token}) for a hook outside a sandbox (key id
 * {@code install}), or the sandbox's hook key {@link #sandboxKey} for an agent (key id {@code sandbox/<id>},
 * given to it as {@code PADDOCK_HOOK_KEY}). The request carries
 * <pre>Paddock-Auth: v1 KEYID TS NONCE MAC</pre>
 * TS in Unix seconds, NONCE 32 lowercase hex digits (128 random bits) fresh for each call, and
 * <pre>MAC = hex(SHA-256("paddock-request-v1\n" KEYID "\n" TS "\n" NONCE "\n" HOSTPORT "\n"
 *                    METHOD " " TARGET "\n" BODY "\n" KEY "\n"))</pre>
 * where HOSTPORT is the address the hook dialled and the broker listens on ({@code 127.0.0.1:41234}), or
 * {@value #SOCKET_ADDRESS} for a hook that dialled its sandbox's API socket, and
 * TARGET the request line's path and query. Every answer to such a request carries
 * <pre>Paddock-Proof: hex(SHA-256("paddock-answer-v1\n" KEYID "\n" NONCE "\n" HOSTPORT "\n" KEY "\n"))</pre>
 * which the hook computes beforehand and compares: only a server that knows the key can send it, and only for
 * this call's nonce and the port the hook dialled, so neither an old answer nor one relayed from the real
 * broker on another port passes. The broker sends a proof only after the request's MAC checked out, so it
 * proves nothing to anyone who does not hold the key.
 *
 * <p>Why SHA-256 with the key last rather than HMAC: the hook computes these with {@code sha256sum} and has no
 * HMAC tool. With the key as the last, fixed field of a message whose other fields are newline-free (the body
 * is bounded by the fields before it and the key after it), length extension gains nothing, and a forgery
 * needs a SHA-256 collision.
 */
public final class HookAuth {
    /** The request header that carries the hook's MAC. */
    public static final String AUTH_HEADER = "Paddock-Auth";
    /** The answer header that carries the broker's proof. */
    public static final String PROOF_HEADER = "Paddock-Proof";
    /** The key id of the install's token. */
    public static final String INSTALL = "install";
    /** Prefix of a sandbox's key id; the sandbox id follows. */
    public static final String SANDBOX_PREFIX = "sandbox/";
    /**
     * The address a hook signs (in place of {@code 127.0.0.1:PORT}) when it dials its sandbox's API socket
     * ({@code PADDOCK_API_SOCKET}); the broker takes it only for a connection that came through a sandbox's socket,
     * and only with that sandbox's key.
     */
    public static final String SOCKET_ADDRESS = "unix";
    /** The environment variable that gives an agent its sandbox's hook key. */
    public static final String KEY_VARIABLE = "PADDOCK_HOOK_KEY";

    private static final Pattern NONCE = Pattern.compile("[0-9a-f]{32}");
    private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern SANDBOX_ID = Pattern.compile("[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?");
    private static final HexFormat HEX = HexFormat.of();

    private HookAuth() {}

    /**
     * What a request's {@code Paddock-Auth} header says.
     *
     * @param keyId {@link #INSTALL} or {@code sandbox/<id>}
     * @param ts the hook's clock, Unix seconds
     * @param nonce 32 lowercase hex digits
     * @param mac 64 lowercase hex digits
     */
    public record Presented(String keyId, long ts, String nonce, String mac) {
        /** The sandbox the key id names, or null for the install's key. */
        public String sandboxId() {
            return keyId.startsWith(SANDBOX_PREFIX) ? keyId.substring(SANDBOX_PREFIX.length()) : null;
        }

        /** The header value. */
        public String header() {
            return "v1 " + keyId + " " + ts + " " + nonce + " " + mac;
        }
    }

    /**
     * Parses a {@code Paddock-Auth} value.
     *
     * @throws IllegalArgumentException when it is not {@code v1 KEYID TS NONCE MAC} with a known key id shape,
     *     a decimal TS, a 32-hex-digit nonce and a 64-hex-digit MAC (the message says which part)
     */
    public static Presented parse(String header) {
        String[] f = header == null ? new String[0] : header.strip().split(" ");
        if (f.length != 5 || !f[0].equals("v1")) {
            throw new IllegalArgumentException(AUTH_HEADER + " must be \"v1 KEYID TS NONCE MAC\"");
        }
        String keyId = f[1];
        if (!keyId.equals(INSTALL)
                && !(keyId.startsWith(SANDBOX_PREFIX)
                        && SANDBOX_ID
                                .matcher(keyId.substring(SANDBOX_PREFIX.length()))
                                .matches())) {
            throw new IllegalArgumentException("unknown key id \"" + keyId + "\": use install or sandbox/ID");
        }
        long ts;
        try {
            ts = Long.parseLong(f[2]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the time is not a number of seconds: " + f[2]);
        }
        if (!NONCE.matcher(f[3]).matches()) {
            throw new IllegalArgumentException("the nonce must be 32 lowercase hex digits");
        }
        if (!HEX64.matcher(f[4]).matches()) {
            throw new IllegalArgumentException("the MAC must be 64 lowercase hex digits");
        }
        return new Presented(keyId, ts, f[3], f[4]);
    }

    /**
     * A sandbox's hook key: {@code hex(HMAC-SHA256(installToken, "paddock-sandbox-hook-key-v1\n" + sandboxId))}.
     * Derived, not stored: the broker recomputes it for any sandbox from the install's token, so it survives
     * restarts, and an agent that knows its own learns neither the install's token nor another sandbox's key.
     */
    public static String sandboxKey(String installToken, String sandboxId) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(installToken.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HEX.formatHex(
                    mac.doFinal(("paddock-sandbox-hook-key-v1\n" + sandboxId).getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
        }
    }

    /** The request MAC (see the class comment). {@code body} is the exact bytes sent. */
    public static String requestMac(
            String key,
            String keyId,
            long ts,
            String nonce,
            String hostPort,
            String method,
            String target,
            byte[] body) {
        MessageDigest d = sha256();
        d.update(("paddock-request-v1\n" + keyId + "\n" + ts + "\n" + nonce + "\n" + hostPort + "\n" + method + " "
                        + target + "\n")
                .getBytes(StandardCharsets.UTF_8));
        d.update(body);
        d.update(("\n" + key + "\n").getBytes(StandardCharsets.UTF_8));
        return HEX.formatHex(d.digest());
    }

    /** The answer proof (see the class comment). */
    public static String answerProof(String key, String keyId, String nonce, String hostPort) {
        return HEX.formatHex(
                sha256().digest(("paddock-answer-v1\n" + keyId + "\n" + nonce + "\n" + hostPort + "\n" + key + "\n")
                        .getBytes(StandardCharsets.UTF_8)));
    }

    /** Constant-time comparison of two hex strings (null never matches). */
    public static boolean same(String a, String b) {
        return a != null
                && b != null
                && MessageDigest.isEqual(a.getBytes(StandardCharsets.US_ASCII), b.getBytes(StandardCharsets.US_ASCII));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }
}
