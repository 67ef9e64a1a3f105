package dev.paddock.ui.approvals;

import static dev.paddock.testing.BrokerRig.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.approval.Approval;
import dev.paddock.approval.ApprovalState;
import dev.paddock.common.Json;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.TempRepo;
import dev.paddock.ui.shell.MainWindow;
import dev.paddock.ui.shell.ShellViewModel;
import dev.paddock.ui.theme.Theme;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
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
 * The approval queue of the real panel against a real running Paddock ({@link BrokerRig}: store, broker,
 * API), a real repository with a policy file (ask {@code Bash(git push:*)}, unlisted commands ask) and a
 * real running agent ({@code sleep 300}); requests are real {@code POST /v1/decide} calls that wait for the
 * panel's answer.
 */
@ExtendWith(ApplicationExtension.class)
class ApprovalsViewTest {
    private static final String WHO = System.getProperty("user.name", "someone") + " in the panel";

    @TempDir
    Path temp;

    private Stage stage;
    private BrokerRig rig;
    private TempRepo repo;
    private SandboxRecord sandbox;
    private final ShellViewModel vm = new ShellViewModel();

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @BeforeEach
    void startPanel() throws Exception {
        rig = BrokerRig.start(temp.resolve("home"));
        repo = BrokerRig.repoWithPolicy(temp.resolve("project"));
        rig.approvalTimeout(120_000);
        sandbox = rig.runningSandbox(repo, "Ship it");
        WaitForAsyncUtils.asyncFx(() -> {
                    MainWindow window = new MainWindow(vm, Theme.LIGHT);
                    Scene scene = new Scene(window, 1280, 800);
                    Theme.LIGHT.apply(scene);
                    window.installShortcuts(scene);
                    stage.setScene(scene);
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
        WaitForAsyncUtils.asyncFx(() -> {
                    for (Window w : List.copyOf(Window.getWindows())) {
                        w.hide();
                    }
                })
                .get(10, TimeUnit.SECONDS);
        vm.dashboard().close();
        rig.close();
    }

    @Test
    void aCommandOf100KbShowsWholeInTheQueueAndKeyAApprovesIt(FxRobot robot) throws Exception {
        String command = "git push origin " + "refs/heads/a-long-topic-name:".repeat(100 * 1024 / 29) + "main";
        CompletableFuture<HttpResponse<String>> answer = ask(command);
        Approval a = awaitRow(command);

        Node cell = cell(robot, a.id());
        assertThat(robot.from(cell)
                        .lookup("." + CommandText.STYLE)
                        .queryAs(TextArea.class)
                        .getText())
                .isEqualTo(command);
        clickIn(robot, a.id(), ".pd-approval-sandbox");
        robot.type(KeyCode.A);

        JsonNode decided = json(answer.get(15, TimeUnit.SECONDS));
        assertThat(decided.get("decision").asText()).isEqualTo("allow");
        awaitNoRows();
        assertThat(note(robot)).startsWith("Approved #" + a.id() + " (git push origin refs/heads/a-long-topic-name");
        Approval stored = rig.host().wiring().approvals().find(a.id()).orElseThrow();
        assertThat(stored.request()).isEqualTo(command);
        assertThat(stored.state()).isEqualTo(ApprovalState.APPROVED);
    }

    @Test
    void aRequestShowsWithItsCommandAndRuleAndKeyAApprovesIt(FxRobot robot) throws Exception {
        CompletableFuture<HttpResponse<String>> answer = ask("git push origin main");
        Approval a = awaitRow("git push origin main");

        Node cell = cell(robot, a.id());
        assertThat(robot.from(cell)
                        .lookup("." + CommandText.STYLE)
                        .queryAs(TextArea.class)
                        .getText())
                .isEqualTo("git push origin main");
        assertThat(texts(robot, cell))
                .contains(sandbox.id(), "Bash", "asked by Bash(git push:*)", a.cwd())
                .anyMatch(t -> t.startsWith("denied in 1:5") || t.startsWith("denied in 2:00"));
        assertThat(badge(robot)).isEqualTo("1");
        java.util.function.Predicate<Node> notification = n -> n.getStyleClass().contains(ApprovalNotifier.STYLE);
        WaitForAsyncUtils.waitFor(
                5, TimeUnit.SECONDS, () -> robot.lookup(notification).tryQuery().isPresent());

        clickIn(robot, a.id(), ".pd-approval-sandbox");
        robot.type(KeyCode.A);

        JsonNode decided = json(answer.get(15, TimeUnit.SECONDS));
        assertThat(decided.get("decision").asText()).isEqualTo("allow");
        assertThat(decided.get("reason").asText()).isEqualTo("approved by " + WHO);
        awaitNoRows();
        assertThat(note(robot)).startsWith("Approved #" + a.id() + " (git push origin main)");
        assertThat(fx(() -> List.copyOf(
                        robot.lookup("#" + ApprovalsView.NOTE_ID).query().getStyleClass())))
                .contains(ApprovalsView.NOTE_SUCCESS)
                .doesNotContain(ApprovalsView.NOTE_ERROR);
        assertThat(fx(() -> robot.lookup("#approval-error").query().isVisible()))
                .isFalse();
    }

    @Test
    void theDenyButtonDeniesWithTheDefaultReasonAndKeyDWithNone(FxRobot robot) throws Exception {
        CompletableFuture<HttpResponse<String>> first = ask("make deploy");
        Approval a = awaitRow("make deploy");
        assertThat(texts(robot, cell(robot, a.id()))).contains("no rule matched: unlisted commands ask");

        clickIn(robot, a.id(), "#" + ApprovalCell.DENY);

        JsonNode denied = json(first.get(15, TimeUnit.SECONDS));
        assertThat(denied.get("decision").asText()).isEqualTo("deny");
        assertThat(denied.get("reason").asText()).isEqualTo("denied by " + WHO);
        awaitNoRows();
        // A denial is no success: the note says so in the error colours, with a "blocked" icon, not a check mark.
        assertThat(note(robot)).startsWith("Denied #" + a.id() + " (make deploy)");
        Label shown = robot.lookup("#" + ApprovalsView.NOTE_ID).queryAs(Label.class);
        assertThat(fx(() -> List.copyOf(shown.getStyleClass())))
                .contains(ApprovalsView.NOTE_ERROR)
                .doesNotContain(ApprovalsView.NOTE_SUCCESS);
        assertThat(fx(() -> ((org.kordamp.ikonli.javafx.FontIcon) shown.getGraphic()).getIconCode()))
                .isEqualTo(org.kordamp.ikonli.materialdesign2.MaterialDesignC.CANCEL);
        assertThat(rig.host().wiring().approvals().find(a.id()).orElseThrow().state())
                .isEqualTo(ApprovalState.DENIED);
    }

    @Test
    void shiftDAsksForAReasonThatTheAgentReads(FxRobot robot) throws Exception {
        CompletableFuture<HttpResponse<String>> answer = ask("git push --force origin main");
        Approval a = awaitRow("git push --force origin main");
        clickIn(robot, a.id(), ".pd-approval-sandbox");

        robot.press(KeyCode.SHIFT, KeyCode.D).release(KeyCode.D, KeyCode.SHIFT);
        TextField reason = waitFor(robot, "#" + DenyReasonPopOver.FIELD_ID, TextField.class);
        // Typing in the reason field must not approve or deny anything by itself: a and d are letters here.
        robot.clickOn(reason).write("no force pushes, add a commit instead");
        assertThat(answer).isNotDone();
        robot.type(KeyCode.ENTER);

        JsonNode denied = json(answer.get(15, TimeUnit.SECONDS));
        assertThat(denied.get("decision").asText()).isEqualTo("deny");
        assertThat(denied.get("reason").asText())
                .isEqualTo("denied by " + WHO + ": no force pushes, add a commit instead");
        awaitNoRows();
    }

    @Test
    void approveAndAlwaysAllowWritesTheRuleToTheRepositoryPolicy(FxRobot robot) throws Exception {
        CompletableFuture<HttpResponse<String>> answer = ask("npm run test -- --watch");
        Approval a = awaitRow("npm run test -- --watch");

        clickIn(robot, a.id(), "#" + ApprovalCell.ALLOW);

        assertThat(json(answer.get(15, TimeUnit.SECONDS)).get("decision").asText())
                .isEqualTo("allow");
        Path policy = repo.dir().resolve(".paddock/policy.json");
        JsonNode written = Json.mapper().readTree(Files.readString(policy));
        assertThat(written.get("permissions").get("allow").toString()).contains("Bash(npm run test:*)");
        assertThat(written.get("note").asText()).isEqualTo("keep me");
        awaitNoRows();
        assertThat(note(robot)).contains("Bash(npm run test:*)").contains(policy.toString());
        // From now on the policy allows it at once: nothing new in the queue.
        JsonNode again = json(
                rig.call("POST", "/v1/decide", body("npm run test -- --ci").toString(), rig.tokenOf(sandbox.id())));
        assertThat(again.get("decision").asText()).isEqualTo("allow");
        assertThat(again.get("rule").asText()).isEqualTo("Bash(npm run test:*)");
    }

    @Test
    void alwaysAllowingARequestItsOwnAskRuleDecidesRemovesThatRuleAndNamesTheRuleThatDecidesNow(FxRobot robot)
            throws Exception {
        CompletableFuture<HttpResponse<String>> answer = ask("git push origin main");
        Approval a = awaitRow("git push origin main");

        clickIn(robot, a.id(), "#" + ApprovalCell.ALLOW);

        assertThat(json(answer.get(15, TimeUnit.SECONDS)).get("decision").asText())
                .isEqualTo("allow");
        Path policy = repo.dir().resolve(".paddock/policy.json");
        awaitNoRows();
        assertThat(note(robot))
                .isEqualTo("Approved #" + a.id() + " (git push origin main). From now on the allow rule"
                        + " Bash(git push:*) from " + policy
                        + " allows such requests; the ask rule Bash(git push:*) from "
                        + policy + " that asked about them was removed.");
        // The same request again is allowed at once: nothing new in the queue.
        JsonNode again = json(
                rig.call("POST", "/v1/decide", body("git push origin main").toString(), rig.tokenOf(sandbox.id())));
        assertThat(again.get("decision").asText()).isEqualTo("allow");
        assertThat(again.get("rule").asText()).isEqualTo("Bash(git push:*)");
    }

    @Test
    void alwaysAllowingARequestABroaderAskRuleDecidesSaysWhichRuleAndLeavesItWaiting(FxRobot robot) throws Exception {
        Path policy = repo.dir().resolve(".paddock/policy.json");
        Files.writeString(policy, "{\"permissions\": {\"ask\": [\"Bash(git:*)\"]}}");
        CompletableFuture<HttpResponse<String>> answer = ask("git fetch origin");
        Approval a = awaitRow("git fetch origin");

        clickIn(robot, a.id(), "#" + ApprovalCell.ALLOW);

        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup("#approval-error").query().isVisible()));
        assertThat(fx(() -> robot.lookup("#approval-error .pd-error-message")
                        .queryAs(Label.class)
                        .getText()))
                .startsWith("Cannot allow #" + a.id() + " (git fetch origin): No allow rule written: the ask rule"
                        + " Bash(git:*) from " + policy + " would still ask about this request");
        assertThat(Files.readString(policy)).isEqualTo("{\"permissions\": {\"ask\": [\"Bash(git:*)\"]}}");
        assertThat(answer).isNotDone();
        assertThat(fx(() -> vm.dashboard().approvals().rows().stream().anyMatch(x -> x.id() == a.id())))
                .isTrue();
    }

    @Test
    void atMostThreeToastsShowInsideTheWindowWithASummaryAndEachLeavesWhenItsRequestIsDecided(FxRobot robot)
            throws Exception {
        List<String> commands = List.of(
                "git push origin one",
                "git push origin two",
                "git push origin three",
                "git push origin four",
                "git push origin five");
        List<CompletableFuture<HttpResponse<String>>> answers = new java.util.ArrayList<>();
        for (String c : commands) {
            answers.add(ask(c));
            awaitRow(c);
        }
        java.util.function.Predicate<Node> toast = n -> n.getStyleClass().contains(ApprovalNotifier.STYLE)
                && n.getScene() != null
                && n.getScene().getWindow() != null
                && n.getScene().getWindow().isShowing();
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup(toast).queryAll().size() == 3));
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup((Label l) -> "2 more waiting".equals(l.getText())
                                && l.getScene() != null
                                && l.getScene().getWindow().isShowing())
                        .tryQuery()
                        .isPresent()));
        // Inside the panel's window, not over its edge.
        javafx.geometry.Rectangle2D window = fx(
                () -> new javafx.geometry.Rectangle2D(stage.getX(), stage.getY(), stage.getWidth(), stage.getHeight()));
        for (Node n : fx(() -> List.<Node>copyOf(robot.lookup(toast).queryAll()))) {
            javafx.geometry.Bounds b = fx(() -> n.localToScreen(n.getBoundsInLocal()));
            assertThat(window.contains(b.getMinX(), b.getMinY()) && window.contains(b.getMaxX(), b.getMaxY()))
                    .as("toast at " + b + " inside the window " + window)
                    .isTrue();
            // Its title and text drawn whole (a cut label draws an ellipsis instead of its text).
            for (Node l : fx(() -> List.copyOf(n.lookupAll(".label")))) {
                String drawn = fx(() -> ((Label) l)
                        .getChildrenUnmodifiable().stream()
                                .filter(c -> c instanceof javafx.scene.text.Text)
                                .map(c -> ((javafx.scene.text.Text) c).getText())
                                .collect(java.util.stream.Collectors.joining()));
                assertThat(drawn.replace("\n", " ")).as("a toast's label").isEqualTo(fx(((Label) l)::getText));
            }
        }
        // Decided elsewhere: its toast goes at once, and one counted in the summary comes off the count.
        Approval first = awaitRow(commands.get(0));
        Approval last = awaitRow(commands.get(4));
        rig.call("POST", "/v1/approvals/" + first.id() + "/approve", "{\"by\": \"ann\"}", rig.installToken());
        rig.call("POST", "/v1/approvals/" + last.id() + "/deny", "{\"by\": \"ann\"}", rig.installToken());
        WaitForAsyncUtils.waitFor(
                5,
                TimeUnit.SECONDS,
                () -> fx(() ->
                        robot.lookup(toast).queryAll().stream().noneMatch(n -> texts(n).contains(commands.get(0)))));
        WaitForAsyncUtils.waitFor(
                5,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup((Label l) -> "1 more waiting".equals(l.getText())
                                && l.getScene() != null
                                && l.getScene().getWindow().isShowing())
                        .tryQuery()
                        .isPresent()));
        assertThat(fx(() -> robot.lookup(toast).queryAll().size())).isEqualTo(2);
        assertThat(json(answers.get(0).get(15, TimeUnit.SECONDS))
                        .get("decision")
                        .asText())
                .isEqualTo("allow");
    }

    /**
     * Three pending requests in the window at the sizes of common screens (the window resized after the cards
     * were first laid out, as when it is maximised), with the side pane at every width from 360 to 480 px: no
     * card's content or buttons pass its end, no two cards overlap, the first card's top shows, and every button
     * of a card shown whole lies inside the list's visible area.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0} x {1}")
    @org.junit.jupiter.params.provider.CsvSource({"1366, 768", "1440, 900", "1920, 1080"})
    void cardsShowWholeWithoutOverlapAtCommonWindowSizes(int width, int height, FxRobot robot) throws Exception {
        List<String> commands = List.of(
                "git push origin HEAD:refs/heads/feature-1",
                "git push origin HEAD:refs/heads/feature-2",
                "git push origin HEAD:refs/heads/feature-3");
        for (String c : commands) {
            ask(c);
            awaitRow(c);
        }
        ListView<?> list = waitFor(robot, "#" + ApprovalsView.LIST_ID, ListView.class);
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> list.lookupAll(".pd-approval-cell").stream()
                                .filter(n -> n instanceof ApprovalCell c && c.getItem() != null && c.isVisible())
                                .count()
                        >= 2));
        // First at another size (a narrower list wraps the buttons to two rows, a wider one does not), then at this.
        for (int[] size :
                new int[][] {width < 1920 ? new int[] {1920, 1080} : new int[] {1366, 768}, {width, height}}) {
            WaitForAsyncUtils.asyncFx(() -> {
                        stage.setWidth(size[0]);
                        stage.setHeight(size[1]);
                    })
                    .get(10, TimeUnit.SECONDS);
            WaitForAsyncUtils.waitForFxEvents();
            WaitForAsyncUtils.sleep(300, TimeUnit.MILLISECONDS);
            WaitForAsyncUtils.waitForFxEvents();
        }

        List<String> problems = new java.util.ArrayList<>(overlaps(list));
        // The side pane keeps the width it had (or the one a person gave it): every width it may have, from its
        // least to a wide one, in steps of 3 px (the buttons wrap to a second row below some width).
        javafx.scene.control.SplitPane upper = fx(() -> {
            Node n = robot.lookup("#approvals-pane").query();
            while (!(n instanceof javafx.scene.control.SplitPane)) {
                n = n.getParent();
            }
            return (javafx.scene.control.SplitPane) n;
        });
        for (double side = 360; side <= 480; side += 3) {
            double w = side;
            WaitForAsyncUtils.asyncFx(() -> upper.setDividerPositions(1 - w / upper.getWidth()))
                    .get(10, TimeUnit.SECONDS);
            WaitForAsyncUtils.waitForFxEvents();
            problems.addAll(overlaps(list));
        }
        assertThat(problems).as("at " + width + " x " + height).isEmpty();
    }

    @Test
    void requestsWaitingInOtherRepositoriesSayWhichRepository(FxRobot robot) throws Exception {
        TempRepo docs = BrokerRig.repoWithPolicy(temp.resolve("docs-site"));
        SandboxRecord other = rig.runningSandbox(docs, "Publish the docs");
        ObjectNode n = Json.mapper().createObjectNode();
        n.put("tool", "Bash");
        n.putObject("input").put("command", "git push origin docs");
        n.put("cwd", other.workspace().worktree().toString());
        CompletableFuture<HttpResponse<String>> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return rig.call("POST", "/v1/decide", n.toString(), rig.tokenOf(other.id()));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Label elsewhere = waitFor(robot, "#" + ApprovalsView.ELSEWHERE_ID, Label.class);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(elsewhere::isVisible));
        assertThat(fx(elsewhere::getText)).isEqualTo("1 more request waits in docs-site.");
        assertThat(waiting).isNotDone();
    }

    private static List<String> overlaps(ListView<?> list) throws Exception {
        return fx(() -> {
            List<String> out = new java.util.ArrayList<>();
            Node clip = list.lookup(".clipped-container");
            javafx.geometry.Bounds view = clip.localToScene(clip.getLayoutBounds());
            List<ApprovalCell> cells = list.lookupAll(".pd-approval-cell").stream()
                    .filter(n -> n instanceof ApprovalCell c && c.getItem() != null && c.isVisible())
                    .map(n -> (ApprovalCell) n)
                    .toList();
            for (ApprovalCell c : cells) {
                javafx.geometry.Bounds b = c.localToScene(c.getLayoutBounds());
                // The card proper: its content (the graphic), its own bounds included.
                javafx.geometry.Bounds content =
                        c.getGraphic().localToScene(c.getGraphic().getBoundsInLocal());
                if (content.getMaxY() > b.getMaxY() + 0.5) {
                    out.add("list " + list.getWidth() + " px wide: #"
                            + c.getItem().id() + ": its content reaches " + content.getMaxY()
                            + " past the card's end at " + b.getMaxY());
                }
                for (ApprovalCell o : cells) {
                    javafx.geometry.Bounds ob = o.localToScene(o.getLayoutBounds());
                    if (o != c
                            && c.getIndex() < o.getIndex()
                            && b.getMaxY() > ob.getMinY() + 0.5
                            && ob.getMaxY() > b.getMinY() + 0.5) {
                        out.add("list " + list.getWidth() + " px wide: #"
                                + c.getItem().id() + " " + b + " overlaps #"
                                + o.getItem().id() + " " + ob);
                    }
                }
                boolean headShows = b.getMinY() >= view.getMinY() - 0.5;
                if (c.getIndex() == 0 && !headShows) {
                    out.add("list " + list.getWidth() + " px wide: the first card's top " + b.getMinY()
                            + " is above the list's top " + view.getMinY());
                }
                for (String id : List.of(
                        ApprovalCell.APPROVE, ApprovalCell.DENY, ApprovalCell.DENY_REASON, ApprovalCell.ALLOW)) {
                    Node button = c.lookup("#" + id);
                    javafx.geometry.Bounds bb = button.localToScene(button.getLayoutBounds());
                    if (bb.getMaxY() > b.getMaxY() + 0.5) {
                        out.add("list " + list.getWidth() + " px wide: #"
                                + c.getItem().id() + ": " + id + " ends at " + bb.getMaxY() + ", below its card's end "
                                + b.getMaxY());
                    }
                    if (b.getMaxY() <= view.getMaxY()
                            && !(bb.getMinY() >= view.getMinY() - 0.5 && bb.getMaxY() <= view.getMaxY() + 0.5)) {
                        out.add("list " + list.getWidth() + " px wide: #"
                                + c.getItem().id() + ": " + id + " at " + bb + " outside the list's view " + view);
                    }
                }
            }
            return out;
        });
    }

    private static String texts(Node n) {
        return n.lookupAll(".label").stream()
                .filter(l -> l instanceof Label)
                .map(l -> ((Label) l).getText())
                .filter(java.util.Objects::nonNull)
                .collect(java.util.stream.Collectors.joining("\n"));
    }

    /**
     * End to end as Claude Code runs it: the hook script Paddock wrote (a real process fed a real PreToolUse
     * payload) waits on an ask until a person clicks Approve in the panel, then prints the allow and exits 0.
     */
    @Test
    void theClaudeHookWaitsForAClickOnApprove(FxRobot robot) throws Exception {
        CompletableFuture<HookRun> hook = claudeHook("git push origin feature/login");
        Approval a = awaitRow("git push origin feature/login");
        assertThat(hook).isNotDone();

        clickIn(robot, a.id(), "#" + ApprovalCell.APPROVE);

        HookRun r = hook.get(30, TimeUnit.SECONDS);
        assertThat(r.exit()).as(r.toString()).isZero();
        JsonNode out = Json.mapper().readTree(r.out()).get("hookSpecificOutput");
        assertThat(out.get("hookEventName").asText()).isEqualTo("PreToolUse");
        assertThat(out.get("permissionDecision").asText()).isEqualTo("allow");
        assertThat(out.get("permissionDecisionReason").asText()).contains("approved by " + WHO);
        awaitNoRows();
        assertThat(rig.host().wiring().approvals().find(a.id()).orElseThrow().state())
                .isEqualTo(ApprovalState.APPROVED);
    }

    /** An ask nobody answers: the hook denies with exit 2 once the approval timeout passes, and the row leaves. */
    @Test
    void theClaudeHookDeniesWhenNobodyAnswersInTime(FxRobot robot) throws Exception {
        rig.approvalTimeout(2_000);
        CompletableFuture<HookRun> hook = claudeHook("git push origin main --tags");

        HookRun r = hook.get(30, TimeUnit.SECONDS);
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        JsonNode out = Json.mapper().readTree(r.out()).get("hookSpecificOutput");
        assertThat(out.get("permissionDecision").asText()).isEqualTo("deny");
        assertThat(r.err()).isNotBlank();
        awaitNoRows();
        assertThat(rig.host().wiring().approvals().list(ApprovalState.EXPIRED, 10))
                .extracting(Approval::request)
                .containsExactly("git push origin main --tags");
    }

    @Test
    void aRequestDecidedElsewhereDisappearsAndAStaleClickSaysSo(FxRobot robot) throws Exception {
        CompletableFuture<HttpResponse<String>> viaApi = ask("git push origin release");
        CompletableFuture<HttpResponse<String>> other = ask("make release");
        Approval decidedElsewhere = awaitRow("git push origin release");
        awaitRow("make release");

        HttpResponse<String> r = rig.call(
                "POST", "/v1/approvals/" + decidedElsewhere.id() + "/approve", "{\"by\": \"ann\"}", rig.installToken());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);

        long t0 = System.nanoTime();
        WaitForAsyncUtils.waitFor(
                5,
                TimeUnit.SECONDS,
                () -> fx(() ->
                        vm.dashboard().approvals().rows().stream().noneMatch(x -> x.id() == decidedElsewhere.id())));
        assertThat((System.nanoTime() - t0) / 1_000_000)
                .as("ms until it left the queue")
                .isLessThan(1_500);
        assertThat(json(viaApi.get(15, TimeUnit.SECONDS)).get("reason").asText())
                .isEqualTo("approved by ann");
        assertThat(badge(robot)).isEqualTo("1");

        // A click that was already on its way when the API decided: a clear note, no error, nothing breaks.
        fx(() -> vm.dashboard().approvals().deny(decidedElsewhere, null)).get(15, TimeUnit.SECONDS);
        assertThat(note(robot)).startsWith("Already decided elsewhere:").contains("approved");
        assertThat(fx(() -> robot.lookup("#approval-error").query().isVisible()))
                .isFalse();
        assertThat(rig.host()
                        .wiring()
                        .approvals()
                        .find(decidedElsewhere.id())
                        .orElseThrow()
                        .state())
                .isEqualTo(ApprovalState.APPROVED);
        assertThat(other).isNotDone();
        assertThat(fx(() -> vm.dashboard().approvals().rows().size())).isEqualTo(1);
    }

    // ---------------------------------------------------------------------------------------------

    private ObjectNode body(String command) {
        ObjectNode n = Json.mapper().createObjectNode();
        n.put("tool", "Bash");
        n.putObject("input").put("command", command);
        n.put("cwd", sandbox.workspace().worktree().toString());
        n.put("sessionId", "session-ui");
        return n;
    }

    private record HookRun(int exit, String out, String err) {}

    /** Runs {@code <home>/bin/paddock-hook-claude} as Claude Code would, in the sandbox's environment. */
    private CompletableFuture<HookRun> claudeHook(String command) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                ObjectNode payload = Json.mapper().createObjectNode();
                payload.put("session_id", "session-hook");
                payload.put("cwd", sandbox.workspace().worktree().toString());
                payload.put("hook_event_name", "PreToolUse");
                payload.put("tool_name", "Bash");
                payload.putObject("tool_input").put("command", command);
                ProcessBuilder pb = new ProcessBuilder(
                        dev.paddock.approval.HookScript.path(rig.home().dir()).toString());
                pb.environment().clear();
                pb.environment().put("PATH", System.getenv("PATH"));
                pb.environment().put("PADDOCK_API", "http://127.0.0.1:" + rig.port());
                pb.environment().put("PADDOCK_TOKEN", rig.tokenOf(sandbox.id()));
                pb.environment().put("PADDOCK_HOOK_KEY", rig.hookKeyOf(sandbox.id()));
                pb.environment().put("PADDOCK_SANDBOX_ID", sandbox.id());
                Process p = pb.start();
                try (var in = p.getOutputStream()) {
                    in.write(payload.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                }
                CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> {
                    try {
                        return p.getErrorStream().readAllBytes();
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                if (!p.waitFor(60, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new IllegalStateException("the hook did not end");
                }
                return new HookRun(p.exitValue(), out, new String(err.get(), java.nio.charset.StandardCharsets.UTF_8));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** Sends a request as the agent would; it waits (long poll) for the panel's answer. */
    private CompletableFuture<HttpResponse<String>> ask(String command) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return rig.call("POST", "/v1/decide", body(command).toString(), rig.tokenOf(sandbox.id()));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private Approval awaitRow(String command) throws Exception {
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> vm.dashboard().approvals().rows().stream()
                        .anyMatch(a -> a.request().equals(command))));
        return fx(() -> vm.dashboard().approvals().rows().stream()
                .filter(a -> a.request().equals(command))
                .findFirst()
                .orElseThrow());
    }

    private void awaitNoRows() throws Exception {
        WaitForAsyncUtils.waitFor(
                5,
                TimeUnit.SECONDS,
                () -> fx(() -> vm.dashboard().approvals().rows().isEmpty()));
    }

    private static Node cell(FxRobot robot, long id) throws Exception {
        ListView<?> list = waitFor(robot, "#" + ApprovalsView.LIST_ID, ListView.class);
        // A cell showing the item whose labels are filled in (a cell can hold its item a pulse before its graphic).
        java.util.function.Predicate<Node> showsIt = n -> n instanceof ApprovalCell c
                && c.getItem() != null
                && c.getItem().id() == id
                && c.isVisible()
                && c.lookupAll(".label").stream()
                        .anyMatch(l -> l instanceof Label t
                                && t.getText() != null
                                && !t.getText().isEmpty());
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(
                        () -> robot.from((Node) list).lookup(showsIt).tryQuery().isPresent()));
        return fx(() -> robot.from((Node) list).lookup(showsIt).query());
    }

    /**
     * Clicks the part {@code query} of the row of approval {@code id}. The list view rebuilds its cells once when
     * its first item arrives (ListViewSkin.updateItemCount going from 0 items), so a node looked up just before
     * that layout pass can leave the scene before the robot reaches it: look it up again after the pending FX
     * events, and once more if it was detached on the way.
     */
    private static void clickIn(FxRobot robot, long id, String query) throws Exception {
        for (int attempt = 1; ; attempt++) {
            WaitForAsyncUtils.waitForFxEvents();
            Node part = robot.from(cell(robot, id)).lookup(query).query();
            try {
                if (fx(() -> part.getScene() != null)) {
                    robot.clickOn(part);
                    return;
                }
            } catch (NullPointerException detached) {
                if (attempt >= 5) {
                    throw detached;
                }
            }
            if (attempt >= 5) {
                throw new AssertionError(query + " of approval #" + id + " never stayed in the scene");
            }
        }
    }

    private static List<String> texts(FxRobot robot, Node cell) throws Exception {
        java.util.function.Predicate<Node> label = n -> n instanceof Label;
        return fx(() -> robot.from(cell).lookup(label).queryAllAs(Label.class).stream()
                .map(Label::getText)
                .filter(t -> t != null)
                .toList());
    }

    private static String badge(FxRobot robot) throws Exception {
        return fx(() -> robot.from(robot.lookup("#approvals-pane").<Node>query())
                .lookup(".pd-badge")
                .queryAs(Label.class)
                .getText());
    }

    private static String note(FxRobot robot) throws Exception {
        Label note = waitFor(robot, "#" + ApprovalsView.NOTE_ID, Label.class);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(note::isVisible));
        return fx(note::getText);
    }

    private static <T extends Node> T waitFor(FxRobot robot, String query, Class<T> type) throws Exception {
        // Looked up on the FX thread: a walk of the scene while it changes can fail.
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup(query).tryQuery().isPresent()));
        return fx(() -> robot.lookup(query).queryAs(type));
    }

    private static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(10, TimeUnit.SECONDS);
    }
}
