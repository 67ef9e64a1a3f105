package dev.paddock.isolation.container;

import dev.paddock.container.ContainerSpec;
import dev.paddock.container.DockerContainers;
import dev.paddock.container.ResourceLimits;
import dev.paddock.isolation.GitWrites;
import dev.paddock.isolation.IsolationException;
import dev.paddock.isolation.LinkedWorktree;
import dev.paddock.isolation.RunId;
import dev.paddock.isolation.RunSpec;
import dev.paddock.isolation.SandboxApi;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The container of a container-tier sandbox: {@code /bin/sh -c <agent command>} in its worktree (at the
 * worktree's host path), with only what the agent needs from the host (see
 * docs/decisions/0009-three-isolation-tiers.md).
 *
 * <p><b>Mounts.</b> The worktree, read-write, at its host path, where the agent works ({@code PADDOCK_WORKTREE} and
 * the working directory), <em>and</em> at {@value #WORKSPACE}, a fixed alias. Git needs the host path: the
 * worktree's {@code .git} file names its admin directory by host path, and that directory's {@code gitdir} file
 * names the worktree by host path. With the worktree only at {@code /workspace}, git inside would think its own
 * worktree gone, and {@code git worktree prune} (or a {@code git gc} that prunes worktrees) would empty this
 * worktree's admin directory on the host. Submodules need the agent to <em>work</em> at the host path too: git
 * links an initialised submodule's folder and its repository ({@code <admin>/modules/<name>}) by relative paths
 * ({@code lib/.git}: {@code gitdir: ../../../../.git/worktrees/<name>/modules/lib}, and {@code core.worktree} back),
 * which resolve from the host path only; from {@code /workspace/lib} every git command fails ("not a git
 * repository"), and a submodule initialised from {@code /workspace} would get links the host cannot follow.
 * Mounting cleverly instead of rewriting: nothing in {@code .git} is changed. The repository's common
 * {@code .git} directory is mounted read-only at its host path, so the {@code .git} file is valid as it is;
 * over it, read-write, only what a commit writes: {@code objects}, {@code refs}, {@code logs} and this
 * worktree's admin directory {@code worktrees/<name>}. Other worktrees' admin directories, the config, the
 * packed refs and {@code gc.pid} stay read-only, so git inside cannot prune or rewrite the host's other worktrees
 * (a {@code git gc} fails to take its lock and changes nothing). This worktree's submodule repositories live in
 * its admin directory, so commits in them work; the main worktree's own ({@code <common>/modules}) stay read-only.
 * Paddock's control directory of the sandbox is mounted read-write at {@value #CONTROL}, so
 * {@code PADDOCK_HEARTBEAT_FILE} works without a network. No home directory: {@code HOME} is {@code /tmp}, a tmpfs.
 *
 * <p><b>User.</b> The owner ({@code uid:gid}) of the worktree directory, which Paddock's git created: the files
 * the agent writes stay owned by the person running Paddock, and the shared object store stays writable to
 * it. It need not exist in the image's {@code /etc/passwd}. When Paddock itself runs as root (CI), that is
 * 0:0; the container then still has no capabilities and no new privileges ({@link DockerContainers}).
 *
 * <p>Paddock's API reaches an agent's container only through its sandbox's socket ({@link SandboxApi}: the socket's
 * directory and the hook programs, read-only, when the run has them); {@code PADDOCK_API} is not set, the container
 * has no route to the host's loopback. Not shared either: the host's environment.
 */
final class ContainerPlan {
    /** A fixed alias of the worktree inside the container (agents work at its host path, see above). */
    static final String WORKSPACE = "/workspace";
    /** Where Paddock's control directory of the sandbox appears inside. */
    static final String CONTROL = "/paddock";

    private ContainerPlan() {}

    /**
     * The container of a run. An agent's ({@link RunSpec.Kind#AGENT}): {@code /bin/sh -c <command>} at its
     * worktree's host path, with Paddock's commands for agents first on the image's PATH, the control directory at
     * {@value #CONTROL}, the name and labels of its {@link RunId}. A task's ({@link RunSpec.Kind#TASK}, the merge
     * queue's test): the same in {@value #WORKSPACE}, with no control directory. Both: the worktree mounted as an
     * agent's is (at {@value #WORKSPACE} and at its host path, the common {@code .git} read-only with only the
     * spec's writes and the worktree's admin directory writable), the image, limits and network grant, the worktree
     * owner as user; HOME, TMPDIR, LANG and TERM set, then the spec's own variables with host paths of the control
     * directory and (for a task) of the worktree given as the container sees them. Never {@code hostEnv}.
     *
     * @throws IOException when the worktree is not a linked worktree or its owner cannot be read
     * @throws IsolationException when there is no image
     */
    static ContainerSpec spec(RunSpec run) throws IOException, IsolationException {
        RunId id = run.id();
        if (run.image() == null || run.image().isBlank()) {
            throw new IsolationException("The sandbox " + id.key() + " has no container image.");
        }
        LinkedWorktree wt = LinkedWorktree.of(run.workdir());
        boolean agent = run.kind() == RunSpec.Kind.AGENT;
        List<ContainerSpec.Mount> mounts = worktreeMounts(wt, run.writes());
        if (agent) {
            Files.createDirectories(wt.commonDir().resolve("logs")); // a first reflog would otherwise be refused
        }
        if (id.controlDir() != null) {
            mounts.add(ContainerSpec.Mount.readWrite(id.controlDir(), CONTROL));
        }
        if (agent && run.api() != null) {
            mounts.add(ContainerSpec.Mount.readOnly(run.api().socketDir(), SandboxApi.SOCKET_DIR));
            for (Path p : run.api().programs()) {
                mounts.add(ContainerSpec.Mount.readOnly(p, SandboxApi.inside(p)));
            }
        }
        Map<String, String> env = new LinkedHashMap<>();
        env.put("HOME", "/tmp");
        env.put("TMPDIR", "/tmp");
        env.put("LANG", "C.UTF-8");
        env.put("TERM", "dumb");
        run.env().forEach((k, v) -> env.put(k, inside(v, id.controlDir(), agent ? null : wt.worktree())));
        ResourceLimits limits = run.limits() != null ? run.limits() : ResourceLimits.orDefaults(null, null, null, null);
        List<String> argv = agent ? agentArgv(run.command()) : List.of("/bin/sh", "-c", run.command());
        return new ContainerSpec(
                id.name(),
                run.image(),
                argv,
                env,
                agent ? wt.worktree().toString() : WORKSPACE,
                owner(wt.worktree()),
                mounts,
                limits,
                run.network(),
                id.labels());
    }

    /** A host path under the control directory or the (aliased) worktree as the container sees it; else as is. */
    private static String inside(String value, Path controlDir, Path aliasedWorktree) {
        if (!value.startsWith("/") || value.indexOf('\0') >= 0) {
            return value;
        }
        Path p = Path.of(value);
        if (controlDir != null && p.startsWith(controlDir)) {
            Path rel = controlDir.relativize(p);
            return rel.toString().isEmpty() ? CONTROL : CONTROL + "/" + rel;
        }
        if (aliasedWorktree != null && p.startsWith(aliasedWorktree)) {
            Path rel = aliasedWorktree.relativize(p);
            return rel.toString().isEmpty() ? WORKSPACE : WORKSPACE + "/" + rel;
        }
        return value;
    }

    /**
     * The mounts of a worktree, in order: the common {@code .git} read-only at its host path, over it read-write
     * {@code writes} and the worktree's admin directory, then the worktree read-write at its host path and at
     * {@value #WORKSPACE}. A new mutable list.
     */
    static List<ContainerSpec.Mount> worktreeMounts(LinkedWorktree wt, GitWrites writes) {
        Path common = wt.commonDir();
        List<ContainerSpec.Mount> mounts = new ArrayList<>();
        mounts.add(ContainerSpec.Mount.readOnly(common, common.toString()));
        for (String writable : writes.dirs()) {
            Path p = common.resolve(writable);
            if (Files.isDirectory(p)) {
                mounts.add(ContainerSpec.Mount.readWrite(p, p.toString()));
            }
        }
        mounts.add(ContainerSpec.Mount.readWrite(wt.adminDir(), wt.adminDir().toString()));
        mounts.add(ContainerSpec.Mount.readWrite(wt.worktree(), wt.worktree().toString()));
        mounts.add(ContainerSpec.Mount.readWrite(wt.worktree(), WORKSPACE));
        return mounts;
    }

    /** {@code uid:gid} of the owner of {@code path}. */
    static String owner(Path path) throws IOException {
        Object uid = Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        Object gid = Files.getAttribute(path, "unix:gid", LinkOption.NOFOLLOW_LINKS);
        return uid + ":" + gid;
    }

    /**
     * {@code /bin/sh -c CMD} with Paddock's commands for agents ({@code <control>/bin}: {@code paddock heartbeat})
     * put in front of the image's own PATH, which is kept (an image's PATH may hold its toolchain).
     */
    static List<String> agentArgv(String agentCommand) {
        return List.of(
                "/bin/sh",
                "-c",
                "PATH=\"" + CONTROL + "/bin:$PATH\"; export PATH; exec /bin/sh -c \"$1\"",
                "paddock-agent",
                agentCommand);
    }
}
