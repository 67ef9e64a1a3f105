package dev.paddock.worktree;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_DELETE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY;
import static java.nio.file.StandardWatchEventKinds.OVERFLOW;

import dev.paddock.common.Threads;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the files git changes for a repository's worktrees with the file system's change notifications
 * ({@link WatchService}: inotify on Linux), so a change made from a terminal is seen in milliseconds instead of at
 * the next poll: the common git directory itself (the main worktree's {@code index} and {@code HEAD},
 * {@code packed-refs}), every folder under {@code refs/}, {@code worktrees/} (worktrees added and removed), each
 * linked worktree's admin directory ({@code worktrees/<name>/}: its {@code index}, {@code HEAD}, {@code locked}),
 * the submodule repositories under {@code modules/}, and every folder of every worktree that git does not ignore.
 * Each batch of notifications becomes one {@link Change}: which worktrees may have a new status, and whether the
 * list of worktrees (heads, branches, locks) may have changed.
 *
 * <p>inotify watches one folder at a time: folders created later are added as they appear (unless git ignores
 * them), deleted ones drop out. When a watch cannot be added (the per-user limit, {@code
 * fs.inotify.max_user_watches}, is reached) or a worktree has more than {@value #MAX_DIRS_PER_WORKTREE} folders,
 * the watcher says it is {@link #complete() incomplete}: the monitor then polls as it would without it, and says so
 * once in the log. Where the JDK only polls ({@code PollingWatchService}, e.g. macOS), {@link #start} answers null.
 *
 * <p>Thread-safe: {@link #track} is called by the monitor after each listing; notifications are read on a daemon
 * thread ({@code worktree-watch}), which calls the listener.
 */
final class WorktreeWatcher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WorktreeWatcher.class);
    /** More folders than this in one worktree: it is polled instead. */
    static final int MAX_DIRS_PER_WORKTREE = 20_000;
    /** Admin-directory folders that never say anything about a worktree's status or head. */
    private static final Set<String> GIT_NOISE = Set.of("objects", "logs", "hooks", "info", "lfs", "rr-cache");

    /**
     * What a batch of notifications may have changed.
     *
     * @param worktrees worktrees (their paths as git lists them) whose status may have changed
     * @param listing whether {@code git worktree list} may answer differently (a head, branch, lock, a worktree
     *     added or removed, a folder gone)
     */
    record Change(Set<Path> worktrees, boolean listing) {}

    private enum Kind {
        COMMON,
        REFS,
        WORKTREES,
        ADMIN,
        MODULES,
        CONTENT
    }

    /** A watched folder: what it is and which worktree it belongs to (null: none in particular). */
    private record Dir(Path path, Kind kind, Path root) {}

    private final WatchService watch;
    private final GitRepository repo;
    private final GitCli git;
    private final Consumer<Change> listener;
    private final Map<WatchKey, Dir> dirs = new ConcurrentHashMap<>();
    private final Map<Path, Set<WatchKey>> byRoot = new ConcurrentHashMap<>();
    private final Map<Path, Integer> dirCount = new ConcurrentHashMap<>();
    private final Set<Path> tracked = ConcurrentHashMap.newKeySet();
    private final Thread thread;
    private final int maxDirsPerWorktree;
    private volatile boolean complete = true;
    private volatile String incompleteWhy;
    private volatile boolean commonWatched;

    private WorktreeWatcher(
            WatchService watch, GitRepository repo, GitCli git, Consumer<Change> listener, int maxDirsPerWorktree) {
        this.maxDirsPerWorktree = maxDirsPerWorktree;
        this.watch = watch;
        this.repo = repo;
        this.git = git;
        this.listener = listener;
        this.thread = Threads.daemonThread("worktree-watch", this::run);
    }

    /**
     * Starts watching (nothing is watched until {@link #track}).
     *
     * @return the watcher, or null when this system offers no change notifications (the JDK would poll) or none
     *     can be had (the per-user limit of inotify instances, {@code fs.inotify.max_user_instances})
     */
    static WorktreeWatcher start(GitRepository repo, GitCli git, Consumer<Change> listener) {
        return start(repo, git, listener, MAX_DIRS_PER_WORKTREE);
    }

    /** {@link #start} with another limit of folders per worktree (tests: a limit reached). */
    static WorktreeWatcher start(GitRepository repo, GitCli git, Consumer<Change> listener, int maxDirsPerWorktree) {
        WatchService ws;
        try {
            ws = FileSystems.getDefault().newWatchService();
        } catch (IOException | UnsupportedOperationException e) {
            LOG.warn(
                    "Cannot watch the worktrees of {} for changes ({}); they are polled every second instead",
                    repo.mainWorktree(),
                    e.getMessage());
            return null;
        }
        if (ws.getClass().getName().contains("Polling")) {
            closeQuietly(ws);
            return null; // the JDK's own polling, every 10 s: worse than the monitor's
        }
        WorktreeWatcher w = new WorktreeWatcher(ws, repo, git, listener, maxDirsPerWorktree);
        w.thread.start();
        return w;
    }

    /** Whether every folder that matters is watched (false: the monitor must poll). */
    boolean complete() {
        return complete;
    }

    /** How many folders are watched. */
    int watchedFolders() {
        return dirs.size();
    }

    /**
     * Watches the worktrees listed and stops watching those no longer listed (or whose folder is gone). Cheap for
     * worktrees already watched; a new one costs one {@code git ls-files} (which folders git ignores) and a walk.
     */
    synchronized void track(List<WorktreeInfo> listed) {
        Path common = repo.commonDir();
        if (!commonWatched) {
            commonWatched = true;
            register(common, Kind.COMMON, repo.mainWorktree());
            registerTree(common.resolve("refs"), Kind.REFS, null);
            register(common.resolve("worktrees"), Kind.WORKTREES, null);
            registerTree(common.resolve("modules"), Kind.MODULES, repo.mainWorktree());
        }
        Set<Path> roots = new HashSet<>();
        listed.stream().filter(w -> !w.missing() && !w.prunable()).forEach(w -> roots.add(w.path()));
        for (Path gone : new ArrayList<>(tracked)) {
            if (!roots.contains(gone)) {
                forget(gone);
            }
        }
        for (WorktreeInfo w : listed) {
            if (roots.contains(w.path()) && tracked.add(w.path())) {
                watchWorktree(w, roots);
            }
        }
    }

    private void watchWorktree(WorktreeInfo w, Set<Path> roots) {
        Path root = w.path();
        if (!w.main()) {
            try {
                Path admin = WorktreeHeads.gitDirOf(root);
                if (admin != null) {
                    register(admin, Kind.ADMIN, root);
                    registerTree(admin.resolve("modules"), Kind.MODULES, root);
                }
            } catch (IOException e) {
                LOG.debug("Cannot read the .git file of {}: {}", root, e.getMessage());
            }
        }
        Set<Path> ignored = ignoredDirs(root);
        Set<Path> others = new HashSet<>(roots);
        others.remove(root);
        walk(root, root, ignored, others);
    }

    /** Folders of a worktree that git ignores ({@code ls-files --others --ignored --directory}): not watched. */
    private Set<Path> ignoredDirs(Path root) {
        Set<Path> out = new HashSet<>();
        try {
            GitCli.Result r = git.run(
                    root,
                    List.of(
                            "--no-optional-locks",
                            "ls-files",
                            "-z",
                            "--others",
                            "--ignored",
                            "--exclude-standard",
                            "--directory"),
                    GitCli.DEFAULT_TIMEOUT);
            if (r.ok()) {
                for (String p : r.stdout().split("\0")) {
                    if (p.endsWith("/")) {
                        out.add(root.resolve(p.substring(0, p.length() - 1)).normalize());
                    }
                }
            }
        } catch (GitException | RuntimeException e) {
            LOG.debug("Cannot ask git which folders of {} it ignores: {}", root, e.getMessage());
        }
        return out;
    }

    private void walk(Path start, Path root, Set<Path> ignored, Set<Path> otherRoots) {
        try {
            Files.walkFileTree(start, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
                    if (!d.equals(start)
                            && (d.getFileName().toString().equals(".git")
                                    || ignored.contains(d)
                                    || otherRoots.contains(d))) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    if (!register(d, Kind.CONTENT, root)) {
                        return FileVisitResult.TERMINATE;
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path f, IOException e) {
                    return FileVisitResult.CONTINUE; // gone meanwhile, or unreadable: nothing to watch there
                }
            });
        } catch (IOException e) {
            LOG.debug("Cannot walk {}: {}", start, e.getMessage());
        }
    }

    /** Registers {@code dir} and the folders under it, leaving out what never tells about a status or head. */
    private void registerTree(Path dir, Kind kind, Path root) {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
                    if (kind == Kind.MODULES
                            && GIT_NOISE.contains(d.getFileName().toString())) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    return register(d, kind, root) ? FileVisitResult.CONTINUE : FileVisitResult.TERMINATE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path f, IOException e) {
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            LOG.debug("Cannot walk {}: {}", dir, e.getMessage());
        }
    }

    /** Watches one folder; false when no more can be watched (the watcher is then incomplete). */
    private boolean register(Path dir, Kind kind, Path root) {
        if (kind == Kind.CONTENT) {
            int n = dirCount.merge(root, 1, Integer::sum);
            if (n > maxDirsPerWorktree) {
                incomplete(root + " has more than " + maxDirsPerWorktree + " folders");
                return false;
            }
        }
        try {
            WatchKey key = dir.register(watch, ENTRY_CREATE, ENTRY_DELETE, ENTRY_MODIFY);
            dirs.put(key, new Dir(dir, kind, root));
            if (root != null && kind != Kind.COMMON) {
                byRoot.computeIfAbsent(root, r -> ConcurrentHashMap.newKeySet()).add(key);
            }
            return true;
        } catch (NoSuchFileException e) {
            return true; // deleted meanwhile
        } catch (ClosedWatchServiceException e) {
            return false;
        } catch (IOException e) {
            if (Files.isDirectory(dir)) {
                incomplete(e.getMessage() + " (at " + dir + "); raise fs.inotify.max_user_watches");
                return false;
            }
            return true;
        }
    }

    private void incomplete(String why) {
        if (complete) {
            complete = false;
            incompleteWhy = why;
            LOG.warn(
                    "Cannot watch every folder of the worktrees of {}: {}. They are polled every second instead.",
                    repo.mainWorktree(),
                    why);
        }
    }

    /** Why the watcher is incomplete, or null. */
    String incompleteWhy() {
        return incompleteWhy;
    }

    private void forget(Path root) {
        tracked.remove(root);
        Set<WatchKey> keys = byRoot.remove(root);
        dirCount.remove(root);
        if (keys != null) {
            for (WatchKey k : keys) {
                k.cancel();
                dirs.remove(k);
            }
        }
    }

    private void forgetContent(Path root) {
        tracked.remove(root);
        dirCount.remove(root);
        Set<WatchKey> keys = byRoot.get(root);
        if (keys != null) {
            for (WatchKey k : new ArrayList<>(keys)) {
                Dir d = dirs.get(k);
                if (d == null || d.kind() == Kind.CONTENT) {
                    k.cancel();
                    dirs.remove(k);
                    keys.remove(k);
                }
            }
        }
    }

    private void run() {
        try {
            while (true) {
                WatchKey key = watch.take();
                Set<Path> touched = new HashSet<>();
                boolean listing = false;
                Map<Path, List<Path>> created = new HashMap<>();
                while (key != null) {
                    listing |= handle(key, touched, created);
                    key = watch.poll(); // what else is queued now is part of the same batch
                }
                created.forEach(this::watchCreated);
                if (!touched.isEmpty() || listing) {
                    listener.accept(new Change(Set.copyOf(touched), listing));
                }
            }
        } catch (ClosedWatchServiceException | InterruptedException e) {
            // closed: done
        } catch (RuntimeException e) {
            LOG.warn("Watching the worktrees of {} stopped; they are polled instead", repo.mainWorktree(), e);
            incomplete("the watch thread failed: " + e);
        }
    }

    /** One key's events; true when the worktree listing may have changed. */
    private boolean handle(WatchKey key, Set<Path> touched, Map<Path, List<Path>> created) {
        Dir d = dirs.get(key);
        boolean listing = false;
        for (WatchEvent<?> ev : key.pollEvents()) {
            if (ev.kind() == OVERFLOW) {
                touched.addAll(tracked);
                touched.add(repo.mainWorktree());
                listing = true;
                continue;
            }
            if (d == null) {
                continue;
            }
            Path name = (Path) ev.context();
            Path child = d.path().resolve(name);
            boolean newDir = ev.kind() == ENTRY_CREATE && Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS);
            String n = name.toString();
            switch (d.kind()) {
                case COMMON -> {
                    if (n.startsWith("index")) {
                        touched.add(d.root());
                    } else {
                        listing = true;
                    }
                    if (newDir && n.equals("modules")) {
                        registerTree(child, Kind.MODULES, repo.mainWorktree());
                    } else if (newDir && n.equals("worktrees")) {
                        register(child, Kind.WORKTREES, null);
                    }
                }
                case REFS -> {
                    listing = true;
                    if (newDir) {
                        registerTree(child, Kind.REFS, null);
                    }
                }
                case WORKTREES -> listing = true; // an admin folder added or removed; track() registers new ones
                case ADMIN -> {
                    touched.add(d.root());
                    listing |= !n.startsWith("index");
                    if (newDir && n.equals("modules")) {
                        registerTree(child, Kind.MODULES, d.root());
                    }
                }
                case MODULES -> {
                    touched.add(d.root());
                    if (newDir && !GIT_NOISE.contains(n)) {
                        registerTree(child, Kind.MODULES, d.root());
                    }
                }
                case CONTENT -> {
                    if (n.equals(".git")) {
                        listing = true;
                    } else {
                        touched.add(d.root());
                        if (newDir) {
                            created.computeIfAbsent(d.root(), r -> new ArrayList<>())
                                    .add(child);
                        }
                    }
                }
                default -> {}
            }
        }
        if (!key.reset()) {
            dirs.remove(key);
            if (d != null && d.root() != null) {
                Set<WatchKey> keys = byRoot.get(d.root());
                if (keys != null) {
                    keys.remove(key);
                }
                if (d.path().equals(d.root()) && d.kind() == Kind.CONTENT) {
                    // The worktree's folder is gone; its admin directory is still watched (a lock, its removal), and
                    // the folder is watched again once a listing finds it back.
                    forgetContent(d.root());
                    touched.add(d.root());
                    listing = true;
                }
            }
        }
        return listing;
    }

    /** Watches folders created in a worktree, unless git ignores them ({@code git check-ignore}, one process). */
    private void watchCreated(Path root, List<Path> created) {
        if (!tracked.contains(root)) {
            return;
        }
        Set<Path> ignored = new HashSet<>();
        // A trailing slash: a pattern like "build/" matches directories only, and check-ignore does not look.
        // One path per line (-z needs --stdin); a path git would have to quote is simply watched.
        List<String> args = new ArrayList<>(List.of("-c", "core.quotePath=false", "check-ignore", "--"));
        created.forEach(p -> args.add(root.relativize(p) + "/"));
        try {
            GitCli.Result r = git.run(root, args, GitCli.DEFAULT_TIMEOUT);
            for (String p : r.stdout().split("\n")) {
                if (!p.isEmpty()) {
                    ignored.add(root.resolve(p).normalize());
                }
            }
        } catch (GitException | RuntimeException e) {
            LOG.debug("git check-ignore failed in {}: {}", root, e.getMessage());
        }
        Set<Path> others = new HashSet<>(tracked);
        others.remove(root);
        for (Path dir : created) {
            if (!ignored.contains(dir.normalize())) {
                walk(dir, root, Set.of(), others);
            }
        }
    }

    @Override
    public void close() {
        closeQuietly(watch);
        thread.interrupt();
    }

    private static void closeQuietly(WatchService ws) {
        try {
            ws.close();
        } catch (IOException e) {
            LOG.debug("Closing a watch service: {}", e.getMessage());
        }
    }
}
