package dev.paddock.merge;

import dev.paddock.common.Words;
import dev.paddock.container.ResourceLimits;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.Tier;
import java.util.Optional;

/**
 * How a merge queue entry's test command is isolated: as the entry's sandbox is (the test command
 * runs in the sandbox, in the sandbox's tier, and its output is kept). An entry without a
 * sandbox (a branch a person enqueued) runs its test as a host process, as the worktree tier does.
 *
 * @param sandbox the entry's sandbox (tier, network grant, image, limits), or null: a host process
 */
public record TestIsolation(SandboxRecord sandbox) {
    /** A host process in a process group of its own (worktree tier, or no sandbox). */
    public static final TestIsolation HOST = new TestIsolation(null);

    /** The isolation of an entry whose sandbox is {@code sandbox} (empty: none or gone, a host process). */
    public static TestIsolation of(Optional<SandboxRecord> sandbox) {
        return sandbox.map(TestIsolation::new).orElse(HOST);
    }

    /** The tier the test runs in. */
    public Tier tier() {
        return sandbox == null ? Tier.WORKTREE : sandbox.spec().tier();
    }

    /** Whether the test gets the host's network (namespace and container tiers only when the sandbox has it). */
    public boolean network() {
        return sandbox != null && sandbox.spec().networkGranted();
    }

    /**
     * For people: "as a host process", "in bubblewrap without network", "in a container of node:22 (2 CPUs,
     * 4096 MiB, 512 processes, no network)".
     */
    public String describe() {
        return switch (tier()) {
            case WORKTREE -> "as a host process";
            case NAMESPACE -> "in bubblewrap " + (network() ? "with" : "without") + " network";
            case CONTAINER -> {
                ResourceLimits l = java.util.Objects.requireNonNullElse(sandbox.limits(), ResourceLimits.DEFAULTS);
                yield "in a container of " + sandbox.spec().image() + " (" + cpus(l.nanoCpus()) + " CPUs, "
                        + l.memoryBytes() / ResourceLimits.MIB + " MiB, "
                        + Words.count(l.pids(), "process", "processes") + ", "
                        + (network() ? "network" : "no network") + ")";
            }
        };
    }

    /** Where the test runs, for a message: "in <worktree>", "in bubblewrap", "in a container". */
    public String place(java.nio.file.Path worktree) {
        return switch (tier()) {
            case WORKTREE -> "in " + worktree;
            case NAMESPACE -> "in bubblewrap";
            case CONTAINER -> "in a container";
        };
    }

    /** The command as the test log's first line names it: with how it is isolated, unless a host process. */
    public String logTitle(String command) {
        return tier() == Tier.WORKTREE ? command : command + "  [" + describe() + "]";
    }

    private static String cpus(long nanoCpus) {
        return nanoCpus % ResourceLimits.ONE_CPU == 0
                ? Long.toString(nanoCpus / ResourceLimits.ONE_CPU)
                : java.math.BigDecimal.valueOf(nanoCpus, 9).stripTrailingZeros().toPlainString();
    }
}
