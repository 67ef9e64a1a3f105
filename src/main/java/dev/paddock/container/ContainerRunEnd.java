package dev.paddock.container;

import java.time.Duration;

/**
 * How a container run to its end ({@link DockerContainers#runToEnd}) ended. The container is removed by then.
 *
 * @param containerId the container's full id
 * @param exit how the container's command ended; null when it was stopped (timeout, cancel) before it ended
 * @param timedOut whether it ran past its timeout and was killed
 * @param cancelled whether it was stopped because the caller cancelled (or the thread was interrupted)
 * @param elapsed from the start call to the end (or the kill)
 */
public record ContainerRunEnd(
        String containerId, ContainerExit exit, boolean timedOut, boolean cancelled, Duration elapsed) {

    /** The command's exit code, or null when it was killed by Paddock or vanished. */
    public Long code() {
        return exit == null ? null : exit.code();
    }
}
