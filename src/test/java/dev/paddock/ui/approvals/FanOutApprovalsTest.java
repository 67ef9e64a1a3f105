package dev.paddock.ui.approvals;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.approval.Approval;
import dev.paddock.common.Json;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.TempRepo;
import dev.paddock.ui.common.ToastStack;
import dev.paddock.ui.shell.MainWindow;
import dev.paddock.ui.shell.ShellViewModel;
import dev.paddock.ui.theme.Theme;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.geometry.Rectangle2D;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TableRow;
import javafx.scene.text.Text;
import javafx.stage.PopupWindow;
import javafx.stage.Stage;
import javafx.stage.Window;
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
 * Three sandboxes of one fan-out ask the same command in the real panel at 1920×1080: each card says which of them
 * asks (the end of its id, its agent and branch), the sandboxes table shows each as running and waiting for approval
 * until its request is decided, and the deny-reason pop-over opens inside the window.
 */
@ExtendWith(ApplicationExtension.class)
class FanOutApprovalsTest {
    private static final String G = "describe-release-process-20261206-001";
    private static final String COMMAND = "git push origin HEAD";

    @TempDir
    Path temp;

    private Stage stage;
    private BrokerRig rig;
    private final List<SandboxRecord> sandboxes = new ArrayList<>();
    private final ShellViewModel vm = new ShellViewModel();

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @BeforeEach
    void startPanel() throws Exception {
        rig = BrokerRig.start(temp.resolve("home"));
        TempRepo repo = BrokerRig.repoWithPolicy(temp.resolve("project"));
        rig.approvalTimeout(120_000);
        for (int n = 1; n <= 3; n++) {
            sandboxes.add(rig.host()
                    .wiring()
                    .sandboxService()
                    .create(NewSandbox.custom(repo.dir(), "Describe the release process", "sleep 300")
                            .id(G + "-claude-" + n)
                            .group(G)
                            .branch("agent/describe-release-process-claude-" + n)
                            .maxRetries(0)
                            .build()));
        }
        for (SandboxRecord s : sandboxes) {
            BrokerRig.await(s.id() + " running", () -> {
                try {
                    return rig.host()
                                    .wiring()
                                    .sandboxes()
                                    .find(s.id())
                                    .orElseThrow()
                                    .state()
                            == SandboxState.RUNNING;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        WaitForAsyncUtils.asyncFx(() -> {
                    MainWindow window = new MainWindow(vm, Theme.LIGHT);
                    Scene scene = new Scene(window, 1920, 1080);
                    Theme.LIGHT.apply(scene);
                    window.installShortcuts(scene);
                    stage.setScene(scene);
                    stage.setX(0);
                    stage.setY(0);
                    stage.setWidth(1920);
                    stage.setHeight(1080);
                    stage.show();
                    stage.toFront();
                })
                .get(30, TimeUnit.SECONDS);
        vm.start(CompletableFuture.completedFuture(rig.host().panel()), repo.dir())
                .get(30, TimeUnit.SECONDS);
        WaitForAsyncUtils.waitFor(
                15,
                TimeUnit.SECONDS,
                () -> fx(() -> vm.dashboard().latestProperty().get() != null));
    }

    @AfterEach
    void closePanel() throws Exception {
        WaitForAsyncUtils.asyncFx(() -> List.copyOf(Window.getWindows()).forEach(Window::hide))
                .get(10, TimeUnit.SECONDS);
        vm.dashboard().close();
        rig.close();
    }

    @Test
    void eachCardSaysWhichSandboxAsksAndTheTableShowsItWaiting(FxRobot robot) throws Exception {
        List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        for (SandboxRecord s : sandboxes) {
            answers.add(ask(s));
        }
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> vm.dashboard().approvals().rows().size() == 3));
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(() -> vm.dashboard().sandboxes().size() == 3));

        // Their notifications never cover the queue where they are decided.
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> !fx(this::toasts).isEmpty());
        javafx.geometry.Bounds queue =
                fx(() -> list(robot).localToScreen(list(robot).getBoundsInLocal()));
        assertThat(fx(this::toasts))
                .as("the requests' notifications")
                .allSatisfy(t -> assertThat(t.intersects(queue))
                        .as(t + " over the queue " + queue)
                        .isFalse());

        for (int n = 1; n <= 3; n++) {
            String id = G + "-claude-" + n;
            Approval a = fx(() -> vm.dashboard().approvals().rows().stream()
                    .filter(x -> x.sandboxId().equals(id))
                    .findFirst()
                    .orElseThrow());
            Node cell = cell(robot, a.id());
            String tail = "claude-" + n;
            WaitForAsyncUtils.waitFor(
                    5, TimeUnit.SECONDS, () -> fx(() -> labels(cell).contains(tail)));
            assertThat(fx(() -> labels(cell)))
                    .as("the card of " + id)
                    .contains(tail)
                    .anySatisfy(t -> assertThat(t).contains("agent/describe-release-process-" + tail));
            Label sandbox = fx(() -> (Label) cell.lookup(".pd-approval-sandbox"));
            assertThat(fx(() -> drawn(sandbox))).as("the id drawn in the card").endsWith("-" + tail);

            // The table: running, and waiting for this request.
            TableRow<?> row = tableRow(robot, id);
            WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(() -> row.lookup(".pd-asking") != null));
            Label asking = fx(() -> (Label) row.lookup(".pd-asking"));
            assertThat(fx(asking::getText)).isEqualTo("waiting for approval");
            assertThat(fx(() -> ((javafx.scene.control.TableCell<?, ?>) asking.getParent())
                            .getTooltip()
                            .getText()))
                    .startsWith("State: running. Its agent is blocked until someone decides its request")
                    .contains("Bash " + COMMAND);
        }

        // The deny-reason pop-over, from the first card's button: whole inside the window.
        Approval first = fx(() -> vm.dashboard().approvals().rows().get(0));
        // The details pane's header says so too, beside the state, while the request waits.
        robot.clickOn(tableRow(robot, first.sandboxId()));
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup("#sandbox-details-asking")
                        .tryQuery()
                        .filter(Node::isVisible)
                        .isPresent()));
        assertThat(fx(() -> robot.lookup("#sandbox-details-asking")
                        .queryAs(Label.class)
                        .getText()))
                .isEqualTo("waiting for approval");
        Node firstCell = cell(robot, first.id());
        Node reasonButton = fx(() -> firstCell.lookup("#" + ApprovalCell.DENY_REASON));
        robot.clickOn(reasonButton);
        WaitForAsyncUtils.waitFor(
                5,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup("#" + DenyReasonPopOver.FIELD_ID)
                        .tryQuery()
                        .isPresent()));
        Window pop = fx(() -> robot.lookup("#" + DenyReasonPopOver.FIELD_ID)
                .query()
                .getScene()
                .getWindow());
        assertThat(pop).isInstanceOf(PopupWindow.class);
        Rectangle2D window = fx(() -> new Rectangle2D(stage.getX(), stage.getY(), stage.getWidth(), stage.getHeight()));
        Node field = robot.lookup("#" + DenyReasonPopOver.FIELD_ID).query();
        javafx.geometry.Bounds box = fx(() -> field.getParent()
                .getParent()
                .localToScreen(field.getParent().getParent().getBoundsInLocal()));
        assertThat(window.contains(box.getMinX(), box.getMinY()) && window.contains(box.getMaxX(), box.getMaxY()))
                .as("the pop-over's content " + box + " inside the window " + window)
                .isTrue();
        robot.interact(() -> ((PopupWindow) pop).hide());

        // Decided: its sandbox no longer waits.
        rig.call("POST", "/v1/approvals/" + first.id() + "/approve", "{\"by\": \"ann\"}", rig.installToken());
        assertThat(BrokerRig.json(answers.get(sandboxes.indexOf(sandboxes.stream()
                                        .filter(s -> s.id().equals(first.sandboxId()))
                                        .findFirst()
                                        .orElseThrow()))
                                .get(15, TimeUnit.SECONDS))
                        .get("decision")
                        .asText())
                .isEqualTo("allow");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> {
            TableRow<?> row = tableRow(robot, first.sandboxId());
            return fx(() -> row.lookup(".pd-asking") == null);
        });
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(
                        () -> robot.lookup("#sandbox-details-asking").tryQuery().isEmpty()));
    }

    private CompletableFuture<HttpResponse<String>> ask(SandboxRecord s) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                ObjectNode n = Json.mapper().createObjectNode();
                n.put("tool", "Bash");
                n.putObject("input").put("command", COMMAND);
                n.put("cwd", s.workspace().worktree().toString());
                n.put("sessionId", "session-" + s.id());
                return rig.call("POST", "/v1/decide", n.toString(), rig.tokenOf(s.id()));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private List<javafx.geometry.Bounds> toasts() {
        return Window.getWindows().stream()
                .filter(w -> w instanceof javafx.stage.Popup p
                        && p.isShowing()
                        && p.getContent().stream()
                                .anyMatch(n -> n.getStyleClass().contains(ToastStack.STYLE)))
                .map(w -> (javafx.geometry.Bounds)
                        new javafx.geometry.BoundingBox(w.getX(), w.getY(), w.getWidth(), w.getHeight()))
                .toList();
    }

    private static List<String> labels(Node cell) {
        return cell.lookupAll(".label").stream()
                .filter(l -> l instanceof Label && ((Label) l).getText() != null && ((Label) l).isVisible())
                .map(l -> ((Label) l).getText())
                .toList();
    }

    private static String drawn(Label l) {
        for (Node n : l.getChildrenUnmodifiable()) {
            if (n instanceof Text t) {
                return t.getText();
            }
        }
        return "";
    }

    private static Node cell(FxRobot robot, long id) throws Exception {
        java.util.function.Predicate<Node> showsIt = n -> n instanceof ApprovalCell c
                && c.getItem() != null
                && c.getItem().id() == id
                && c.isVisible()
                && c.getGraphic() != null;
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(
                        () -> robot.from(list(robot)).lookup(showsIt).tryQuery().isPresent()));
        return fx(() -> robot.from(list(robot)).lookup(showsIt).query());
    }

    private static Node list(FxRobot robot) {
        return robot.lookup("#" + ApprovalsView.LIST_ID).queryAs(ListView.class);
    }

    private static TableRow<?> tableRow(FxRobot robot, String id) throws Exception {
        java.util.function.Predicate<Node> showsIt = n -> n instanceof TableRow<?> r
                && r.getItem() instanceof dev.paddock.status.RepositoryStatus.Sandbox s
                && s.id().equals(id)
                && n.isVisible();
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup(showsIt).tryQuery().isPresent()));
        return fx(() -> (TableRow<?>) robot.lookup(showsIt).query());
    }

    private static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(10, TimeUnit.SECONDS);
    }
}
