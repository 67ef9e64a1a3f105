package dev.paddock.common;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What the store keeps of a bearer token instead of the token: its SHA-256, as 64 lowercase hex digits.
 *
 * <p>Unkeyed and unsalted on purpose: Paddock's tokens are 256 random bits, so no dictionary or rainbow table
 * covers them and a preimage search is out of reach; a salt or a key (which would have to sit in the same home as
 * the store) would add nothing, while a plain digest lets a presented token be found through a unique index.
 * See {@code docs/decisions/0002-secrets-at-rest.md}.
 */
public final class TokenHash {
    private TokenHash() {}

    /** The SHA-256 of the token's UTF-8 bytes, lowercase hex (64 characters). */
    public static String of(String token) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e); // every Java SE platform has it
        }
    }
}
