package dev.paddock.sandbox;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sandbox tokens: each run of a sandbox's agent gets a new one ({@link SandboxStore#issueToken}), which exists in
 * Paddock's memory while the agent is being started and in the agent's environment ({@code PADDOCK_TOKEN});
 * the store keeps its SHA-256 only ({@link dev.paddock.common.TokenHash}).
 */
public final class SandboxTokens {
    private static final SecureRandom RANDOM = new SecureRandom();

    private SandboxTokens() {}

    /** A new token: 256 random bits, URL-safe base64 without padding (43 characters). */
    public static String newToken() {
        byte[] raw = new byte[32];
        RANDOM.nextBytes(raw);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    }

    /**
     * Token hashes already looked up, and their sandbox: an agent sends a heartbeat or a hook call every few
     * seconds, each would otherwise cost a store query. Bounded (cleared when full); a sandbox's entries are
     * dropped when it gets a new token.
     *
     * <p>A lookup racing a new token must not put the old hash back after it was dropped: every drop bumps a
     * generation, and an entry looked up under an older generation is removed again.
     */
    static final class Cache {
        private static final int MAX = 4096;
        private final Map<String, String> idByHash = new ConcurrentHashMap<>();
        private final AtomicLong generation = new AtomicLong();

        Optional<String> get(String hash) {
            return Optional.ofNullable(idByHash.get(hash));
        }

        /** The generation to pass to {@link #put} for a lookup that starts now. */
        long generation() {
            return generation.get();
        }

        /** Remembers a lookup's answer unless a token changed since it started ({@code since}). */
        void put(String hash, String id, long since) {
            if (idByHash.size() >= MAX) {
                idByHash.clear();
            }
            idByHash.put(hash, id);
            if (generation.get() != since) {
                idByHash.remove(hash, id);
            }
        }

        /** Drops the entries of a sandbox whose token was just replaced in the store. */
        void forget(String id) {
            generation.incrementAndGet();
            idByHash.values().removeIf(id::equals);
        }
    }
}
