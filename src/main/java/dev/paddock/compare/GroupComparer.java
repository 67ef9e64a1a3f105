package dev.paddock.compare;

import dev.paddock.agent.SandboxTranscript;
import dev.paddock.agent.ToolCallApprovals;
import dev.paddock.agent.ToolCallDecision;
import dev.paddock.agent.Transcript;
import dev.paddock.agent.TranscriptTotals;
import dev.paddock.approval.ApprovalBroker;
import dev.paddock.common.PaddockException;
import dev.paddock.merge.MergeEntry;
import dev.paddock.merge.MergeService;
import dev.paddock.sandbox.SandboxGroup;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxRepositories;
import dev.paddock.sandbox.SandboxService;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.worktree.BranchStats;
import dev.paddock.worktree.GitCli;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads what each sandbox of a fan-out came to: its branch's commits and diff since the commit it started from (git),
 * its merge queue entry's test verdict, its transcript's figures and its tool calls' decisions (the same pairing as the
 * Transcript tab, {@link ToolCallApprovals}), and its run time. Reads only; a slow call (git, a long log): never on the
 * FX thread.
 */
public final class GroupComparer {
    private final SandboxService sandboxes;
    private final SandboxRepositories repositories;
    private final GitCli git;
    private final MergeService merges;
    private final ApprovalBroker approvals;
    private final Clock clock;

    public GroupComparer(
            SandboxService sandboxes,
            SandboxRepositories repositories,
            GitCli git,
            MergeService merges,
            ApprovalBroker approvals,
            Clock clock) {
        this.sandboxes = sandboxes;
        this.repositories = repositories;
        this.git = git;
        this.merges = merges;
        this.approvals = approvals;
        this.clock = clock;
    }

    /**
     * The comparison of the fan-out named {@code groupOrId}: the group with that id, or the group of that sandbox.
     *
     * @throws PaddockException when there is no such group or sandbox, the sandbox is in no group, or the store or
     *     git cannot be read
     */
    public GroupComparison compare(String groupOrId) throws PaddockException {
        SandboxGroup group = sandboxes.group(groupOrId);
        List<MemberResult> rows = new ArrayList<>();
        Instant now = clock.instant();
        for (SandboxRecord s : group.sandboxes()) {
            rows.add(member(s, now));
        }
        SandboxRecord first = group.sandboxes().get(0);
        return new GroupComparison(
                group.id(),
                first.spec().task(),
                first.workspace().baseBranch(),
                first.workspace().baseCommit(),
                rows);
    }

    private MemberResult member(SandboxRecord s, Instant now) throws PaddockException {
        Optional<BranchStats> stats = BranchStats.of(
                git, repository(s), s.workspace().baseCommit(), s.workspace().branch());
        Optional<MergeEntry> merge = merges.latestOf(s.id());
        Transcript t = SandboxTranscript.read(s, sandboxes.logFile(s.id()));
        TranscriptTotals totals = TranscriptTotals.of(t.entries());
        List<ToolCallDecision> decisions =
                ToolCallApprovals.decide(t.entries(), approvals.ofSandbox(s.id(), SandboxTranscript.MAX_APPROVALS));
        int denied = (int) decisions.stream().filter(GroupComparer::refused).count();
        // A refused call's failed result is its denial, counted as denied, not as an error.
        int errors = Math.max(0, totals.errors() - ToolCallApprovals.refusedResults(t.entries(), decisions));
        return new MemberResult(
                s.id(),
                s.spec().agent(),
                s.spec().model(),
                s.state().id(),
                s.workspace().branch(),
                stats.map(BranchStats::commits).orElse(null),
                stats.map(BranchStats::files).orElse(null),
                stats.map(BranchStats::added).orElse(null),
                stats.map(BranchStats::deleted).orElse(null),
                merge.map(m -> m.state().id()).orElse(null),
                merge.map(m -> m.attempt().lastTestPassed()).orElse(null),
                totals.toolCalls(),
                denied,
                errors,
                totals.tokensIn(),
                totals.tokensOut(),
                totals.costUsd(),
                s.run().iteration(),
                runMs(s, now));
    }

    /** Where git reads the branch: the sandbox's repository, else its worktree (branches are shared). */
    private Path repository(SandboxRecord s) throws PaddockException {
        try {
            return repositories.record(s.repositoryId()).path();
        } catch (PaddockException e) {
            if (s.workspace().worktree() != null
                    && java.nio.file.Files.isDirectory(s.workspace().worktree())) {
                return s.workspace().worktree();
            }
            throw e;
        }
    }

    /** The last run's time: to now while it runs, else to when it finished; null before it started. */
    static Long runMs(SandboxRecord s, Instant now) {
        if (s.run().startedAt() == null) {
            return null;
        }
        Instant end = s.state() == SandboxState.RUNNING ? now : s.run().finishedAt();
        if (end == null || end.isBefore(s.run().startedAt())) {
            return null;
        }
        return end.toEpochMilli() - s.run().startedAt().toEpochMilli();
    }

    /** Whether a decision refused its call (the policy, a person or a timeout). */
    static boolean refused(ToolCallDecision d) {
        return d != null && d.verdict().refused();
    }
}
