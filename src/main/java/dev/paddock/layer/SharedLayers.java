package dev.paddock.layer;

import dev.paddock.common.PaddockException;
import dev.paddock.common.Processes;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventLog;
import dev.paddock.isolation.LayerMount;
import dev.paddock.repo.RepoService;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * A repository's shared layers (see docs/decisions/0024-shared-layers-through-overlays.md): dependency folders that
 * its namespace sandboxes see read-only through an overlay, each sandbox writing into its own upper layer. Configures
 * them, builds ("refreshes") a new generation, says what a sandbox's run mounts, lists what a sandbox changed in them
 * (from its upper layers alone), and reclaims generations no sandbox uses.
 */
public final class SharedLayers {
    /** How long a refresh's setup command may run. */
    public static final Duration SETUP_TIMEOUT = Duration.ofMinutes(30);

    private final LayerStore store;
    private final RepoService repos;
    private final dev.paddock.worktree.WorktreeManager worktrees;
    private final EventLog events;
    private final LongSupplier capBytes;
    private final LayerBuilder builder;
    private final Map<Long, Object> refreshing = new ConcurrentHashMap<>();
    /** Per main worktree: a first start's pin and a reclaim, never at once (a reclaim would take a generation
     * that a sandbox just read as current and is about to pin). */
    private final Map<String, Object> pinning = new ConcurrentHashMap<>();

    /**
     * @param capBytes the cap on each upper layer now ({@code layers.capMb}), 0 for none
     * @param namespace the namespace tier's runtime: setup commands run in it
     */
    public SharedLayers(
            LayerStore store,
            RepoService repos,
            dev.paddock.worktree.WorktreeManager worktrees,
            EventLog events,
            LongSupplier capBytes,
            dev.paddock.isolation.IsolationRuntime namespace) {
        this(store, repos, worktrees, events, capBytes, namespace, SETUP_TIMEOUT);
    }

    SharedLayers(
            LayerStore store,
            RepoService repos,
            dev.paddock.worktree.WorktreeManager worktrees,
            EventLog events,
            LongSupplier capBytes,
            dev.paddock.isolation.IsolationRuntime namespace,
            Duration timeout) {
        this.store = store;
        this.repos = repos;
        this.worktrees = worktrees;
        this.events = events;
        this.capBytes = capBytes;
        this.builder = new LayerBuilder(timeout, namespace);
    }

    /**
     * What the repository shares and its newest generation.
     *
     * @param folders the shared folders
     * @param setupCommand the command that builds them, or null (copied from the main checkout)
     * @param generation the current generation, or 0 when none was built yet
     * @param builtAt when it was built, or null
     */
    public record Status(List<String> folders, String setupCommand, int generation, java.time.Instant builtAt) {}

    /** The repository containing {@code path}: what it shares. */
    public Status status(Path path) throws PaddockException {
        RepoService.OpenedRepo r = repos.open(path);
        LayerConfig c = store.get(r.record().id());
        Path main = r.git().mainWorktree();
        OptionalInt gen = LayerDirs.current(main);
        java.time.Instant at = null;
        if (gen.isPresent()) {
            try {
                at = Files.getLastModifiedTime(
                                LayerDirs.generation(main, gen.getAsInt()).resolve(".complete"))
                        .toInstant();
            } catch (IOException e) {
                at = null;
            }
        }
        return new Status(c.folders(), c.setupCommand(), gen.orElse(0), at);
    }

    /**
     * Sets what the repository containing {@code path} shares (no folder: nothing, and its generations are deleted
     * once no sandbox uses them), with an event. Sandboxes started from now on see them once a generation is built
     * ({@link #refresh}).
     *
     * @throws LayerException when a folder cannot be shared (see {@link LayerFolders}) or git tracks files in it
     */
    public Status configure(Path path, List<String> folders, String setupCommand) throws PaddockException {
        RepoService.OpenedRepo r = repos.open(path);
        Path main = r.git().mainWorktree();
        LayerConfig c = new LayerConfig(LayerFolders.check(folders), setupCommand);
        for (String f : c.folders()) {
            if (!LayerFolders.inHome(f) && tracked(main, f)) {
                throw new LayerException("git tracks files in " + f + "; a shared layer is for folders git ignores"
                        + " (dependencies, virtual environments, build caches). Nothing was changed.");
            }
            if (!LayerFolders.inHome(f) && !ignored(main, f)) {
                throw new LayerException("git does not ignore " + f + ": an agent's git add -A would commit the shared"
                        + " files. Add " + f + "/ to .gitignore first. Nothing was changed.");
            }
        }
        store.set(r.record().id(), c);
        if (c.folders().isEmpty()) {
            try {
                synchronized (pinLock(main)) {
                    LayerDirs.unpublish(main);
                }
            } catch (IOException e) {
                throw new LayerException("Cannot put the shared layer of " + main + " aside: " + e.getMessage(), e);
            }
            reclaim(main); // what no sandbox uses goes now; the rest when its last sandbox is removed
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("folders", c.folders());
        details.put("setupCommand", c.setupCommand());
        events.append(EventDraft.of(
                r.record().id(),
                null,
                "layers.configured",
                c.folders().isEmpty()
                        ? "Namespace sandboxes of " + main + " share no folders now"
                        : "Namespace sandboxes of " + main + " share " + String.join(", ", c.folders())
                                + (c.setupCommand() == null
                                        ? " (copied from the main checkout)"
                                        : " (built by " + c.setupCommand() + ")"),
                details));
        return status(path);
    }

    /**
     * Builds a new generation of the repository's shared layer and makes it current; sandboxes started from now on
     * see it, running ones keep theirs. One refresh per repository at a time.
     *
     * @param progress told each step, on the calling thread
     * @throws LayerException when nothing is shared, another refresh runs, or the build fails (nothing changes then)
     */
    public Status refresh(Path path, Consumer<String> progress) throws PaddockException {
        RepoService.OpenedRepo r = repos.open(path);
        long id = r.record().id();
        LayerConfig c = store.get(id);
        if (c.folders().isEmpty()) {
            throw new LayerException("The repository shares no folders; set some first (paddock layers set).");
        }
        if (refreshing.putIfAbsent(id, Boolean.TRUE) != null) {
            throw new LayerException("A refresh of this repository's shared layer runs already.");
        }
        Path main = r.git().mainWorktree();
        try {
            worktrees.excludeWorktreesDir(r.git()); // .worktrees/.shared is no change of the main checkout
            LayerBuilder.Built b = builder.build(main, r.record().baseBranch(), c, progress);
            events.append(EventDraft.of(
                    id,
                    null,
                    "layers.refreshed",
                    "Built generation " + b.generation() + " of the shared layer of " + main + " ("
                            + LayerBuilder.files(b.files()) + ", " + b.took().toMillis() + " ms)",
                    Map.of(
                            "generation",
                            b.generation(),
                            "files",
                            b.files(),
                            "ms",
                            b.took().toMillis())));
            reclaim(main);
        } finally {
            refreshing.remove(id);
        }
        return status(path);
    }

    /**
     * What a namespace run of the sandbox mounts: one overlay per shared folder of its pinned generation (the current
     * one at its first start). None when the repository shares nothing or has no generation yet.
     *
     * @param sandboxDir the sandbox's own folder ({@code .worktrees/<id>})
     * @param worktree its worktree
     * @throws LayerException when a layer cannot be prepared, or a shared folder's place in the worktree is taken by a
     *     file or a link
     */
    public List<LayerMount> mounts(long repositoryId, Path main, Path sandboxDir, Path worktree)
            throws PaddockException {
        LayerConfig c = store.get(repositoryId);
        if (c.folders().isEmpty()) {
            return List.of();
        }
        OptionalInt gen = LayerDirs.pinned(sandboxDir);
        try {
            if (gen.isEmpty()) {
                synchronized (pinLock(main)) {
                    gen = LayerDirs.current(main);
                    if (gen.isEmpty()) {
                        return List.of();
                    }
                    LayerDirs.pin(sandboxDir, gen.getAsInt());
                }
            }
            List<LayerMount> out = new ArrayList<>();
            long cap = capBytes.getAsLong();
            for (String f : c.folders()) {
                Path lower = LayerDirs.generation(main, gen.getAsInt()).resolve(LayerFolders.fileName(f));
                if (!Files.isDirectory(lower, LinkOption.NOFOLLOW_LINKS)) {
                    continue; // named after that generation was built
                }
                if (!LayerFolders.inHome(f)) {
                    checkPlace(worktree, f);
                }
                Path dir = LayerDirs.own(sandboxDir).resolve(LayerFolders.fileName(f));
                Files.createDirectories(dir);
                out.add(new LayerMount(f, lower, dir, LayerFolders.target(f, worktree), cap));
            }
            return out;
        } catch (IOException e) {
            throw new LayerException("Cannot prepare the shared layers of " + sandboxDir + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new LayerException(e.getMessage(), e);
        }
    }

    /**
     * Refuses a shared folder's place in the worktree when it, or a folder above it, is a file or a link: bubblewrap
     * makes the folders of a place it binds at following links, while the host's file system is still reachable to
     * it ({@code /oldroot}), so a link the agent left in its worktree ({@code web -> /oldroot/home/me}) would have
     * a later run make folders on the host. Nothing runs in the worktree meanwhile: the run that could change it
     * ended.
     */
    private static void checkPlace(Path worktree, String folder) throws LayerException {
        Optional<Path> odd = LayerFolders.notAFolder(worktree, folder);
        if (odd.isPresent()) {
            throw new LayerException(odd.get() + " is " + (Files.isSymbolicLink(odd.get()) ? "a link" : "not a folder")
                    + ", so the shared layer " + folder
                    + " cannot be shown there; remove it and start the sandbox again.");
        }
    }

    /**
     * What the sandbox changed in each shared folder, read from its upper layers alone: from disk, or (a capped
     * layer, which lives in the run's memory) through the running run's view ({@code /proc/<pid>/root}).
     *
     * @param runPid the process Paddock started for the sandbox's run, or null when none runs
     */
    public List<LayerChange> changes(long repositoryId, Path main, Path sandboxDir, Long runPid)
            throws PaddockException {
        LayerConfig c = store.get(repositoryId);
        OptionalInt gen = LayerDirs.pinned(sandboxDir);
        List<LayerChange> out = new ArrayList<>();
        if (gen.isEmpty()) {
            return out;
        }
        try {
            for (String f : c.folders()) {
                String name = LayerFolders.fileName(f);
                Path lower = LayerDirs.generation(main, gen.getAsInt()).resolve(name);
                Path upper = LayerDirs.own(sandboxDir).resolve(name).resolve("upper");
                out.addAll(LayerChanges.read(f, live(upper, runPid), lower));
            }
        } catch (IOException e) {
            throw new LayerException(
                    "Cannot read the shared layers' changes of " + sandboxDir + ": " + e.getMessage(), e);
        }
        return out;
    }

    /** The upper layer as the run sees it when it lives in the run's own mount namespace (a cap), else on disk. */
    private static Path live(Path upper, Long runPid) {
        if (runPid == null || Files.isDirectory(upper, LinkOption.NOFOLLOW_LINKS)) {
            return upper;
        }
        return ProcessHandle.of(runPid).stream()
                .flatMap(ProcessHandle::children)
                .map(p -> Path.of("/proc/" + p.pid() + "/root" + upper))
                .filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))
                .findFirst()
                .orElse(upper);
    }

    /**
     * Deletes the repository's generations that neither is current nor has a sandbox pinned to it, and what an
     * interrupted refresh left (at start, when no refresh runs). Nothing is mounted on the host to take back: the
     * mounts live in each run's own namespace and end with it.
     *
     * @return the folders deleted
     */
    public List<Path> reclaim(Path main) throws LayerException {
        try {
            List<Path> deleted;
            synchronized (pinLock(main)) {
                deleted = LayerDirs.reclaim(main, refreshing.isEmpty());
            }
            if (deleted.stream().anyMatch(p -> p.getFileName().toString().startsWith("build-"))) {
                prune(main); // git forgets the interrupted refresh's checkout
            }
            return deleted;
        } catch (IOException e) {
            throw new LayerException("Cannot reclaim the shared layers of " + main + ": " + e.getMessage(), e);
        }
    }

    private Object pinLock(Path main) {
        return pinning.computeIfAbsent(main.toAbsolutePath().normalize().toString(), k -> new Object());
    }

    private static void prune(Path main) throws IOException {
        try {
            Processes.withoutPaddockSecrets(new ProcessBuilder("git", "-C", main.toString(), "worktree", "prune"))
                    .redirectInput(Processes.NO_INPUT)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start()
                    .waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether git's ignore rules (.gitignore, info/exclude, the user's) ignore the folder. */
    private static boolean ignored(Path main, String folder) throws LayerException {
        try {
            Process p = Processes.withoutPaddockSecrets(
                            new ProcessBuilder("git", "-C", main.toString(), "check-ignore", "-q", "--", folder + "/"))
                    .redirectInput(Processes.NO_INPUT)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            return p.waitFor() == 0;
        } catch (IOException e) {
            throw new LayerException("Cannot ask git about " + folder + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LayerException("Interrupted while asking git about " + folder + ".", e);
        }
    }

    private static boolean tracked(Path main, String folder) throws LayerException {
        try {
            Process p = Processes.withoutPaddockSecrets(
                            new ProcessBuilder("git", "-C", main.toString(), "ls-files", "-z", "--", folder))
                    .redirectInput(Processes.NO_INPUT)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            byte[] out = p.getInputStream().readAllBytes();
            p.waitFor();
            return out.length > 0 && new String(out, StandardCharsets.UTF_8).contains("\0");
        } catch (IOException e) {
            throw new LayerException("Cannot ask git about " + folder + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LayerException("Interrupted while asking git about " + folder + ".", e);
        }
    }
}
