package dev.paddock.isolation.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A process that ended but was not reaped (a zombie) is gone for Paddock. An agent whose Paddock was
 * killed is reparented to PID 1; where PID 1 reaps late or never (a container without an init), the
 * agent that ends meanwhile stays a zombie, and Java still calls it alive.
 */
class ProcessTreeZombieTest {

    @Test
    void aZombieIsNotAliveThoughJavaSaysItIs() throws Exception {
        assertThat(Path.of("/proc/self"))
                .as("Paddock runs on Linux: /proc is needed")
                .isDirectory();
        // The shell starts a short child, then becomes `sleep 5`, which never reaps it: a zombie for 5 s.
        Process parent = new ProcessBuilder("/bin/sh", "-c", "sleep 0.1 & echo $!; exec sleep 5")
                .redirectErrorStream(true)
                .start();
        try {
            long zombie;
            try (BufferedReader out =
                    new BufferedReader(new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8))) {
                zombie = Long.parseLong(out.readLine().strip());
            }
            awaitZombie(zombie, Duration.ofSeconds(4));

            assertThat(ProcessHandle.of(zombie).map(ProcessHandle::isAlive))
                    .as("what Java says")
                    .contains(true);
            assertThat(ProcessTree.isAlive(zombie, null))
                    .as("what Paddock says")
                    .isFalse();
            assertThat(ProcessTree.isAlive(parent.pid(), null))
                    .as("the live parent")
                    .isTrue();
        } finally {
            parent.destroyForcibly().waitFor();
        }
    }

    @Test
    void aWatchedProcessRunsUntilItBecomesAZombie() throws Exception {
        assertThat(Path.of("/proc/self"))
                .as("Paddock runs on Linux: /proc is needed")
                .isDirectory();
        Process parent = new ProcessBuilder("/bin/sh", "-c", "sleep 1 & echo $!; exec sleep 6")
                .redirectErrorStream(true)
                .start();
        try {
            long child;
            try (BufferedReader out =
                    new BufferedReader(new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8))) {
                child = Long.parseLong(out.readLine().strip());
            }
            ProcessTree.Watched watched = ProcessTree.Watched.of(child).orElseThrow();
            assertThat(watched.running()).as("while it sleeps").isTrue();

            awaitZombie(child, Duration.ofSeconds(4));

            assertThat(watched.running()).as("once it ended, unreaped").isFalse();
            assertThat(ProcessTree.Watched.of(child))
                    .as("a zombie is not watched")
                    .isEmpty();
        } finally {
            parent.destroyForcibly().waitFor();
        }
    }

    @Test
    void procStatReadsStateAndStartAfterACommandNameWithSpacesAndParentheses(
            @org.junit.jupiter.api.io.TempDir Path temp) throws Exception {
        assertThat(Path.of("/proc/self"))
                .as("Paddock runs on Linux: /proc is needed")
                .isDirectory();
        Path odd = temp.resolve("a) b (c");
        Files.copy(Path.of("/bin/sleep"), odd);
        odd.toFile().setExecutable(true);
        Process p = new ProcessBuilder(odd.toString(), "5").start();
        try {
            ProcessTree.ProcStat stat = ProcessTree.procStat(p.pid()).orElseThrow();
            assertThat(Files.readString(Path.of("/proc", Long.toString(p.pid()), "comm"))
                            .strip())
                    .isEqualTo("a) b (c");
            assertThat(stat.state()).isIn('S', 'R', 'D');
            assertThat(stat.startTicks())
                    .isEqualTo(ProcessTree.procStat(p.pid()).orElseThrow().startTicks())
                    .isGreaterThan(ProcessTree.procStat(1).orElseThrow().startTicks() - 1);
            p.destroyForcibly().waitFor();
            assertThat(ProcessTree.procStat(p.pid())).as("gone and reaped").isEmpty();
        } finally {
            p.destroyForcibly().waitFor();
        }
    }

    private static void awaitZombie(long pid, Duration timeout) throws Exception {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            String s = Files.exists(stat) ? Files.readString(stat, StandardCharsets.ISO_8859_1) : "";
            if (s.contains(") Z")) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("process " + pid + " never became a zombie");
    }
}
