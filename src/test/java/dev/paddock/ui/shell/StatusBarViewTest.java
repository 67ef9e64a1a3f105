package dev.paddock.ui.shell;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.container.EngineStatus;
import dev.paddock.isolation.bubblewrap.BubblewrapProbe;
import dev.paddock.status.EnvironmentMonitor;
import dev.paddock.ui.theme.Theme;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.paint.Paint;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.kordamp.ikonli.javafx.FontIcon;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The status bar's Docker and bubblewrap indicators in a real (headless) themed scene: neutral while checking. */
@ExtendWith(ApplicationExtension.class)
class StatusBarViewTest {
    private static final String SOCK = "unix:///var/run/docker.sock";

    private Stage stage;
    private ShellViewModel vm;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @AfterEach
    void close(FxRobot robot) {
        robot.interact(stage::hide);
        vm.close();
    }

    /** What the icon of {@code label} is painted with, after the theme's rules. */
    private static Paint iconColor(Label label) {
        label.applyCss();
        return ((FontIcon) label.getGraphic()).getIconColor();
    }

    @Test
    void whileTheChecksArePendingTheIndicatorsAreNeutralAndOnlyAFailedCheckTurnsThemRed(FxRobot robot)
            throws Exception {
        vm = new ShellViewModel(h -> dev.paddock.Host.start(h, "panel").panel());
        WaitForAsyncUtils.asyncFx(() -> {
                    Scene scene = new Scene(new StatusBarView(vm), 1000, 40);
                    Theme.LIGHT.apply(scene);
                    stage.setScene(scene);
                    stage.show();
                })
                .get(10, TimeUnit.SECONDS);
        Label docker = robot.lookup("#status-docker").queryAs(Label.class);
        Label bwrap = robot.lookup("#status-bubblewrap").queryAs(Label.class);
        assertThat(docker.getStyleClass()).doesNotContain("pd-ok", "pd-bad");

        // What the panel shows once Paddock started and before its first probes (EnvironmentMonitor's first snapshot).
        EnvironmentMonitor.Snapshot pending =
                new EnvironmentMonitor.Snapshot(EngineStatus.unknown(), BubblewrapProbe.Status.notChecked());
        Paint[] pendingColors = new Paint[2];
        robot.interact(() -> {
            StatusBarView.show(pending, docker, bwrap);
            pendingColors[0] = iconColor(docker);
            pendingColors[1] = iconColor(bwrap);
        });
        assertThat(docker.getText()).isEqualTo("Docker: checking…");
        assertThat(bwrap.getText()).isEqualTo("bubblewrap: checking…");
        assertThat(docker.getStyleClass()).doesNotContain("pd-ok", "pd-bad");
        assertThat(bwrap.getStyleClass()).doesNotContain("pd-ok", "pd-bad");

        EnvironmentMonitor.Snapshot failed = new EnvironmentMonitor.Snapshot(
                new EngineStatus(false, SOCK, null, "Connection refused", Instant.now(), "default socket"),
                new BubblewrapProbe.Status(true, false, "bubblewrap 0.8.0", "cannot create a user namespace"));
        Paint[] failedColors = new Paint[2];
        robot.interact(() -> {
            StatusBarView.show(failed, docker, bwrap);
            failedColors[0] = iconColor(docker);
            failedColors[1] = iconColor(bwrap);
        });
        assertThat(docker.getText()).isEqualTo("Docker unreachable · local socket");
        assertThat(bwrap.getText()).isEqualTo("bubblewrap unusable");
        assertThat(docker.getStyleClass()).contains("pd-bad");
        assertThat(bwrap.getStyleClass()).contains("pd-bad");
        assertThat(failedColors[0])
                .as("red once the check failed, not while pending")
                .isNotEqualTo(pendingColors[0]);
        assertThat(failedColors[1])
                .as("red once the check failed, not while pending")
                .isNotEqualTo(pendingColors[1]);

        EnvironmentMonitor.Snapshot fine = new EnvironmentMonitor.Snapshot(
                new EngineStatus(true, SOCK, "27.3.1", null, Instant.now(), "default socket"),
                new BubblewrapProbe.Status(true, true, "bubblewrap 0.8.0", null));
        robot.interact(() -> StatusBarView.show(fine, docker, bwrap));
        assertThat(docker.getText()).isEqualTo("Docker 27.3.1 · local socket");
        assertThat(docker.getStyleClass()).contains("pd-ok").doesNotContain("pd-bad");
        assertThat(bwrap.getStyleClass()).contains("pd-ok").doesNotContain("pd-bad");
    }

    @Test
    void otherEnginesShowOnlyWhenRegisteredWithEachOneInTheTooltip(FxRobot robot) throws Exception {
        vm = new ShellViewModel(h -> dev.paddock.Host.start(h, "panel").panel());
        WaitForAsyncUtils.asyncFx(() -> {
                    Scene scene = new Scene(new StatusBarView(vm), 1366, 40);
                    Theme.LIGHT.apply(scene);
                    stage.setScene(scene);
                    stage.show();
                })
                .get(10, TimeUnit.SECONDS);
        Label engines = robot.lookup("#status-engines").queryAs(Label.class);
        assertThat(engines.isVisible()).as("local alone: nothing more").isFalse();
        javafx.scene.control.Separator gap = new javafx.scene.control.Separator();

        java.util.List<String> lines = java.util.List.of(
                "far: up, Docker 27.3.1, 8 CPUs, 5.5 free; 15.6 GiB, 11.6 GiB free; 2 running",
                "lab: DOWN since 2026-12-08T00:10:00Z (Connection refused)");
        robot.interact(() -> StatusBarView.showEngines(lines, engines, gap));
        assertThat(engines.isVisible()).isTrue();
        assertThat(engines.getText()).isEqualTo("Other engines: 1 of 2 up");
        assertThat(engines.getStyleClass()).contains("pd-bad");
        assertThat(engines.getTooltip().getText()).isEqualTo(String.join("\n", lines));

        robot.interact(() -> StatusBarView.showEngines(lines.subList(0, 1), engines, gap));
        assertThat(engines.getText()).isEqualTo("Other engines: 1 of 1 up");
        assertThat(engines.getStyleClass()).contains("pd-ok").doesNotContain("pd-bad");
    }
}
