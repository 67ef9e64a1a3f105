package dev.paddock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.testing.BrokerRig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Wall time of a CLI command (target: ≤ 300 ms for one that asks a running Paddock), each a new process started as
 * a user starts it ({@code target/paddock}, the launcher with its class-data archive), in a repository with three
 * linked worktrees: {@code status --json}, {@code status}, {@code sandbox list [--json]} against a Paddock running in
 * this JVM, each answered by the thin client and then, with {@code PADDOCK_THIN_CLI=off}, by the full CLI; and
 * {@code status --json} with no Paddock running (then the command opens the store itself). For comparison:
 * {@code paddock --version} (thin: the JVM and the archive; full: and picocli) and {@code java -version} with the
 * JDK's own archive. 3 runs to warm the page cache, then {@link #RUNS}.
 */
class CliLatencyBench {
    private static final int WARM_UP = 3;
    private static final int RUNS = 20;

    @TempDir
    Path tmp;

    @Test
    void cliCommandsAgainstARunningPaddock() throws Exception {
        Path repo = BenchSupport.repositoryWithWorktrees(tmp, 3);
        Path home = tmp.resolve("home");
        String launcher = BenchSupport.launcher().toString();
        try (BrokerRig rig = BrokerRig.start(home)) {
            for (String args : List.of("status --json", "status", "sandbox list", "sandbox list --json")) {
                List<String> cmd = BenchSupport.command(launcher, "--home", home.toString());
                cmd.addAll(List.of(args.split(" ")));
                List<Long> ms = times(cmd, repo, Map.of());
                BenchSupport.report("CLI paddock " + args + ", a Paddock running (thin client): " + summary(ms) + " ms"
                        + target(ms));
                List<Long> full = times(cmd, repo, Map.of("PADDOCK_THIN_CLI", "off"));
                BenchSupport.report("CLI paddock " + args + ", a Paddock running, PADDOCK_THIN_CLI=off (full CLI): "
                        + summary(full) + " ms");
            }
        }
        List<Long> alone =
                times(BenchSupport.command(launcher, "--home", home.toString(), "status", "--json"), repo, Map.of());
        BenchSupport.report(
                "CLI paddock status --json, no Paddock running (opens the store): " + summary(alone) + " ms");
        BenchSupport.report("CLI paddock --version (thin client: the JVM and the archive): "
                + summary(times(BenchSupport.command(launcher, "--version"), repo, Map.of())) + " ms");
        BenchSupport.report("CLI paddock --version, PADDOCK_THIN_CLI=off (JVM, archive, picocli): "
                + summary(times(BenchSupport.command(launcher, "--version"), repo, Map.of("PADDOCK_THIN_CLI", "off")))
                + " ms");
        BenchSupport.report("java -Xshare:auto -version (the JDK's own archive): "
                + summary(times(BenchSupport.command(BenchSupport.java(), "-Xshare:auto", "-version"), repo, Map.of()))
                + " ms");
    }

    /** Min, median, 90th percentile and max, in ms. */
    private static String summary(List<Long> ms) {
        long[] v = ms.stream().mapToLong(Long::longValue).sorted().toArray();
        return "min " + v[0] + ", median " + v[v.length / 2] + ", p90 " + v[(int) Math.ceil(v.length * 0.9) - 1]
                + ", max " + v[v.length - 1] + " (n=" + v.length + ")";
    }

    private static String target(List<Long> ms) {
        long median = ms.stream().mapToLong(Long::longValue).sorted().toArray()[ms.size() / 2];
        return median <= 300 ? " (target median ≤ 300 ms: met)" : " (target median ≤ 300 ms: NOT met)";
    }

    /** {@link #WARM_UP} then {@link #RUNS} runs of {@code command} in {@code dir} with {@code env}; wall times in ms. */
    private static List<Long> times(List<String> command, Path dir, Map<String, String> env) throws Exception {
        List<Long> ms = new ArrayList<>();
        for (int i = 0; i < WARM_UP + RUNS; i++) {
            ProcessBuilder pb =
                    new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
            pb.environment().remove("PADDOCK_THIN_CLI");
            pb.environment().putAll(env);
            long t0 = System.nanoTime();
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes());
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(String.join(" ", command) + ": " + out).isZero();
            if (i >= WARM_UP) {
                ms.add((System.nanoTime() - t0) / 1_000_000);
            }
        }
        return ms;
    }
}
