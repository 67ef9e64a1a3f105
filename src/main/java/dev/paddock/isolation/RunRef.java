package dev.paddock.isolation;

import java.time.Instant;

/**
 * Where a started run is, as the store records it: a process tree (its leader's pid and start) or an engine's
 * object (a container's id). Neither: a run known to have ended before it was recorded.
 *
 * @param pid the leader of its process tree (its process group), or null
 * @param startedAt when that process started (tells a reused pid apart), or null
 * @param engineId the engine's id of it (a container id), or null
 */
public record RunRef(Long pid, Instant startedAt, String engineId) {
    /** No run (nothing recorded). */
    public static final RunRef NONE = new RunRef(null, null, null);

    /** A process tree. */
    public static RunRef process(long pid, Instant startedAt) {
        return new RunRef(pid, startedAt, null);
    }

    /** An engine's object, such as a container. */
    public static RunRef engine(String id) {
        return new RunRef(null, null, id);
    }

    /** Whether it names something that may still be there. */
    public boolean present() {
        return pid != null || engineId != null;
    }

    /** What stops it is done once: the engine id, else the pid. */
    public String key() {
        return engineId != null ? engineId : String.valueOf(pid);
    }

    /** For logs: "process tree 4711", "container 0123456789ab". */
    public String describe() {
        if (engineId != null) {
            return "container " + (engineId.length() > 12 ? engineId.substring(0, 12) : engineId);
        }
        return pid != null ? "process tree " + pid : "no run";
    }
}
