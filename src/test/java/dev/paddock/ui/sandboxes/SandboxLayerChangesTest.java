package dev.paddock.ui.sandboxes;

import static dev.paddock.ui.sandboxes.Panel.fx;
import static dev.paddock.ui.sandboxes.Panel.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.layer.LayerChange;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.Tier;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The Changes tab names what a namespace sandbox changed in its repository's shared layer (a folder git ignores, so
 * never in the diff): a real Paddock, a real bubblewrap run writing through the overlay.
 */
@ExtendWith(ApplicationExtension.class)
class SandboxLayerChangesTest {
    @TempDir
    Path temp;

    private Stage stage;
    private Panel panel;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @BeforeEach
    void startPaddock() throws Exception {
        panel = Panel.start(temp, stage);
        panel.repo.excludeWorktreesDir();
        panel.repo.commitFile(".gitignore", "node_modules/\n", "Ignore the dependencies");
        panel.repo.write("node_modules/pkg/a.txt", "shared a\n");
        panel.repo.write("node_modules/pkg/b.txt", "shared b\n");
    }

    @AfterEach
    void closePanel() throws Exception {
        panel.close();
    }

    @Test
    void theChangesTabNamesWhatTheSandboxChangedInTheSharedLayer(FxRobot robot) throws Exception {
        panel.host.wiring().layers().configure(panel.repo.dir(), List.of("node_modules"), null);
        panel.host.wiring().layers().refresh(panel.repo.dir(), step -> {});
        SandboxRecord s = panel.host
                .wiring()
                .sandboxService()
                .create(NewSandbox.custom(
                                panel.repo.dir(),
                                "Patch a dependency",
                                "echo mine > node_modules/pkg/a.txt && rm node_modules/pkg/b.txt"
                                        + " && echo notes > notes.txt && echo DONE")
                        .tier(Tier.NAMESPACE)
                        .leaseMs(60_000L)
                        .maxRetries(0)
                        .build());
        panel.show();
        panel.waitForState(s.id(), "done", 60);
        assertThat(panel.host.panel().sandboxes().layerChanges(s.id()))
                .containsExactly(
                        new LayerChange("node_modules/pkg/a.txt", LayerChange.Kind.MODIFIED),
                        new LayerChange("node_modules/pkg/b.txt", LayerChange.Kind.DELETED));

        panel.select(robot, s.id());
        robot.clickOn("Changes");
        ChangesPane changes = node(robot, "#" + ChangesPane.ID, ChangesPane.class);
        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> fx(() -> changes.lookup("#" + ChangesPane.LAYERS_ID) instanceof Label l && l.isVisible()));
        Label line = fx(() -> (Label) changes.lookup("#" + ChangesPane.LAYERS_ID));
        assertThat(fx(line::getText))
                .isEqualTo("In shared layers (not in the diff): 2 changes — modified node_modules/pkg/a.txt,"
                        + " deleted node_modules/pkg/b.txt");
        assertThat(fx(() -> line.getTooltip().getText()))
                .isEqualTo("modified  node_modules/pkg/a.txt\ndeleted  node_modules/pkg/b.txt");
        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> fx(() -> changes.diff() != null && changes.diff().files().size() == 1));
        assertThat(fx(() -> changes.diff().files().get(0).path()))
                .as("the diff: git's side alone")
                .isEqualTo("notes.txt");
    }

    @Test
    void theLineSaysHowManyMoreThanItNames() {
        assertThat(ChangesPane.summary(List.of())).isEmpty();
        assertThat(ChangesPane.summary(List.of(
                        new LayerChange("node_modules/a", LayerChange.Kind.ADDED),
                        new LayerChange("node_modules/b", LayerChange.Kind.ADDED),
                        new LayerChange("node_modules/c", LayerChange.Kind.REPLACED),
                        new LayerChange("node_modules/d", LayerChange.Kind.DELETED),
                        new LayerChange("node_modules/e", LayerChange.Kind.MODIFIED))))
                .isEqualTo("In shared layers (not in the diff): 5 changes — added node_modules/a, added node_modules/b,"
                        + " replaced node_modules/c, and 2 more");
    }
}
