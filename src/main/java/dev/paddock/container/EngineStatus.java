package dev.paddock.container;

import java.time.Instant;

/**
 * Whether a Docker engine answers.
 *
 * @param reachable true when the engine answered a ping
 * @param endpoint the engine address used (from {@code DOCKER_HOST}, the current docker context, or the
 *     default socket)
 * @param version the engine's version when reachable, else null
 * @param error why it is not reachable, else null
 * @param checkedAt when the check ran
 */
public record EngineStatus(boolean reachable, String endpoint, String version, String error, Instant checkedAt) {

    /** A status saying the engine has not been checked yet. */
    public static EngineStatus unknown() {
        return new EngineStatus(false, null, null, "not checked yet", Instant.EPOCH);
    }

    /** One short line for a status bar. */
    public String summary() {
        if (reachable) {
            return "Docker " + (version == null ? "" : version);
        }
        return "Docker unreachable";
    }
}
