package dev.paddock.api;

import dev.paddock.common.PaddockException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Set;

/**
 * The per-install bearer token of the loopback API: 32 random bytes, base64url, kept in a file that
 * only its owner can read or write (mode 600 on POSIX systems). Created on first use.
 */
public final class ApiToken {
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private final String value;

    private ApiToken(String value) {
        this.value = value;
    }

    /**
     * Reads the token file, creating it (owner-only) when missing, and tightens its permissions when
     * someone loosened them.
     *
     * @throws PaddockException when the file cannot be read or written
     */
    public static ApiToken loadOrCreate(Path file) throws PaddockException {
        try {
            if (!Files.exists(file)) {
                byte[] raw = new byte[32];
                new SecureRandom().nextBytes(raw);
                String token = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
                try {
                    if (posix(file)) {
                        Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                    } else {
                        Files.createFile(file);
                    }
                    Files.writeString(file, token + "\n", StandardCharsets.US_ASCII);
                } catch (FileAlreadyExistsException raced) {
                    // another Paddock created it a moment ago: read theirs below
                }
            }
            if (posix(file) && !Files.getPosixFilePermissions(file).equals(OWNER_ONLY)) {
                Files.setPosixFilePermissions(file, OWNER_ONLY);
            }
            return read(file);
        } catch (IOException e) {
            throw new PaddockException("Cannot read or create the API token file " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads an existing token file.
     *
     * @throws PaddockException when it is missing, unreadable or empty
     */
    public static ApiToken read(Path file) throws PaddockException {
        try {
            String token = Files.readString(file, StandardCharsets.US_ASCII).strip();
            if (token.isEmpty()) {
                throw new PaddockException("The API token file " + file + " is empty; delete it and restart Paddock.");
            }
            return new ApiToken(token);
        } catch (IOException e) {
            throw new PaddockException("Cannot read the API token file " + file + ": " + e.getMessage(), e);
        }
    }

    private static boolean posix(Path file) {
        return file.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    /** The token text, for an {@code Authorization: Bearer} header. */
    public String value() {
        return value;
    }

    /** Constant-time comparison with a presented token (null never matches). */
    public boolean matches(String presented) {
        if (presented == null) {
            return false;
        }
        return MessageDigest.isEqual(
                value.getBytes(StandardCharsets.US_ASCII), presented.getBytes(StandardCharsets.US_ASCII));
    }
}
