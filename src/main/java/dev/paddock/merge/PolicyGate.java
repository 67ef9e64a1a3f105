package dev.paddock.merge;

import dev.paddock.common.PaddockException;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventKinds;
import dev.paddock.policy.PolicyGuard;
import dev.paddock.repo.RepoRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.GitException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The merge queue's gate for Paddock's policy and hook configuration ({@link PolicyGuard#isConfigPath}: anything
 * under {@code .paddock/} or {@code .claude/}): such a change never reaches base without a person's explicit
 * approval of the exact commit they reviewed. Two checks, so that nothing slips through the queue's own work:
 * <ol>
 *   <li>before an attempt, the files the branch changes since it left base (from every merge base): a change there
 *       stops the entry in {@link MergeState#POLICY_REVIEW} unless a person approved this very branch commit;</li>
 *   <li>before base moves, the files the candidate changes against base (after the merge, a rebase, an automatic
 *       or a person's conflict resolution, a rebuild on a moved base): a change there not approved for the commit
 *       being merged stops the entry the same way ({@link AttemptOutcome.HeldForReview}). A rebase that drops a commit already in
 *       base can change configuration the branch's own diff leaves alone; this check catches it.</li>
 * </ol>
 * An approval is bound to the reviewed commit: if the branch moves after it, the entry is reviewed again. The paths
 * are read in this process (JGit) when it can, else by git.
 */
final class PolicyGate {
    private static final Logger LOG = LoggerFactory.getLogger(PolicyGate.class);
    /** Most characters of diff a review shows; longer diffs are cut with a note. */
    static final int MAX_DIFF_CHARS = 200_000;

    private final MergeQueue queue;
    private final MergeStore store;
    private final MergeGit git;

    PolicyGate(MergeQueue queue) {
        this.queue = queue;
        this.store = queue.store();
        this.git = queue.git();
    }

    /** The configuration files {@code theirs} changes since it left {@code ours} (its diff from every merge base). */
    List<String> branchChanges(Path repo, String ours, String theirs) throws GitException {
        try {
            return List.copyOf(config(List.copyOf(InProcessGit.changedSinceMergeBases(repo, ours, theirs))));
        } catch (IOException | RuntimeException e) {
            LOG.debug("JGit cannot diff in {} ({}); asking git", repo, e.toString());
        }
        List<String> bases = mergeBases(repo, ours, theirs);
        TreeSet<String> out = new TreeSet<>();
        if (bases.isEmpty()) {
            out.addAll(config(changedPathsCli(repo, null, theirs))); // unrelated histories: all of it is new
        }
        for (String b : bases) {
            out.addAll(config(changedPathsCli(repo, b, theirs)));
        }
        return List.copyOf(out);
    }

    /** The configuration files that differ between two commits (what moving base from one to the other changes). */
    List<String> changes(Path repo, String from, String to) throws GitException {
        return List.copyOf(new TreeSet<>(config(changedPaths(repo, from, to))));
    }

    private static List<String> config(List<String> paths) {
        return paths.stream().filter(PolicyGuard::isConfigPath).toList();
    }

    /**
     * Check 1, before an attempt: when {@code theirs} changes configuration and no person approved exactly it, the
     * queued entry moves to {@link MergeState#POLICY_REVIEW} (its sandbox waits for a person).
     *
     * @return the configuration files the entry waits for a review of now (the attempt must not start); empty when
     *     it does not wait
     */
    List<String> holdsBeforeAttempt(RepoRecord repo, MergeEntry e, String ours, String theirs) throws PaddockException {
        List<String> files = branchChanges(repo.path(), ours, theirs);
        if (files.isEmpty() || approved(e.id(), theirs)) {
            return List.of();
        }
        hold(repo, e, MergeState.QUEUED, theirs, files, MergeChange.of());
        return files;
    }

    /**
     * Check 2, before base moves from {@code ours} to {@code candidate}.
     *
     * @return the configuration files the candidate changes when no person approved the commit being merged
     *     ({@code e.theirsCommit()}); empty when base may move
     */
    List<String> unapprovedChanges(Path repo, MergeEntry e, String ours, String candidate) throws PaddockException {
        List<String> files = changes(repo, ours, candidate);
        return files.isEmpty() || approved(e.id(), e.attempt().theirsCommit()) ? List.of() : files;
    }

    /**
     * After {@link #unapprovedChanges} found some: the running entry stops for a review, its merge worktree and
     * candidate dropped.
     */
    void holdRunning(RepoRecord repo, MergeEntry e, List<String> files) throws PaddockException {
        git.remove(repo.path(), MergeGit.worktreeOf(repo.path(), e.id()));
        hold(
                repo,
                e,
                MergeState.RUNNING,
                e.attempt().theirsCommit(),
                files,
                MergeChange.of(MergeChange.MERGE_COMMIT, null)
                        .set(MergeChange.WORKTREE, null)
                        .set(MergeChange.MAIN_TREE_PENDING, false)
                        .clearTestProcess()
                        .set(MergeChange.TEST_CONTAINER, null));
        store.replaceConflicts(e.id(), List.of());
    }

    private boolean approved(long id, String commit) throws PaddockException {
        return store.review(id).map(r -> r.approves(commit)).orElse(false);
    }

    private void hold(
            RepoRecord repo, MergeEntry e, MergeState from, String commit, List<String> files, MergeChange more)
            throws PaddockException {
        String list = String.join(", ", files);
        String result = "waits for a person to review its change to policy or hook configuration (" + list + ") at "
                + shortId(commit) + ": approve or reject it";
        MergeChange columns = MergeChange.of(MergeChange.STEP, null)
                .set(MergeChange.STEP_STARTED_AT, store.now())
                .set(MergeChange.THEIRS_COMMIT, commit)
                .set(MergeChange.REVIEW_COMMIT, commit)
                .set(MergeChange.REVIEW_FILES, files)
                .set(MergeChange.RESULT, result)
                .with(more);
        String sandbox = e.request().sandboxId();
        EventDraft ev = EventDraft.of(
                e.repositoryId(),
                sandbox,
                EventKinds.MERGE_POLICY_REVIEW,
                e.label()
                        + " changes policy or hook configuration (" + list
                        + ") and waits for a person: review the diff, then"
                        + " approve or reject it (paddock merge review " + e.id() + "); " + repo.baseBranch()
                        + " is unchanged",
                Map.of("branch", e.request().branch(), "files", files, "commit", commit == null ? "" : commit));
        if (!store.move(e.id(), from, MergeState.POLICY_REVIEW, columns, ev)) {
            LOG.info("{} changed while it was stopped for a policy review", e.label());
            return;
        }
        queue.sandboxLink()
                .move(
                        sandbox,
                        SandboxState.AWAITING_HUMAN,
                        sandbox + "'s branch changes" + " policy or hook configuration (" + list
                                + "): a person reviews it before it is merged");
    }

    /**
     * A person approves the change under review: the entry goes back in the queue, bound to the reviewed commit.
     *
     * @param commit the commit the person looked at (a full id or a prefix of 7 or more), or null for the one under
     *     review now
     * @throws MergeException NOT_FOUND; CONFLICT when the entry does not wait for a review, or {@code commit} is not
     *     the commit under review (the branch moved: look again)
     */
    MergeEntry approve(long id, String who, String commit) throws PaddockException {
        MergeEntry e = waiting(id);
        PolicyReview r = store.review(id).orElseThrow(() -> MergeService.notFound(id));
        if (commit != null && !commit.isBlank() && !sameCommit(commit.strip(), r.reviewCommit())) {
            throw new MergeException(
                    MergeException.Kind.CONFLICT,
                    e.label() + " waits for the review of " + shortId(r.reviewCommit()) + ", not " + commit.strip()
                            + ": look at its diff again, then approve");
        }
        String files = String.join(", ", r.files());
        String sandbox = e.request().sandboxId();
        if (!store.move(
                id,
                MergeState.POLICY_REVIEW,
                MergeState.QUEUED,
                MergeChange.of(MergeChange.APPROVED_COMMIT, r.reviewCommit())
                        .set(MergeChange.APPROVED_BY, who)
                        .set(MergeChange.APPROVED_AT, store.now())
                        .set(MergeChange.STEP_STARTED_AT, store.now())
                        .set(
                                MergeChange.RESULT,
                                "policy change approved by " + who + " at " + shortId(r.reviewCommit()) + " (" + files
                                        + ")"),
                EventDraft.of(
                        e.repositoryId(),
                        sandbox,
                        EventKinds.MERGE_POLICY_APPROVED,
                        who + " approved the"
                                + " change of " + e.label() + " to policy or hook configuration (" + files + ") at "
                                + shortId(r.reviewCommit()) + "; it is back in the queue",
                        Map.of(
                                "branch",
                                e.request().branch(),
                                "by",
                                who,
                                "files",
                                r.files(),
                                "commit",
                                r.reviewCommit())))) {
            throw new MergeException(MergeException.Kind.CONFLICT, e.label() + " changed meanwhile; look again.");
        }
        queue.sandboxLink()
                .move(
                        sandbox,
                        SandboxState.MERGING,
                        sandbox + " is back in the merge queue:" + " its policy change was approved by " + who);
        queue.poke();
        return store.find(id).orElseThrow();
    }

    /**
     * A person rejects the change under review: the entry is cancelled, base never moved.
     *
     * @param reason why, shown in the result and the event (may be null)
     * @throws MergeException NOT_FOUND; CONFLICT when the entry does not wait for a review
     */
    MergeEntry reject(long id, String who, String reason) throws PaddockException {
        MergeEntry e = waiting(id);
        String sandbox = e.request().sandboxId();
        RepoRecord repo = queue.sandboxLink()
                .targetOf(queue.repos().find(e.repositoryId()).orElseThrow(), sandbox);
        String why = reason == null || reason.isBlank() ? "" : ": " + reason.strip();
        if (!store.move(
                id,
                MergeState.POLICY_REVIEW,
                MergeState.CANCELLED,
                MergeChange.of(MergeChange.FINISHED_AT, store.now())
                        .set(MergeChange.APPROVED_COMMIT, null)
                        .set(MergeChange.APPROVED_BY, null)
                        .set(MergeChange.APPROVED_AT, null)
                        .set(MergeChange.RESULT, "policy change rejected by " + who + why),
                EventDraft.of(
                        e.repositoryId(),
                        sandbox,
                        EventKinds.MERGE_POLICY_REJECTED,
                        who
                                + " rejected the change of " + e.label() + " to policy or hook configuration" + why
                                + "; "
                                + repo.baseBranch() + " is unchanged",
                        Map.of("branch", e.request().branch(), "by", who)))) {
            throw new MergeException(MergeException.Kind.CONFLICT, e.label() + " changed meanwhile; look again.");
        }
        queue.sandboxLink()
                .move(
                        sandbox,
                        SandboxState.DONE,
                        sandbox + " left the merge queue: its policy" + " change was rejected by " + who);
        return store.find(id).orElseThrow();
    }

    /**
     * The diff a person reviews: the configuration files under review, from base's tip to the reviewed commit.
     *
     * @throws MergeException NOT_FOUND; CONFLICT when the entry has never been stopped for a review
     */
    PolicyDiff diff(long id) throws PaddockException {
        MergeEntry e = store.find(id).orElseThrow(() -> MergeService.notFound(id));
        PolicyReview r = store.review(id).orElseThrow(() -> MergeService.notFound(id));
        if (r.reviewCommit() == null) {
            throw new MergeException(
                    MergeException.Kind.CONFLICT,
                    e.label() + " changes no policy or hook" + " configuration: there is nothing to review.");
        }
        RepoRecord repo = queue.sandboxLink()
                .targetOf(
                        queue.repos().find(e.repositoryId()).orElseThrow(),
                        e.request().sandboxId());
        String base =
                git.resolve(repo.path(), "refs/heads/" + repo.baseBranch()).orElse(null);
        List<String> args = new ArrayList<>(List.of(
                "--literal-pathspecs",
                "diff",
                "--no-color",
                "--no-ext-diff",
                "--no-textconv",
                "--no-renames",
                base == null ? emptyTree(repo.path()) : base,
                r.reviewCommit(),
                "--"));
        args.addAll(r.files());
        GitCli.Result d = git.cli().run(repo.path(), args, GitCli.DEFAULT_TIMEOUT);
        if (!d.ok()) {
            throw new GitException("Cannot show the diff of " + e.label() + ": " + d.errorLine());
        }
        String text = d.stdout();
        boolean cut = text.length() > MAX_DIFF_CHARS;
        if (cut) {
            text = text.substring(0, MAX_DIFF_CHARS) + "\n… cut after " + MAX_DIFF_CHARS + " characters: see `git diff "
                    + shortId(base) + " " + shortId(r.reviewCommit()) + " -- " + String.join(" ", r.files()) + "`\n";
        }
        return new PolicyDiff(id, repo.baseBranch(), base, r.reviewCommit(), r.files(), text, cut);
    }

    private MergeEntry waiting(long id) throws PaddockException {
        MergeEntry e = store.find(id).orElseThrow(() -> MergeService.notFound(id));
        if (e.state() != MergeState.POLICY_REVIEW) {
            throw new MergeException(
                    MergeException.Kind.CONFLICT,
                    e.label() + " is " + e.state().id()
                            + "; only an entry waiting for a policy review can be approved or rejected.");
        }
        return e;
    }

    private static boolean sameCommit(String given, String reviewed) {
        String g = given.toLowerCase(Locale.ROOT);
        return reviewed != null && (g.equals(reviewed) || g.length() >= 7 && reviewed.startsWith(g));
    }

    static String shortId(String commit) {
        return commit == null ? "(none)" : commit.substring(0, Math.min(12, commit.length()));
    }

    private List<String> changedPaths(Path repo, String from, String to) throws GitException {
        try {
            return InProcessGit.changedPaths(repo, from, to);
        } catch (IOException | RuntimeException e) {
            LOG.debug("JGit cannot diff in {} ({}); asking git", repo, e.toString());
        }
        return changedPathsCli(repo, from, to);
    }

    private List<String> changedPathsCli(Path repo, String from, String to) throws GitException {
        GitCli.Result r = git.cli()
                .run(
                        repo,
                        List.of(
                                "diff",
                                "--name-only",
                                "-z",
                                "--no-renames",
                                "--no-ext-diff",
                                from == null ? emptyTree(repo) : from,
                                to),
                        GitCli.DEFAULT_TIMEOUT);
        if (!r.ok()) {
            throw new GitException("Cannot list the files changed between " + shortId(from) + " and " + shortId(to)
                    + ": " + r.errorLine());
        }
        return List.of(r.stdout().split("\0")).stream()
                .filter(s -> !s.isEmpty())
                .toList();
    }

    /** The empty tree's id in the repository's object format: the "before" of a branch with no common history. */
    private String emptyTree(Path repo) throws GitException {
        return git.cli().runOk(repo, "hash-object", "-t", "tree", "--stdin").strip(); // stdin is empty
    }

    private List<String> mergeBases(Path repo, String a, String b) throws GitException {
        GitCli.Result r = git.cli().run(repo, "merge-base", "--all", a, b);
        if (r.exitCode() == 1 && r.stdout().isBlank()) {
            return List.of(); // unrelated histories
        }
        if (!r.ok()) {
            throw new GitException(
                    "Cannot find the merge base of " + shortId(a) + " and " + shortId(b) + ": " + r.errorLine());
        }
        return r.stdout().lines().map(String::strip).filter(s -> !s.isEmpty()).toList();
    }
}
