package dev.paddock.sandbox;

import java.nio.file.Path;
import java.util.Map;

/**
 * A command run once, to its end, with a sandbox's isolation but in another linked worktree of its repository:
 * the merge queue runs the repository's test command in its merge worktree this way, in a container like the
 * sandbox's ({@link ContainerAgents#runToEnd}).
 *
 * @param sandbox whose image, limits and network grant apply
 * @param worktree the linked worktree to run in (mounted at {@code /workspace} and at its host path)
 * @param command the shell command line ({@code /bin/sh -c})
 * @param name the container's name, unique on the engine
 * @param labels the container's labels (never {@code paddock.sandbox}: that would make it the sandbox's run)
 * @param env environment variables inside, beyond HOME, TMPDIR, LANG and TERM
 */
public record WorktreeRun(SandboxRecord sandbox, Path worktree, String command, String name,
                          Map<String, String> labels, Map<String, String> env) {
    public WorktreeRun {
        labels = Map.copyOf(labels);
        env = Map.copyOf(env);
        if (labels.containsKey(dev.paddock.container.DockerContainers.SANDBOX_LABEL)) {
            throw new IllegalArgumentException("a worktree run must not carry the sandbox label");
        }
    }
}
