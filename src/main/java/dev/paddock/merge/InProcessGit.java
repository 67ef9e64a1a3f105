package dev.paddock.merge;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.revwalk.filter.RevFilter;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.TreeFilter;

/**
 * The merge queue's read-only git questions answered in this process with JGit (no git process to start): the
 * commits two branches point at, whether one is in the other, and which files a merge adds. It never writes: refs, merges, commits and the checked-out tree
 * stay with the git CLI ({@link MergeGit}). Every method throws {@link IOException} (or a runtime exception from
 * JGit) when JGit cannot read the repository, for instance a SHA-256 one; the caller then asks git.
 */
final class InProcessGit {
    private InProcessGit() {}

    /**
     * The tips of base and of the branch (40 hex digits each, empty when the ref does not exist) and whether the
     * branch's tip is already in base (both present and the branch's tip an ancestor of base's, or equal).
     */
    record Tips(Optional<String> ours, Optional<String> theirs, boolean theirsInOurs) {}

    /** Opens the repository of a main or linked worktree. */
    private static Repository open(Path worktree) throws IOException {
        return new FileRepositoryBuilder()
                .setWorkTree(worktree.toFile())
                .setMustExist(true)
                .build();
    }

    /**
     * {@code <ref>^{commit}} for two refs, and whether the second's commit is an ancestor of the first's.
     * The ancestry test is a merge-base walk ({@link RevFilter#MERGE_BASE}), which stops at the fork point instead
     * of walking all of base's history.
     */
    static Tips tips(Path repo, String oursRef, String theirsRef) throws IOException {
        try (Repository r = open(repo);
                RevWalk walk = new RevWalk(r)) {
            Optional<RevCommit> ours = commit(r, walk, oursRef);
            Optional<RevCommit> theirs = commit(r, walk, theirsRef);
            boolean in = ours.isPresent() && theirs.isPresent() && isAncestor(walk, theirs.get(), ours.get());
            return new Tips(ours.map(ObjectId::name), theirs.map(ObjectId::name), in);
        }
    }

    /** {@code <ref>^{commit}}, empty when the ref does not exist. */
    static Optional<String> resolve(Path repo, String ref) throws IOException {
        try (Repository r = open(repo);
                RevWalk walk = new RevWalk(r)) {
            return commit(r, walk, ref).map(ObjectId::name);
        }
    }

    /** Whether commit {@code ancestor} is an ancestor of (or equal to) {@code commit}. */
    static boolean isAncestor(Path repo, String ancestor, String commit) throws IOException {
        try (Repository r = open(repo);
                RevWalk walk = new RevWalk(r)) {
            return isAncestor(
                    walk,
                    walk.parseCommit(ObjectId.fromString(ancestor)),
                    walk.parseCommit(ObjectId.fromString(commit)));
        }
    }

    private static Optional<RevCommit> commit(Repository r, RevWalk walk, String ref) throws IOException {
        ObjectId id = r.resolve(ref + "^{commit}");
        return id == null ? Optional.empty() : Optional.of(walk.parseCommit(id));
    }

    private static boolean isAncestor(RevWalk walk, RevCommit ancestor, RevCommit commit) throws IOException {
        if (ancestor.equals(commit)) {
            return true;
        }
        walk.reset();
        walk.setRevFilter(RevFilter.MERGE_BASE);
        walk.markStart(walk.parseCommit(ancestor));
        walk.markStart(walk.parseCommit(commit));
        for (RevCommit base = walk.next(); base != null; base = walk.next()) {
            if (base.equals(ancestor)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The files {@code to} adds to {@code from} (paths relative to the worktree root), for checking before base
     * moves that nothing untracked is in their way ({@link #freeOnDisk}) instead of git's dry run of
     * {@code read-tree -m -u}. Empty (unsure: ask git) when a change touches a submodule, swaps a file and a
     * folder, or adds a path that is not printable ASCII (whose name on disk could differ from git's bytes).
     *
     * @param from a commit or tree id
     * @param to a commit or tree id
     */
    static Optional<List<String>> addedPaths(Path repo, String from, String to) throws IOException {
        try (Repository r = open(repo);
                RevWalk walk = new RevWalk(r);
                TreeWalk tw = new TreeWalk(r)) {
            tw.addTree(walk.parseTree(ObjectId.fromString(from)));
            tw.addTree(walk.parseTree(ObjectId.fromString(to)));
            tw.setRecursive(true);
            tw.setFilter(TreeFilter.ANY_DIFF);
            List<String> added = new ArrayList<>();
            while (tw.next()) {
                int before = tw.getRawMode(0);
                int after = tw.getRawMode(1);
                if (isOdd(before) || isOdd(after) || before == 0 && !isPrintableAscii(tw.getRawPath())) {
                    return Optional.empty();
                }
                if (before == 0) {
                    added.add(tw.getPathString());
                }
            }
            return Optional.of(added);
        }
    }

    /**
     * Every path whose entry differs between two commits (or trees), repository-relative, {@code /}-separated: files,
     * links and submodules, with the old and new path of a rename both listed (no rename detection).
     *
     * @param from a commit or tree id, or null for the empty tree
     * @param to a commit or tree id
     */
    static List<String> changedPaths(Path repo, String from, String to) throws IOException {
        try (Repository r = open(repo);
                RevWalk walk = new RevWalk(r)) {
            return changedPaths(
                    r,
                    from == null ? null : walk.parseTree(ObjectId.fromString(from)),
                    walk.parseTree(ObjectId.fromString(to)));
        }
    }

    /** {@link #changedPaths(Path, String, String)} between two trees of an open repository ({@code from} null: empty). */
    private static List<String> changedPaths(Repository r, ObjectId from, ObjectId to) throws IOException {
        try (TreeWalk tw = new TreeWalk(r)) {
            if (from == null) {
                tw.addTree(new org.eclipse.jgit.treewalk.EmptyTreeIterator());
            } else {
                tw.addTree(from);
            }
            tw.addTree(to);
            tw.setRecursive(true);
            tw.setFilter(TreeFilter.ANY_DIFF);
            List<String> paths = new ArrayList<>();
            while (tw.next()) {
                paths.add(tw.getPathString());
            }
            return paths;
        }
    }

    /**
     * Every path {@code theirs} changes since it left {@code ours}: its diff from each merge base of the two (several
     * after criss-cross merges), or from the empty tree when they share no history; one repository opening.
     */
    static java.util.Set<String> changedSinceMergeBases(Path repo, String ours, String theirs) throws IOException {
        try (Repository r = open(repo);
                RevWalk walk = new RevWalk(r)) {
            walk.setRevFilter(RevFilter.MERGE_BASE);
            walk.markStart(walk.parseCommit(ObjectId.fromString(ours)));
            RevCommit tip = walk.parseCommit(ObjectId.fromString(theirs));
            walk.markStart(tip);
            List<RevCommit> bases = new ArrayList<>();
            for (RevCommit c = walk.next(); c != null; c = walk.next()) {
                bases.add(c);
            }
            java.util.Set<String> out = new java.util.TreeSet<>();
            try (RevWalk trees = new RevWalk(r)) {
                ObjectId to = trees.parseTree(tip);
                if (bases.isEmpty()) {
                    out.addAll(changedPaths(r, null, to));
                }
                for (RevCommit b : bases) {
                    out.addAll(changedPaths(r, trees.parseTree(b), to));
                }
            }
            return out;
        }
    }

    private static boolean isPrintableAscii(byte[] raw) {
        for (byte b : raw) {
            if (b < 0x20 || b > 0x7e) { // negative: non-ASCII
                return false;
            }
        }
        return true;
    }

    /** A submodule or a folder entry (a file/folder swap) between the two trees. */
    private static boolean isOdd(int mode) {
        return mode != 0 && (FileMode.GITLINK.equals(mode) || FileMode.TREE.equals(mode));
    }

    /**
     * Whether a file can be written at {@code path} (from {@link #addedPaths}) under {@code tree} without meeting
     * anything on disk: nothing there (file, folder or link), and no parent folder on the way that is a file or a
     * link (an untracked or ignored file there makes {@code git read-tree -m -u} refuse).
     */
    static boolean freeOnDisk(Path tree, String path) {
        Path p = tree.resolve(path);
        if (Files.exists(p, LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(p)) {
            return false;
        }
        for (Path parent = p.getParent(); parent != null && !parent.equals(tree); parent = parent.getParent()) {
            if (Files.isSymbolicLink(parent)
                    || Files.exists(parent, LinkOption.NOFOLLOW_LINKS)
                            && !Files.isDirectory(parent, LinkOption.NOFOLLOW_LINKS)) {
                return false; // a file or a link where read-tree needs a folder
            }
        }
        return true;
    }
}
