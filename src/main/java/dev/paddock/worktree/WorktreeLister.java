package dev.paddock.worktree;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists the worktrees of a repository: {@code git worktree list --porcelain} for the list (JGit has
 * no worktree API), JGit for each head commit's subject, and {@code git status} for the dirty state
 * (run with {@code --no-optional-locks} so Paddock never takes the index lock from the user's git).
 *
 * <p>Thread-safe. Holds an open JGit repository per common directory; {@link #close()} releases them.
 */
public final class WorktreeLister implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WorktreeLister.class);
    private static final int SUBJECT_CACHE_SIZE = 4096;

    private final GitCli git;
    private final Submodules submodules;
    private final Map<Path, Repository> jgitRepos = new ConcurrentHashMap<>();
    private final Map<String, String> subjects = Collections.synchronizedMap(new LinkedHashMap<>(256, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > SUBJECT_CACHE_SIZE;
        }
    });

    public WorktreeLister(GitCli git) {
        this.git = git;
        this.submodules = new Submodules(git);
    }

    /** The git this lister runs. */
    GitCli git() {
        return git;
    }

    /**
     * Lists the worktrees without dirty state (one git process): path, head, branch, lock and prune
     * flags, whether the folder is missing, and the head commit's subject. Cheap enough to call every second.
     *
     * @throws GitException when git cannot list the worktrees
     */
    public List<WorktreeInfo> listQuick(GitRepository repo) throws GitException {
        List<WorktreeInfo> out = new ArrayList<>();
        for (PorcelainParser.Entry e : porcelain(repo.mainWorktree())) {
            if (e.bare()) {
                continue;
            }
            WorktreeInfo w = e.info().withMissingChecked();
            out.add(w.withDetails(subject(repo, w.head()), null, 0));
        }
        return out;
    }

    /** Lists the worktrees with their dirty state (one extra git process per worktree). */
    public List<WorktreeInfo> list(GitRepository repo) throws GitException {
        List<WorktreeInfo> quick = listQuick(repo);
        List<WorktreeInfo> out = new ArrayList<>(quick.size());
        for (WorktreeInfo w : quick) {
            out.add(withStatus(w));
        }
        return out;
    }

    /**
     * Fills in the dirty state of one worktree. Prunable worktrees and worktrees whose directory is
     * gone are left unknown (dirty = null). Submodules count: one changed path for each initialised one with
     * changes of its own (a moved HEAD, modified or untracked files in it, whatever the configuration's
     * {@code ignore} says), and each file in the folder of one that is not initialised, which git does not see
     * ({@link Submodules}).
     */
    public WorktreeInfo withStatus(WorktreeInfo w) {
        if (w.prunable() || !Files.isDirectory(w.path())) {
            return w.withMissingChecked().withDetails(w.subject(), null, 0);
        }
        try {
            GitCli.Result r = git.run(
                    w.path(),
                    Submodules.withNoCommands(
                            "--no-optional-locks",
                            "status",
                            "--porcelain=v1",
                            "-z",
                            "--untracked-files=normal",
                            "--ignore-submodules=none"),
                    GitCli.DEFAULT_TIMEOUT);
            if (!r.ok()) {
                LOG.debug("git status failed in {}: {}", w.path(), r.errorLine());
                return w.withDetails(w.subject(), null, 0);
            }
            int changed = countStatusEntries(w.path(), r.stdout()) + submodules.uncountedFiles(w.path());
            return w.withDetails(w.subject(), changed > 0, changed);
        } catch (GitException e) {
            LOG.debug("git status failed in {}: {}", w.path(), e.getMessage());
            return w.withDetails(w.subject(), null, 0);
        }
    }

    /**
     * Counts entries of {@code git status --porcelain=v1 -z}: renames and copies carry an extra path, in
     * the index column (staged) or in the worktree column (e.g. a rename of an intent-to-add file).
     */
    static int countStatusEntries(String z) {
        return countStatusEntries(null, z);
    }

    /**
     * {@link #countStatusEntries(String)}, leaving out untracked entries of {@code worktree} that are only the mount
     * points of Claude Code's own sandbox ({@link MountPlaceholders}).
     */
    static int countStatusEntries(Path worktree, String z) {
        int count = 0;
        String[] tokens = z.split("\0");
        for (int i = 0; i < tokens.length; i++) {
            String t = tokens[i];
            if (t.length() < 4) {
                continue;
            }
            if (worktree != null && t.startsWith("?? ") && MountPlaceholders.only(worktree, t.substring(3))) {
                continue;
            }
            count++;
            if (isRenameOrCopy(t.charAt(0)) || isRenameOrCopy(t.charAt(1))) {
                i++; // the next token is the source path
            }
        }
        return count;
    }

    private static boolean isRenameOrCopy(char status) {
        return status == 'R' || status == 'C';
    }

    private List<PorcelainParser.Entry> porcelain(Path dir) throws GitException {
        return PorcelainParser.list(git, dir);
    }

    private String subject(GitRepository repo, String head) {
        if (head == null) {
            return null;
        }
        String cached = subjects.get(head);
        if (cached != null) {
            return cached;
        }
        String subject = readSubject(repo, head);
        if (subject != null) {
            subjects.put(head, subject);
        }
        return subject;
    }

    private String readSubject(GitRepository repo, String head) {
        try {
            Repository r = jgitRepos.computeIfAbsent(repo.commonDir(), WorktreeLister::openJGit);
            if (r != null) {
                RevCommit c = r.parseCommit(ObjectId.fromString(head));
                return c.getShortMessage();
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("JGit could not read commit {} in {}: {}", head, repo.commonDir(), e.toString());
        }
        // JGit may refuse newer repository extensions; git itself always answers.
        try {
            GitCli.Result r = git.run(repo.mainWorktree(), "log", "-1", "--format=%s", head);
            return r.ok() ? r.stdout().strip() : null;
        } catch (GitException e) {
            return null;
        }
    }

    private static Repository openJGit(Path commonDir) {
        try {
            return new FileRepositoryBuilder()
                    .setGitDir(commonDir.toFile())
                    .setMustExist(true)
                    .build();
        } catch (IOException | IllegalArgumentException e) {
            LOG.debug("JGit cannot open {}: {}", commonDir, e.toString());
            return null;
        }
    }

    @Override
    public void close() {
        jgitRepos.values().forEach(r -> {
            if (r != null) {
                r.close();
            }
        });
        jgitRepos.clear();
    }
}
