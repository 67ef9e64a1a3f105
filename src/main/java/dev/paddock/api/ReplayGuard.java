package dev.paddock.api;

import java.time.Clock;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Refuses a hook request whose MAC was already used, or whose time is far from this clock: a request captured
 * by whoever listened on the hook's port cannot be sent again. A nonce is remembered for twice the window, so
 * one older than that is refused for its time instead. Only requests whose MAC checked out are remembered, so
 * nobody without a key can fill the memory.
 */
final class ReplayGuard {
    /** How far a request's time may be from this clock, in seconds. */
    static final long WINDOW_S = 60;
    /** Nonces kept at most; beyond that the guard refuses everything until old ones expire. */
    static final int MAX_KEPT = 200_000;

    private final Clock clock;
    private final Map<String, Long> seen = new ConcurrentHashMap<>();
    /** When expired nonces are next dropped, Unix seconds. */
    private final AtomicLong nextPurge = new AtomicLong();

    ReplayGuard(Clock clock) {
        this.clock = clock;
    }

    /**
     * Accepts a verified request once.
     *
     * @param ts the request's time, Unix seconds
     * @throws ApiError 401 when its time is outside the window or its nonce was seen before; 503 when too
     *     many are remembered
     */
    void accept(String keyId, long ts, String nonce) throws ApiError {
        long now = clock.instant().getEpochSecond();
        if (Math.abs(now - ts) > WINDOW_S) {
            throw new ApiError(
                    401,
                    "the hook's time (" + ts + ") is more than " + WINDOW_S + " s from Paddock's (" + now + ")",
                    "stale_request");
        }
        if (seen.size() >= MAX_KEPT) {
            purge(now);
            if (seen.size() >= MAX_KEPT) {
                throw new ApiError(503, "too many hook requests in the last minutes", "busy");
            }
        }
        if (seen.putIfAbsent(keyId + " " + nonce, now + 2 * WINDOW_S) != null) {
            throw new ApiError(401, "this hook request was already answered (replayed nonce)", "replayed_request");
        }
        long due = nextPurge.get();
        if (now >= due && nextPurge.compareAndSet(due, now + WINDOW_S)) {
            purge(now);
        }
    }

    private void purge(long now) {
        for (Iterator<Long> it = seen.values().iterator(); it.hasNext(); ) {
            if (it.next() < now) {
                it.remove();
            }
        }
    }
}
