package dev.paddock.checkpoint;

import dev.paddock.worktree.GitException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TimeZone;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.EmptyTreeIterator;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.TreeFilter;

/**
 * The steps of a checkpoint that need no working tree, done in this process with JGit instead of more git processes:
 * writing the tree of Paddock's index and the commit object, listing what changed since the tree before, and creating its ref (create only: an
 * existing ref is never moved). All work on the repository's common folder, shared by all its worktrees.
 */
final class CheckpointObjects {
    private CheckpointObjects() {}

    /** A checkpoint's commit and what changed since the tree it is compared with. */
    record Written(String commit, CheckpointChanges changes) {}

    /**
     * Writes a commit of {@code tree} with {@code parent} (or none), by Paddock, now, and lists what changed from
     * {@code base} (a tree or commit id; null: every path of {@code tree} is added), both with one open repository.
     */
    static Written commitAndChanges(Path commonDir, String tree, String parent, String message, String base)
            throws GitException {
        try (Repository repo = open(commonDir)) {
            String commit = commit(repo, tree, parent, message);
            return new Written(commit, changes(repo, base, tree));
        } catch (IOException | IllegalArgumentException e) {
            throw new GitException("Cannot write a checkpoint commit in " + commonDir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Paths added, modified (content, mode or type) and deleted from tree-ish {@code from} (null: the empty tree) to
     * tree-ish {@code to}, recursively, as {@code git diff-tree -r --no-renames --name-status} lists them: a submodule
     * is one path, and a file replaced by a folder is the file deleted and the folder's files added.
     */
    static CheckpointChanges changes(Repository repo, String from, String to) throws IOException {
        List<String> added = new ArrayList<>();
        List<String> modified = new ArrayList<>();
        List<String> deleted = new ArrayList<>();
        try (RevWalk walk = new RevWalk(repo);
                TreeWalk tw = new TreeWalk(repo)) {
            if (from == null) {
                tw.addTree(new EmptyTreeIterator());
            } else {
                tw.addTree(walk.parseTree(ObjectId.fromString(from)));
            }
            tw.addTree(walk.parseTree(ObjectId.fromString(to)));
            tw.setRecursive(true);
            tw.setFilter(TreeFilter.ANY_DIFF);
            while (tw.next()) {
                boolean before = tw.getRawMode(0) != 0;
                boolean after = tw.getRawMode(1) != 0;
                (before && after ? modified : after ? added : deleted).add(tw.getPathString());
            }
        }
        added.sort(null);
        modified.sort(null);
        deleted.sort(null);
        return new CheckpointChanges(added, modified, deleted);
    }

    /**
     * Writes the tree of the index file {@code index} (subtrees its cache still knows are not written again), or
     * empty when JGit cannot: an index git wrote in a form JGit does not read (a split index), a path with a
     * conflict, a repository of another hash. Then {@code git write-tree} does it.
     */
    static Optional<String> writeTree(Path commonDir, Path index) {
        try (Repository repo = open(commonDir);
                ObjectInserter inserter = repo.newObjectInserter()) {
            if (repo.getConfig().getBoolean("core", "splitIndex", false)) {
                return Optional.empty();
            }
            DirCache dc = DirCache.read(index.toFile(), repo.getFS());
            ObjectId tree = dc.writeTree(inserter);
            inserter.flush();
            return Optional.of(tree.name());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Writes a commit of {@code tree} with {@code parent} (or none), by Paddock, now. */
    private static String commit(Repository repo, String tree, String parent, String message) throws IOException {
        try (ObjectInserter inserter = repo.newObjectInserter()) {
            PersonIdent paddock = new PersonIdent(
                    "Paddock",
                    "paddock@localhost",
                    Instant.now(),
                    TimeZone.getDefault().toZoneId());
            CommitBuilder c = new CommitBuilder();
            c.setTreeId(ObjectId.fromString(tree));
            if (parent != null) {
                c.setParentId(ObjectId.fromString(parent));
            }
            c.setAuthor(paddock);
            c.setCommitter(paddock);
            c.setMessage(message.endsWith("\n") ? message : message + "\n");
            ObjectId id = inserter.insert(c);
            inserter.flush();
            return id.name();
        }
    }

    /**
     * Creates {@code ref} at {@code commit} unless it exists.
     *
     * @return false when it exists already (nothing changed)
     */
    static boolean createRef(Path commonDir, String ref, String commit) throws GitException {
        try (Repository repo = open(commonDir)) {
            RefUpdate u = repo.updateRef(ref);
            u.setNewObjectId(ObjectId.fromString(commit));
            u.setExpectedOldObjectId(ObjectId.zeroId());
            u.setRefLogMessage("paddock checkpoint", false);
            RefUpdate.Result r = u.update();
            return switch (r) {
                case NEW -> true;
                case LOCK_FAILURE, REJECTED, REJECTED_CURRENT_BRANCH, NO_CHANGE -> {
                    if (repo.exactRef(ref) != null) {
                        yield false;
                    }
                    throw new GitException("Cannot create " + ref + " in " + commonDir + ": " + r);
                }
                default -> throw new GitException("Cannot create " + ref + " in " + commonDir + ": " + r);
            };
        } catch (IOException | IllegalArgumentException e) {
            throw new GitException("Cannot create " + ref + " in " + commonDir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Where a linked worktree keeps its git state, read from its files as git reads them: the {@code .git} file's
     * {@code gitdir:} line, that folder's {@code commondir}, its {@code index}, and the commit its {@code HEAD} names
     * (null on an unborn branch).
     */
    record Where(Path commonDir, Path index, String head) {}

    /**
     * {@link Where} for {@code worktree}, without a git process; empty for anything but a plain linked worktree of a
     * SHA-1 repository (a main worktree, a {@code .git} file of another shape, a HEAD that cannot be read), which the
     * caller asks git about instead.
     */
    static Optional<Where> where(Path worktree) {
        try {
            Path dotGit = worktree.resolve(Constants.DOT_GIT);
            if (!Files.isRegularFile(dotGit)) {
                return Optional.empty();
            }
            String line = Files.readString(dotGit, StandardCharsets.UTF_8).strip();
            if (!line.startsWith(GITDIR) || line.indexOf('\n') >= 0) {
                return Optional.empty();
            }
            Path gitDir =
                    worktree.resolve(line.substring(GITDIR.length()).strip()).normalize();
            Path commondirFile = gitDir.resolve("commondir");
            if (!Files.isRegularFile(commondirFile)) {
                return Optional.empty();
            }
            Path commonDir = gitDir.resolve(Files.readString(commondirFile, StandardCharsets.UTF_8)
                            .strip())
                    .normalize();
            String head = Files.readString(gitDir.resolve(Constants.HEAD), StandardCharsets.UTF_8)
                    .strip();
            String commit;
            if (head.startsWith("ref: ")) {
                try (Repository repo = open(commonDir)) {
                    if (!repo.getObjectDatabase().exists() || !"sha1".equals(objectFormat(repo))) {
                        return Optional.empty();
                    }
                    Ref ref = repo.exactRef(head.substring(5).strip());
                    commit = ref == null || ref.getObjectId() == null
                            ? null
                            : ref.getObjectId().name();
                }
            } else if (isObjectId(head)) {
                commit = head;
            } else {
                return Optional.empty();
            }
            return Optional.of(new Where(commonDir, gitDir.resolve("index"), commit));
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // git itself says, or says what is wrong
        }
    }

    private static final String GITDIR = "gitdir:";

    /** The repository's object format ({@code extensions.objectFormat}; SHA-1 when unset). */
    private static String objectFormat(Repository repo) {
        String f = repo.getConfig().getString("extensions", null, "objectformat");
        return f == null ? "sha1" : f.toLowerCase(java.util.Locale.ROOT);
    }

    private static Repository open(Path commonDir) throws IOException {
        return new FileRepositoryBuilder()
                .setGitDir(commonDir.toFile())
                .setMustExist(true)
                .build();
    }

    /** Whether {@code s} names an object id of this repository's hash (SHA-1). */
    static boolean isObjectId(String s) {
        return s != null && s.length() == Constants.OBJECT_ID_STRING_LENGTH && ObjectId.isId(s);
    }
}
