package dev.paddock.sandbox;

import java.nio.file.Path;

/**
 * Where a sandbox lives on disk: {@code <repo>/.worktrees/<id>/<branch>} is its
 * worktree; {@code <repo>/.worktrees/<id>/.paddock/} holds Paddock's files about it (the state file,
 * the exit code and heartbeat files of the running agent). No branch can collide with {@code .paddock}:
 * git refuses ref components that start with a dot.
 *
 * <p>Also the guard against deleting the wrong thing: Paddock only ever removes a path that
 * {@link #isSandboxWorktree} accepts.
 */
public final class SandboxLayout {
    /** The directory under the main worktree that holds every sandbox. */
    public static final String ROOT = ".worktrees";
    /** The directory, inside a sandbox's own directory, with Paddock's files about it. */
    public static final String CONTROL = ".paddock";
    /** The turn hook's file in the control directory. */
    public static final String TURN_FILE = "turn.json";

    private final Path mainWorktree;
    private final String id;
    private final String branch;
    private final Path sandboxDir;
    private final Path worktree;
    private final Path controlDir;

    /**
     * @throws SandboxException when the id is not a plain folder name or the branch would lead the
     *     worktree out of the sandbox's directory
     */
    public SandboxLayout(Path mainWorktree, String id, String branch) throws SandboxException {
        SandboxIds.check(id);
        this.mainWorktree = mainWorktree.toAbsolutePath().normalize();
        this.id = id;
        this.branch = branch;
        // Computed once: the supervisor builds a layout per running sandbox on every tick.
        this.sandboxDir = root().resolve(id);
        this.worktree = sandboxDir.resolve(branch).normalize();
        this.controlDir = sandboxDir.resolve(CONTROL);
        Path wt = worktree;
        if (!wt.startsWith(sandboxDir) || wt.equals(sandboxDir) || wt.startsWith(controlDir)) {
            throw new SandboxException(
                    "The branch \"" + branch + "\" would put the worktree outside " + sandboxDir() + ".");
        }
    }

    /** The repository's main worktree. */
    public Path mainWorktree() {
        return mainWorktree;
    }

    /** {@code <repo>/.worktrees}. */
    public Path root() {
        return mainWorktree.resolve(ROOT);
    }

    /** {@code <repo>/.worktrees/<id>}. */
    public Path sandboxDir() {
        return sandboxDir;
    }

    /** {@code <repo>/.worktrees/<id>/<branch>}: the worktree. */
    public Path worktree() {
        return worktree;
    }

    /** {@code <repo>/.worktrees/<id>/.paddock}. */
    public Path controlDir() {
        return controlDir;
    }

    /** Paddock's commands for the agent (on its PATH): {@code <control dir>/bin}. */
    public Path binDir() {
        return controlDir().resolve("bin");
    }

    /** The state file: what the sandbox is, for people and tools looking at the folder. */
    public Path stateFile() {
        return controlDir().resolve("sandbox.json");
    }

    /** Where the agent's wrapper writes the agent's exit code when it ends. */
    public Path exitCodeFile() {
        return controlDir().resolve("exit-code");
    }

    /**
     * Where the agent's wrapper writes its own pid before it starts the agent: a run that a Paddock started but
     * did not live to record (killed in between) is found there, not started twice.
     */
    public Path agentPidFile() {
        return controlDir().resolve("agent-pid");
    }

    /**
     * Where an agent without network (namespace tier) writes its progress text; Paddock reads it as a
     * heartbeat.
     */
    public Path heartbeatFile() {
        return controlDir().resolve("heartbeat");
    }

    /**
     * Where an agent's turn hook writes what it tells Paddock (Claude Code's Stop and Notification hooks,
     * {@code PADDOCK_TURN_FILE}); the supervisor reads it like the heartbeat file ({@link TurnFile}).
     */
    public Path turnFile() {
        return controlDir().resolve(TURN_FILE);
    }

    /**
     * Whether {@code path} may be deleted as a sandbox's worktree of the repository at {@code mainWorktree}:
     * a non-empty path strictly inside {@code <repo>/.worktrees/<id>/}, never the repository itself, never
     * {@code .worktrees} or a sandbox directory itself.
     */
    public static boolean isSandboxWorktree(Path mainWorktree, String path) {
        if (path == null || path.isBlank()) {
            return false;
        }
        Path main = mainWorktree.toAbsolutePath().normalize();
        Path p = Path.of(path).toAbsolutePath().normalize();
        Path root = main.resolve(ROOT);
        return p.startsWith(root) && !p.equals(main) && p.getNameCount() >= root.getNameCount() + 2;
    }
}
