package dev.paddock.merge;

import dev.paddock.container.ResourceLimits;
import dev.paddock.sandbox.SandboxFixtures;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.Tier;
import java.time.Instant;
import java.util.List;

/**
 * Finished sandboxes written straight into a rig's real store (as the supervisor leaves them: {@code done}), so
 * that merge tests can give an entry a sandbox of any tier without running its agent.
 */
final class SandboxRecords {
    private SandboxRecords() {}

    /**
     * Stores sandbox {@code id} on {@code branch} of the rig's repository, moved pending → running → done.
     *
     * @param memoryLimitBytes container memory limit, or null (default)
     * @param image container image, or null
     */
    static SandboxRecord done(
            MergeRig rig, String id, String branch, Tier tier, boolean network, Long memoryLimitBytes, String image)
            throws Exception {
        return done(rig, id, branch, "main", tier, network, memoryLimitBytes, image);
    }

    /** As {@link #done(MergeRig, String, String, Tier, boolean, Long, String)}, based on {@code base}. */
    static SandboxRecord done(
            MergeRig rig,
            String id,
            String branch,
            String base,
            Tier tier,
            boolean network,
            Long memoryLimitBytes,
            String image)
            throws Exception {
        Instant now = Instant.now();
        SandboxRecord s = SandboxRecord.builder()
                .id(id)
                .repositoryId(rig.repoId)
                .task("task of " + id)
                .agentCommand("true")
                .tier(tier)
                .branch(branch)
                .baseBranch(base)
                .baseCommit(rig.repo.git("rev-parse", base).strip())
                .worktreePath(rig.repo.dir().resolve(".worktrees").resolve(id).toString())
                .state(SandboxState.PENDING)
                .createdAt(now)
                .stateChangedAt(now)
                .leaseMs(60_000)
                .networkGranted(network)
                .limits(memoryLimitBytes == null ? null : ResourceLimits.DEFAULTS.withMemoryBytes(memoryLimitBytes))
                .image(image)
                .build();
        rig.sandboxes.insert(s, "{}", List.of());
        SandboxFixtures.runToDone(rig.sandboxes, id);
        return rig.sandboxes.find(id).orElseThrow();
    }
}
