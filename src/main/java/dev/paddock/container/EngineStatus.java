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
 * @param source where the endpoint came from ({@link DockerEndpoint#source()}: {@code DOCKER_HOST},
 *     {@code context NAME}, {@code default socket}, {@code given}), or null when not known
 */
public record EngineStatus(
        boolean reachable, String endpoint, String version, String error, Instant checkedAt, String source) {

    /** A status whose endpoint's origin is not known. */
    public EngineStatus(boolean reachable, String endpoint, String version, String error, Instant checkedAt) {
        this(reachable, endpoint, version, error, checkedAt, null);
    }

    /** Whether a check ran (false for {@link #unknown()}). */
    public boolean checked() {
        return checkedAt.isAfter(Instant.EPOCH);
    }

    /** "unix:///var/run/docker.sock (default socket)", or the bare endpoint when its origin is unknown. */
    public String endpointText() {
        return endpoint == null ? "an unknown address" : source == null ? endpoint : endpoint + " (" + source + ")";
    }

    /** The error of {@link #unknown()}. */
    public static final String NOT_CHECKED = "not checked yet";

    /** A status saying the engine has not been checked yet. */
    public static EngineStatus unknown() {
        return new EngineStatus(false, null, null, NOT_CHECKED, Instant.EPOCH);
    }

    /** One short line for a status bar. */
    public String summary() {
        if (reachable) {
            return "Docker " + (version == null ? "" : version);
        }
        return "Docker unreachable";
    }
}
