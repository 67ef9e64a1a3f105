package dev.paddock.isolation;

import dev.paddock.container.ResourceLimits;
import java.nio.file.Path;
import java.util.Map;

/**
 * What to run, isolated: {@code /bin/sh -c <command>} in a linked worktree, and what it may touch. Every runtime
 * reads the same description; each isolates it its own way (see docs/decisions/0012-isolation-runtime.md).
 *
 * <p>Environment values are host paths: a runtime that shows the run its worktree or control directory at another
 * path (a container) gives it its own path there instead.
 *
 * @param kind an agent (watched across restarts) or a task (run to its end while the caller waits)
 * @param id who the run is, and where its output goes
 * @param workdir the linked worktree it works in (writable, with its admin directory)
 * @param command the shell command line ({@code /bin/sh -c})
 * @param title for the log's first line: "run 2 of s-1" for an agent, the command as shown for a task
 * @param writes what of the repository's common {@code .git} directory it may write
 * @param env its own variables (beyond what the runtime sets: a scrubbed PATH, LANG, TERM, HOME)
 * @param hostEnv variables given only to a run on the host (which reaches Paddock's loopback API)
 * @param limits CPU, memory, pids and open files (a container's), or null
 * @param network whether it keeps the host's network (bubblewrap and containers)
 * @param image the container image, or null
 * @param api what of Paddock a namespace or container run is shown read-only (its API socket and hook programs),
 *     or null for nothing
 * @param layers shared read-only folders shown through an overlay (the namespace tier alone; others refuse them)
 */
public record RunSpec(
        Kind kind,
        RunId id,
        Path workdir,
        String command,
        String title,
        GitWrites writes,
        Map<String, String> env,
        Map<String, String> hostEnv,
        ResourceLimits limits,
        boolean network,
        String image,
        SandboxApi api,
        java.util.List<LayerMount> layers) {
    public RunSpec {
        env = Map.copyOf(env);
        hostEnv = Map.copyOf(hostEnv);
        layers = layers == null ? java.util.List.of() : java.util.List.copyOf(layers);
    }

    /** A run shown nothing of Paddock. */
    public RunSpec(
            Kind kind,
            RunId id,
            Path workdir,
            String command,
            String title,
            GitWrites writes,
            Map<String, String> env,
            Map<String, String> hostEnv,
            ResourceLimits limits,
            boolean network,
            String image) {
        this(kind, id, workdir, command, title, writes, env, hostEnv, limits, network, image, null, null);
    }

    /** An agent runs on its own and is watched; a task is waited for. */
    public enum Kind {
        AGENT,
        TASK
    }

    /** Without the environment, which may hold a token that must never reach a log or a message. */
    @Override
    public String toString() {
        return "RunSpec[" + kind + " " + id.name() + " in " + workdir + ", log " + id.log() + "]";
    }
}
