package dev.paddock.worktree;

import dev.paddock.events.EventDraft;
import dev.paddock.events.EventKinds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Compares two listings of a repository's worktrees and describes each difference as an event:
 * added, removed, head moved, branch changed, dirty/clean, locked/unlocked, folder missing, prunable.
 * Pure: no I/O, so it is easy to test and cheap to run every second.
 */
public final class WorktreeChanges {
    private WorktreeChanges() {}

    /**
     * Where the merge queue keeps its private worktrees, relative to the main worktree
     * ({@code <repo>/.worktrees/.merge/<entry id>}): they come and go with every merge and the queue writes its
     * own events for them, so they are not reported here.
     */
    public static final Path MERGE_WORKTREES = Path.of(".worktrees", ".merge");
    /**
     * The merge worktree a repository keeps between entries, relative to the main worktree: Paddock's own, idle
     * between merges, so the dashboard does not list it.
     */
    public static final Path KEPT_MERGE_WORKTREE = MERGE_WORKTREES.resolve("kept");
    /**
     * Leaves out the worktrees in a folder of {@code .worktrees/} whose name starts with a dot: Paddock's own (the
     * merge queue's {@code .merge}, a shared layer refresh's {@code .shared}), which write their own events. No
     * sandbox id starts with a dot.
     */
    private static List<WorktreeInfo> withoutMergeWorktrees(Path mainWorktree, List<WorktreeInfo> list) {
        if (mainWorktree == null) {
            return list;
        }
        Path root = mainWorktree.resolve(MERGE_WORKTREES.getParent());
        return list.stream()
                .filter(w -> w.path() == null
                        || !w.path().startsWith(root)
                        || w.path().getNameCount() <= root.getNameCount()
                        || !w.path().getName(root.getNameCount()).toString().startsWith("."))
                .toList();
    }

    /**
     * Events for the differences between {@code before} and {@code after}.
     *
     * @param repositoryId store id of the repository the events belong to
     * @param mainWorktree used to show worktree paths relative to the repository
     */
    public static List<EventDraft> between(
            long repositoryId, Path mainWorktree, List<WorktreeInfo> before, List<WorktreeInfo> after) {
        before = withoutMergeWorktrees(mainWorktree, before);
        after = withoutMergeWorktrees(mainWorktree, after);
        Map<Path, WorktreeInfo> old = byPath(before);
        Map<Path, WorktreeInfo> now = byPath(after);
        List<EventDraft> events = new ArrayList<>();
        for (WorktreeInfo w : after) {
            WorktreeInfo was = old.get(w.path());
            String name = display(mainWorktree, w.path());
            if (was == null) {
                events.add(event(
                        repositoryId,
                        EventKinds.WORKTREE_ADDED,
                        "Worktree added: " + name + " on " + w.branchLabel() + at(w),
                        w));
                continue;
            }
            if (!Objects.equals(was.branch(), w.branch()) || was.detached() != w.detached()) {
                events.add(event(
                        repositoryId,
                        EventKinds.WORKTREE_BRANCH_CHANGED,
                        "Branch changed in " + name + ": " + was.branchLabel() + " → " + w.branchLabel(),
                        w));
            } else if (!Objects.equals(was.head(), w.head())) {
                events.add(event(
                        repositoryId,
                        EventKinds.WORKTREE_HEAD_MOVED,
                        "HEAD moved on " + w.branchLabel()
                                + " in " + name + ": " + was.shortHead() + " → " + w.shortHead()
                                + (w.subject() == null ? "" : " \"" + w.subject() + "\""),
                        w));
            }
            if (was.dirty() != null && w.dirty() != null && !was.dirty().equals(w.dirty())) {
                events.add(
                        w.dirty()
                                ? event(
                                        repositoryId,
                                        EventKinds.WORKTREE_DIRTY,
                                        name + " has uncommitted changes (" + w.changedFiles()
                                                + (w.changedFiles() == 1 ? " path)" : " paths)"),
                                        w)
                                : event(repositoryId, EventKinds.WORKTREE_CLEAN, name + " is clean", w));
            }
            if (was.locked() != w.locked()) {
                events.add(
                        w.locked()
                                ? event(
                                        repositoryId,
                                        EventKinds.WORKTREE_LOCKED,
                                        name + " was locked"
                                                + (w.lockedReason().isEmpty() ? "" : ": " + w.lockedReason()),
                                        w)
                                : event(repositoryId, EventKinds.WORKTREE_UNLOCKED, name + " was unlocked", w));
            }
            if (!was.missing() && w.missing()) {
                events.add(event(
                        repositoryId,
                        EventKinds.WORKTREE_MISSING,
                        "The folder of " + name + " is missing"
                                + (w.locked() ? " (git keeps it: the worktree is locked)" : ""),
                        w));
            }
            if (!was.prunable() && w.prunable()) {
                events.add(event(
                        repositoryId,
                        EventKinds.WORKTREE_PRUNABLE,
                        name + " is prunable" + (w.prunableReason().isEmpty() ? "" : ": " + w.prunableReason()),
                        w));
            }
        }
        for (WorktreeInfo w : before) {
            if (!now.containsKey(w.path())) {
                events.add(event(
                        repositoryId,
                        EventKinds.WORKTREE_REMOVED,
                        "Worktree removed: "
                                + display(mainWorktree, w.path()) + " (was on "
                                + (w.branch() != null ? w.branch() : w.detached() ? "a detached HEAD" : "no branch")
                                + ")",
                        w));
            }
        }
        return events;
    }

    /**
     * How event messages name a worktree: "main worktree"; for Paddock's own layout
     * {@code <main>/.worktrees/<sandbox-id>/<branch>}, the sandbox id; for other worktrees inside the
     * main one, the relative path; else the absolute path.
     */
    public static String display(Path mainWorktree, Path path) {
        if (path.equals(mainWorktree)) {
            return "main worktree";
        }
        return path.startsWith(mainWorktree) ? inside(mainWorktree, path) : path.toString();
    }

    /**
     * How the dashboard's table names a worktree: like {@link #display}, but the folder name for the
     * main worktree and for worktrees outside it (the row's tooltip has the full path).
     */
    public static String shortName(Path mainWorktree, Path path) {
        if (path.equals(mainWorktree) || !path.startsWith(mainWorktree)) {
            return path.getFileName() == null
                    ? path.toString()
                    : path.getFileName().toString();
        }
        return inside(mainWorktree, path);
    }

    private static String inside(Path mainWorktree, Path path) {
        Path rel = mainWorktree.relativize(path);
        if (rel.getNameCount() >= 2 && rel.getName(0).toString().equals(".worktrees")) {
            return rel.getName(1).toString();
        }
        return rel.toString();
    }

    private static String at(WorktreeInfo w) {
        return w.head() == null ? "" : " at " + w.shortHead();
    }

    private static EventDraft event(long repositoryId, String kind, String message, WorktreeInfo w) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("path", w.path().toString());
        details.put("branch", w.branch());
        details.put("head", w.head());
        details.put("detached", w.detached());
        details.put("locked", w.locked());
        details.put("prunable", w.prunable());
        details.put("missing", w.missing());
        if (w.dirty() != null) {
            details.put("dirty", w.dirty());
            details.put("changedFiles", w.changedFiles());
        }
        return EventDraft.of(repositoryId, null, kind, message, details);
    }

    private static Map<Path, WorktreeInfo> byPath(List<WorktreeInfo> list) {
        Map<Path, WorktreeInfo> m = new LinkedHashMap<>();
        list.forEach(w -> m.put(w.path(), w));
        return m;
    }
}
