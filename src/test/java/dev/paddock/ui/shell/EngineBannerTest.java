package dev.paddock.ui.shell;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.container.EngineStatus;
import dev.paddock.container.EngineWatch;
import dev.paddock.isolation.bubblewrap.BubblewrapProbe;
import dev.paddock.status.EnvironmentMonitor;
import dev.paddock.status.RepositoryStatus;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When the banner over the dashboard shows, and what it says. */
class EngineBannerTest {
    private static final Instant AT = Instant.parse("2026-11-30T13:05:12Z");
    private static final String SOCK = "unix:///var/run/docker.sock";

    private static EnvironmentMonitor.Snapshot away(String source, boolean everReachable) {
        EngineStatus s = new EngineStatus(false, SOCK, null, "Connection refused", AT.plusSeconds(20), source);
        return new EnvironmentMonitor.Snapshot(
                s,
                BubblewrapProbe.Status.notChecked(),
                new EngineWatch.State(s, AT, AT.plusSeconds(28), everReachable));
    }

    private static RepositoryStatus.Sandbox sandbox(String id, String tier, boolean unreachable) {
        return new RepositoryStatus.Sandbox(
                id, "task", tier, "running", "agent/x", "/w", AT, null, null, null, 0, null, null, unreachable);
    }

    @Test
    void anEngineThatWentAwaySaysWhichWhySinceWhenThatContainersAreUnknownAndThatPaddockKeepsTrying() {
        String text = EngineBannerText.message(
                away("default socket", true),
                List.of(
                        sandbox("a", "container", true),
                        sandbox("b", "container", true),
                        sandbox("c", "worktree", false)),
                ZoneOffset.UTC);

        assertThat(text)
                .isEqualTo("The Docker engine at " + SOCK + " (default socket) does not answer (since 13:05:12):"
                        + " Connection refused. 2 container sandboxes are shown as unknown: not failed, not stopped. New"
                        + " container sandboxes cannot start; the worktree and namespace tiers work on. Paddock keeps trying to"
                        + " reconnect and reconciles the containers when the engine is back.");
    }

    @Test
    void noBannerWhileTheEngineAnswersOrBeforeTheFirstCheck() {
        EngineStatus up = new EngineStatus(true, SOCK, "20.10.24", null, AT, "default socket");
        assertThat(EngineBannerText.message(
                        new EnvironmentMonitor.Snapshot(up, BubblewrapProbe.Status.notChecked()),
                        List.of(sandbox("a", "container", false)),
                        ZoneOffset.UTC))
                .isNull();
        assertThat(EngineBannerText.message(
                        new EnvironmentMonitor.Snapshot(EngineStatus.unknown(), BubblewrapProbe.Status.notChecked()),
                        List.of(sandbox("a", "container", false)),
                        ZoneOffset.UTC))
                .isNull();
        assertThat(EngineBannerText.message(null, List.of(), ZoneOffset.UTC)).isNull();
    }

    @Test
    void beforeTheFirstAnswerContainerSandboxesShownAsUnknownAreExplained() {
        EnvironmentMonitor.Snapshot notYet =
                new EnvironmentMonitor.Snapshot(EngineStatus.unknown(), BubblewrapProbe.Status.notChecked());

        assertThat(EngineBannerText.message(
                        notYet,
                        List.of(sandbox("a", "container", true), sandbox("b", "worktree", false)),
                        ZoneOffset.UTC))
                .isEqualTo(
                        "Paddock has not heard from the Docker"
                                + " engine yet: 1 container sandbox is shown as unknown until it answers (not failed, not stopped).");
    }

    @Test
    void someoneWhoNeverUsedDockerGetsNoBannerButAChosenEngineOrAContainerSandboxShowsIt() {
        assertThat(EngineBannerText.message(
                        away("default socket", false), List.of(sandbox("c", "worktree", false)), ZoneOffset.UTC))
                .isNull();
        assertThat(EngineBannerText.message(away("DOCKER_HOST", false), List.of(), ZoneOffset.UTC))
                .startsWith("The Docker engine at " + SOCK + " (DOCKER_HOST) does not answer");
        assertThat(EngineBannerText.message(
                        away("default socket", false), List.of(sandbox("a", "container", true)), ZoneOffset.UTC))
                .contains("1 container sandbox is shown as unknown");
    }
}
