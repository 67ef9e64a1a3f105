package dev.paddock.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** What {@code paddock status} prints for people. */
class StatusTextTest {
    private static final Instant NOW = Instant.parse("2026-12-06T10:00:00Z");

    private static RepositoryStatus.Sandbox sandbox(String id, String tier, String state, String branch) {
        return new RepositoryStatus.Sandbox(
                id,
                "a task",
                tier,
                state,
                branch,
                "/r/.worktrees/" + id,
                NOW,
                null,
                null,
                null,
                0,
                null,
                null,
                false,
                false,
                null,
                null,
                false,
                null,
                null);
    }

    private static RepositoryStatus status(List<RepositoryStatus.Sandbox> sandboxes) {
        return new RepositoryStatus(
                NOW,
                new RepositoryStatus.Repository(1L, "/r", "r", "main", true),
                List.of(),
                null,
                sandboxes,
                new Counts(sandboxes.size(), 0, 0, 0, 0),
                List.of(),
                new RepositoryStatus.Environment(
                        new RepositoryStatus.Docker(false, "unix:///var/run/docker.sock", null, "no engine"),
                        new RepositoryStatus.Bubblewrap(true, true, "0.8.0", null)),
                List.of());
    }

    @Test
    void sandboxRowsHaveAHeaderAndLineUpUnderIt() {
        String out = StatusText.render(
                status(List.of(
                        sandbox("fix-login-flow-with-a-long-id", "namespace", "running", "agent/fix-login"),
                        sandbox("s2", "worktree", "done", "agent/s2"))),
                ZoneOffset.UTC,
                Locale.ROOT);

        List<String> lines = out.lines().toList();
        int header = lines.indexOf("Sandboxes (2)") + 1;
        assertThat(lines.get(header))
                .startsWith("  ID ")
                .contains("TIER")
                .contains("STATE")
                .contains("BRANCH");
        int tierColumn = lines.get(header).indexOf("TIER");
        assertThat(lines.get(header + 1)).startsWith("  fix-login-flow-with-a-long-id  namespace");
        assertThat(lines.get(header + 1).indexOf("namespace")).isEqualTo(tierColumn);
        assertThat(lines.get(header + 2).indexOf("worktree")).isEqualTo(tierColumn);
        assertThat(lines.get(header + 2).indexOf("agent/s2"))
                .isEqualTo(lines.get(header).indexOf("BRANCH"));
    }

    @Test
    void noSandboxesNoHeader() {
        String out = StatusText.render(status(List.of()), ZoneOffset.UTC, Locale.ROOT);

        assertThat(out).contains("Sandboxes (0)\n").doesNotContain("  ID ");
    }
}
