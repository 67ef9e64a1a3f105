package dev.paddock.diff;

import dev.paddock.checkpoint.CheckpointService;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * The two trees a diff compares and the branch's commits, read with JGit from the repository's common folder.
 * Closing it closes the repository.
 *
 * @param repo the repository (objects and refs)
 * @param oldTree the old side's tree; null for none (a root commit's parent)
 * @param newTree the new side's tree
 * @param baseCommit the commit the old side is (the sandbox's base, or the commit's parent)
 * @param headDescription what the new side is
 * @param commits the commits from the base to the worktree's HEAD, newest first
 */
record DiffSides(
        Repository repo,
        ObjectId oldTree,
        ObjectId newTree,
        String baseCommit,
        String headDescription,
        List<CommitSummary> commits)
        implements AutoCloseable {

    /**
     * The sides of a sandbox's diff.
     *
     * @param sandboxId for messages
     * @param base the sandbox's base commit
     * @param state its worktree's state
     * @param commit null for the whole change; else a commit on the branch since the base, compared with its parent
     * @throws DiffException when the commit is not one of the branch's since its base
     * @throws DiffNotFoundException when the base commit is not in the repository
     */
    static DiffSides open(String sandboxId, String base, WorktreeTree.State state, String commit)
            throws IOException, DiffException {
        Repository repo = new FileRepositoryBuilder()
                .setGitDir(state.commonDir().toFile())
                .setMustExist(true)
                .build();
        try {
            return read(repo, sandboxId, base, state, commit);
        } catch (IOException | DiffException | RuntimeException e) {
            repo.close();
            throw e;
        }
    }

    /**
     * The sides of a checkpoint's diff: checkpoint {@code from} against the checkpoint before it (the highest number
     * below it whose ref is still there; the sandbox's base commit when none), or against checkpoint {@code to}. No
     * commits are listed: a checkpoint is not on the branch.
     *
     * @param state where the repository is ({@link WorktreeTree#locate})
     * @throws DiffNotFoundException when a checkpoint or the base commit is not in the repository
     */
    static DiffSides ofCheckpoints(String sandboxId, String base, WorktreeTree.State state, int from, Integer to)
            throws IOException, DiffException {
        Repository repo = new FileRepositoryBuilder()
                .setGitDir(state.commonDir().toFile())
                .setMustExist(true)
                .build();
        try (RevWalk walk = new RevWalk(repo)) {
            RevCommit fromCommit = checkpoint(repo, walk, sandboxId, from);
            if (to != null) {
                RevCommit toCommit = checkpoint(repo, walk, sandboxId, to);
                return new DiffSides(
                        repo,
                        fromCommit.getTree(),
                        toCommit.getTree(),
                        fromCommit.name(),
                        "checkpoint " + to + " of " + sandboxId + " against checkpoint " + from,
                        List.of());
            }
            Integer before = previousCheckpoint(repo, sandboxId, from);
            RevCommit old;
            if (before != null) {
                old = checkpoint(repo, walk, sandboxId, before);
            } else {
                ObjectId baseId = repo.resolve(base + "^{commit}");
                if (baseId == null) {
                    throw new DiffNotFoundException("The base commit " + base + " of sandbox " + sandboxId
                            + " is not in its repository any more.");
                }
                old = walk.parseCommit(baseId);
            }
            return new DiffSides(
                    repo,
                    old.getTree(),
                    fromCommit.getTree(),
                    old.name(),
                    "checkpoint " + from + " of " + sandboxId + " against "
                            + (before == null ? "its base" : "checkpoint " + before),
                    List.of());
        } catch (IOException | DiffException | RuntimeException e) {
            repo.close();
            throw e;
        }
    }

    private static RevCommit checkpoint(Repository repo, RevWalk walk, String sandboxId, int n)
            throws IOException, DiffException {
        Ref ref = repo.exactRef(CheckpointService.refName(sandboxId, n));
        if (ref == null || ref.getObjectId() == null) {
            throw new DiffNotFoundException("Sandbox " + sandboxId + " has no checkpoint " + n + ".");
        }
        return walk.parseCommit(ref.getObjectId());
    }

    /** The highest checkpoint number below {@code n} whose ref exists, or null. */
    private static Integer previousCheckpoint(Repository repo, String sandboxId, int n) throws IOException {
        String prefix = CheckpointService.REF_PREFIX + sandboxId + "/";
        Integer best = null;
        for (Ref r : repo.getRefDatabase().getRefsByPrefix(prefix)) {
            try {
                int k = Integer.parseInt(r.getName().substring(prefix.length()));
                if (k < n && (best == null || k > best)) {
                    best = k;
                }
            } catch (NumberFormatException notOurs) {
                // a ref someone else put there
            }
        }
        return best;
    }

    private static DiffSides read(Repository repo, String sandboxId, String base, WorktreeTree.State state, String c)
            throws IOException, DiffException {
        try (RevWalk walk = new RevWalk(repo)) {
            ObjectId baseId = repo.resolve(base + "^{commit}");
            if (baseId == null) {
                throw new DiffNotFoundException(
                        "The base commit " + base + " of sandbox " + sandboxId + " is not in its repository any more.");
            }
            RevCommit baseCommit = walk.parseCommit(baseId);
            RevCommit head = state.head() == null ? null : walk.parseCommit(ObjectId.fromString(state.head()));
            List<CommitSummary> commits = commits(walk, baseCommit, head);
            if (c == null) {
                return new DiffSides(
                        repo,
                        baseCommit.getTree(),
                        ObjectId.fromString(state.tree()),
                        baseCommit.name(),
                        "the worktree of " + sandboxId
                                + (head == null
                                        ? ""
                                        : " at " + head.abbreviate(7).name())
                                + ", uncommitted and untracked files included",
                        commits);
            }
            RevCommit one = onBranch(repo, walk, sandboxId, c, commits, head);
            ObjectId parentTree = one.getParentCount() == 0
                    ? null
                    : walk.parseCommit(one.getParent(0)).getTree();
            String parent = one.getParentCount() == 0
                    ? ObjectId.zeroId().name()
                    : one.getParent(0).name();
            return new DiffSides(
                    repo,
                    parentTree,
                    one.getTree(),
                    parent,
                    "commit " + one.abbreviate(7).name() + " " + one.getShortMessage(),
                    commits);
        }
    }

    /** The commits reachable from {@code head} and not from {@code base}, newest first. */
    private static List<CommitSummary> commits(RevWalk walk, RevCommit base, RevCommit head) throws IOException {
        List<CommitSummary> out = new ArrayList<>();
        if (head == null) {
            return out;
        }
        walk.reset();
        walk.markStart(head);
        walk.markUninteresting(base);
        for (RevCommit r : walk) {
            out.add(new CommitSummary(
                    r.name(),
                    r.abbreviate(7).name(),
                    r.getShortMessage(),
                    r.getAuthorIdent().getName(),
                    r.getAuthorIdent().getWhenAsInstant()));
        }
        walk.reset();
        return out;
    }

    private static RevCommit onBranch(
            Repository repo, RevWalk walk, String sandboxId, String asked, List<CommitSummary> commits, RevCommit head)
            throws IOException, DiffException {
        String c = asked.strip();
        // HEAD is the sandbox's (its worktree's), not the repository's checked-out branch: HEAD, HEAD~2, HEAD^.
        if (head != null && (c.equals("HEAD") || c.startsWith("HEAD~") || c.startsWith("HEAD^"))) {
            c = head.name() + c.substring(4);
        }
        ObjectId id = c.isEmpty() || c.startsWith("-") ? null : repo.resolve(c + "^{commit}");
        if (id == null) {
            throw new DiffException("No commit " + asked + " in the repository of sandbox " + sandboxId + ".");
        }
        if (commits.stream().noneMatch(s -> s.id().equals(id.name()))) {
            throw new DiffException("Commit " + asked + " is not on the branch of sandbox " + sandboxId
                    + " since its base: give one of the commits `paddock sandbox diff " + sandboxId
                    + " --json` lists.");
        }
        return walk.parseCommit(id);
    }

    @Override
    public void close() {
        repo.close();
    }

    /** The repository's common folder. */
    Path commonDir() {
        return repo.getDirectory().toPath();
    }
}
