package dev.paddock.checkpoint;

import dev.paddock.worktree.GitException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.TimeZone;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * The two steps of a checkpoint that need no working tree, done in this process with JGit instead of two more git
 * processes: writing the commit object and creating its ref (create only: an existing ref is never moved). Both
 * work on the repository's common folder, shared by all its worktrees.
 */
final class CheckpointObjects {
    private CheckpointObjects() {}

    /** Writes a commit of {@code tree} with {@code parent} (or none), by Paddock, now. */
    static String commit(Path commonDir, String tree, String parent, String message) throws GitException {
        try (Repository repo = open(commonDir);
                ObjectInserter inserter = repo.newObjectInserter()) {
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
        } catch (IOException | IllegalArgumentException e) {
            throw new GitException("Cannot write a checkpoint commit in " + commonDir + ": " + e.getMessage(), e);
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
