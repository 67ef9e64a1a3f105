package dev.paddock.ui.sandboxes;

import static dev.paddock.ui.sandboxes.Panel.fx;
import static dev.paddock.ui.sandboxes.Panel.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.testing.FakeGh;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The panel's Push and Open pull request actions on a real repository with a bare remote: the details header's
 * button, the keys, what the person is told. gh is a fake script on the Paddock's PATH (the real one needs GitHub).
 */
@ExtendWith(ApplicationExtension.class)
class PublishActionsTest {
    @TempDir
    Path temp;

    private Stage stage;
    private Panel panel;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @AfterEach
    void closePanel() throws Exception {
        if (panel != null) {
            panel.close();
        }
    }

    /** A panel whose Paddock looks programs up in {@code bin} first. */
    private Panel start(Path bin) throws Exception {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("PATH", bin + ":" + System.getenv("PATH"));
        panel = Panel.start(temp, stage, env);
        return panel;
    }

    /** A picture of the panel when PADDOCK_SHOTS names a folder (to judge the layout). */
    private void shoot(String name) throws Exception {
        String dir = System.getenv("PADDOCK_SHOTS");
        if (dir == null) {
            return;
        }
        javafx.scene.image.WritableImage img = fx(() -> stage.getScene().snapshot(null));
        int width = (int) img.getWidth();
        int height = (int) img.getHeight();
        int[] argb = new int[width * height];
        img.getPixelReader()
                .getPixels(0, 0, width, height, javafx.scene.image.PixelFormat.getIntArgbInstance(), argb, 0, width);
        java.awt.image.BufferedImage b =
                new java.awt.image.BufferedImage(width, height, java.awt.image.BufferedImage.TYPE_INT_ARGB);
        b.setRGB(0, 0, width, height, argb, 0, width);
        javax.imageio.ImageIO.write(
                b, "png", Path.of(dir).resolve(name + ".png").toFile());
    }

    private Label status(FxRobot robot) throws Exception {
        return node(robot, "#sandbox-action-status", Label.class);
    }

    @Test
    void pushPutsTheBranchOnTheRemoteAndTheKeyOpensAPullRequest(FxRobot robot) throws Exception {
        Path bin = Files.createDirectories(temp.resolve("bin"));
        Path record = temp.resolve("gh-args");
        FakeGh.install(bin, FakeGh.recording(record));
        start(bin);
        Path bare = TempRepo.initBare(temp.resolve("origin.git"), false);
        panel.repo.git("remote", "add", "origin", bare.toString());
        SandboxRecord s = panel.create("Wait for a push", "sleep 300");
        panel.show(1366, 768);
        panel.waitForState(s.id(), "running", 20);
        panel.select(robot, s.id());

        robot.clickOn("#sandbox-push");

        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> fx(() -> status(robot).getText() != null
                        && status(robot)
                                .getText()
                                .equals("Pushed " + s.workspace().branch() + " to origin.")));
        assertThat(TempRepo.open(bare)
                        .git(
                                "ls-remote",
                                bare.toString(),
                                "refs/heads/" + s.workspace().branch()))
                .startsWith(panel.repo.head());
        shoot("publish-pushed-1366x768");

        robot.press(KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.O).release(KeyCode.O, KeyCode.SHIFT, KeyCode.CONTROL);

        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> fx(() -> status(robot).getText() != null
                        && status(robot).getText().endsWith("Pull request: " + FakeGh.URL)));
        assertThat(Files.readString(record)).contains("--title=Wait for a push\n--\n");
    }

    @Test
    void withoutGhThePersonIsToldWhatToInstall(FxRobot robot) throws Exception {
        start(Files.createDirectories(temp.resolve("empty-bin")));
        Path bare = TempRepo.initBare(temp.resolve("origin.git"), false);
        panel.repo.git("remote", "add", "origin", bare.toString());
        SandboxRecord s = panel.create("Wait for a pull request", "sleep 300");
        panel.show();
        panel.waitForState(s.id(), "running", 20);
        panel.select(robot, s.id());

        robot.clickOn("#sandbox-pull-request");

        Node box = robot.lookup("#sandbox-action-error").query();
        Label message = node(robot, "#sandbox-action-error .pd-error-message", Label.class);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> fx(box::isVisible));
        assertThat(fx(message::getText))
                .isEqualTo("Cannot open a pull request for " + s.id()
                        + ": gh is not installed: install the GitHub CLI and run gh auth login");
    }
}
