package dev.paddock.isolation.container;

import dev.paddock.container.ContainerSpec;
import dev.paddock.container.ResourceLimits;
import dev.paddock.isolation.IsolationException;
import dev.paddock.isolation.RunId;
import dev.paddock.isolation.RunSpec;
import dev.paddock.isolation.SandboxApi;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The container of an agent on an engine that shares no disk with Paddock ({@link ContainerRuntime#remote()}): like
 * {@link ContainerPlan}'s, but with no bind mount of this machine at all. Its workspace is the volume
 * {@link RemoteWorkspace} delivered, at {@value #WORKDIR}; the hook programs and {@code paddock-relay} are in a
 * second volume, read-only at {@link SandboxApi#BIN}; {@link SandboxApi#SOCKET_DIR} is a tmpfs of the relay's user
 * ({@link RemoteBroker#SOCKET_DIR_TMPFS_OPTIONS}). It runs as {@value #AGENT_USER}, never root. Paddock's control
 * directory is not there: {@code PADDOCK_HEARTBEAT_FILE} is not set, and Paddock's commands for agents are not on
 * its PATH. See docs/decisions/0030-remote-workspace-and-broker-channel.md.
 */
final class RemotePlan {
    /** Where the workspace volume is mounted and the agent works. */
    static final String WORKDIR = ContainerPlan.WORKSPACE;
    /** The agent's user inside: not root, and not a user of this machine (whose ids mean nothing there). */
    static final String AGENT_USER = "1000:1000";

    static final int AGENT_UID = 1000;
    static final int AGENT_GID = 1000;

    /**
     * How long the agent waits for its API socket at most, in tenths of a second: the relay is started by
     * {@code docker exec} once the container runs, so a hook called at once would find no socket yet.
     */
    static final int SOCKET_WAIT_TENTHS = 150;

    private RemotePlan() {}

    /**
     * {@code /bin/sh -c CMD}, run once the API socket is there (or after {@value #SOCKET_WAIT_TENTHS} tenths of a
     * second: a hook then denies as it does when the channel is down). Plain POSIX sh: busybox's will do.
     */
    static List<String> agentArgv(String agentCommand) {
        return agentArgv(SandboxApi.SOCKET, agentCommand);
    }

    /** {@link #agentArgv(String)} waiting for {@code socket} (a path with no character special to sh). */
    static List<String> agentArgv(String socket, String agentCommand) {
        return List.of(
                "/bin/sh",
                "-c",
                "i=0; while [ ! -S " + socket + " ] && [ $i -lt " + SOCKET_WAIT_TENTHS
                        + " ]; do sleep 0.1; i=$((i+1)); done; exec /bin/sh -c \"$1\"",
                "paddock-agent",
                agentCommand);
    }

    /**
     * The container of an agent run with its workspace in {@code workspaceVolume} and, when the run is shown
     * Paddock's API, its programs in {@code programsVolume}.
     *
     * @throws IsolationException when there is no image or the run is not an agent's
     */
    static ContainerSpec spec(RunSpec run, String workspaceVolume, String programsVolume) throws IsolationException {
        RunId id = run.id();
        if (run.image() == null || run.image().isBlank()) {
            throw new IsolationException("The sandbox " + id.key() + " has no container image.");
        }
        if (run.kind() != RunSpec.Kind.AGENT) {
            throw new IsolationException("Only an agent runs on a remote engine; " + run.title() + " cannot.");
        }
        List<ContainerSpec.Mount> mounts = new ArrayList<>();
        mounts.add(ContainerSpec.Mount.volume(workspaceVolume, WORKDIR, false));
        boolean api = run.api() != null && programsVolume != null;
        if (api) {
            mounts.add(ContainerSpec.Mount.volume(programsVolume, SandboxApi.BIN, true));
            mounts.add(ContainerSpec.Mount.tmpfs(SandboxApi.SOCKET_DIR, RemoteBroker.SOCKET_DIR_TMPFS_OPTIONS));
        }
        Map<String, String> env = new LinkedHashMap<>();
        env.put("HOME", "/tmp");
        env.put("TMPDIR", "/tmp");
        env.put("LANG", "C.UTF-8");
        env.put("TERM", "dumb");
        run.env().forEach((k, v) -> {
            String inside = inside(v, id.controlDir(), run.workdir());
            if (inside != null) {
                env.put(k, inside);
            }
        });
        ResourceLimits limits = run.limits() != null ? run.limits() : ResourceLimits.orDefaults(null, null, null, null);
        return new ContainerSpec(
                id.name(),
                run.image(),
                api ? agentArgv(run.command()) : List.of("/bin/sh", "-c", run.command()),
                env,
                WORKDIR,
                AGENT_USER,
                mounts,
                limits,
                run.network(),
                id.labels());
    }

    /**
     * A value as the container sees it: a path in the worktree under {@value #WORKDIR}; null (left out) for a path
     * in the control directory, which is not there; anything else as is.
     */
    static String inside(String value, Path controlDir, Path worktree) {
        if (!value.startsWith("/") || value.indexOf('\0') >= 0) {
            return value;
        }
        Path p = Path.of(value);
        if (controlDir != null && p.startsWith(controlDir)) {
            return null;
        }
        if (p.startsWith(worktree)) {
            Path rel = worktree.relativize(p);
            return rel.toString().isEmpty() ? WORKDIR : WORKDIR + "/" + rel;
        }
        return value;
    }
}
