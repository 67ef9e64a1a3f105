package dev.paddock.ui.sandboxes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Host;
import dev.paddock.agent.TranscriptFollower;
import dev.paddock.agent.TranscriptFormat;
import dev.paddock.agent.TranscriptParser;
import dev.paddock.approval.ApprovalRequest;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.Tier;
import dev.paddock.settings.PaddockHome;
import dev.paddock.status.RepositoryStatus;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.ClaudeCli;
import dev.paddock.testing.ClaudeStreamLog;
import dev.paddock.testing.TempRepo;
import dev.paddock.ui.sandboxes.SandboxDetailsViewModel.Section;
import dev.paddock.ui.sandboxes.TranscriptRow.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import javafx.application.Platform;
import javafx.collections.ListChangeListener;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The details pane's view model against the panel's real backend (a running Paddock, {@link Host}) and a real
 * agent log that grows while it watches: plain JUnit, no scene; only the FX toolkit, for the thread its lists
 * change on. The sandbox is a Claude Code one (the real CLI, which stops at once without a login), so its log is
 * read as stream-json; the test then appends the lines an agent at work would print.
 */
class SandboxDetailsViewModelTest {
    @TempDir
    Path tmp;

    @BeforeAll
    static void fx() throws Exception {
        CountDownLatch up = new CountDownLatch(1);
        try {
            Platform.startup(up::countDown);
        } catch (IllegalStateException already) {
            up.countDown();
        }
        assertThat(up.await(30, TimeUnit.SECONDS)).isTrue();
    }

    private static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(10, TimeUnit.SECONDS);
    }

    private static void waitFor(String what, int seconds, BooleanSupplier ok) throws Exception {
        try {
            WaitForAsyncUtils.waitFor(seconds, TimeUnit.SECONDS, () -> ok.getAsBoolean());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("timed out waiting for " + what, e);
        }
    }

    /** The dashboard's row of a sandbox, as the status service makes it. */
    static RepositoryStatus.Sandbox row(SandboxRecord s) {
        return new RepositoryStatus.Sandbox(
                s.id(),
                s.spec().task(),
                s.spec().tier().id(),
                s.state().id(),
                s.workspace().branch(),
                s.workspace().worktreePath(),
                s.createdAt(),
                s.lease().lastHeartbeatAt(),
                s.lease().progress(),
                s.lease().expiresAt(),
                s.run().retryCount(),
                s.run().exitCode(),
                s.run().lastError(),
                false,
                false,
                s.spec().agent(),
                s.spec().model());
    }

    /** A Claude Code sandbox whose (real) agent has already ended, so only the test writes to its log. */
    static SandboxRecord endedClaudeSandbox(Host host, TempRepo repo) throws Exception {
        ClaudeCli.require();
        SandboxRecord s = host.wiring()
                .sandboxService()
                .create(NewSandbox.custom(repo.dir(), "Fix the totals", null)
                        .agent("claude")
                        .tier(Tier.WORKTREE)
                        .maxRetries(0)
                        .build());
        waitFor(s.id() + " to end", 60, () -> {
            try {
                SandboxState st =
                        host.wiring().sandboxes().find(s.id()).orElseThrow().state();
                return st == SandboxState.AWAITING_HUMAN || st == SandboxState.DONE || st == SandboxState.FAILED;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        return host.wiring().sandboxes().find(s.id()).orElseThrow();
    }

    static void append(Path log, List<String> lines) throws Exception {
        Files.writeString(log, String.join("\n", lines) + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private static int entries(List<String> lines) {
        TranscriptParser p = TranscriptFormat.CLAUDE_STREAM_JSON.newParser();
        return p.feed(String.join("\n", lines) + "\n").size();
    }

    @Test
    void streamJsonLinesAppendedToTheLogArriveAsRowsInBatchesWithTheirDecisions() throws Exception {
        TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("project"));
        try (Host host = Host.start(PaddockHome.resolve(tmp.resolve("home"), Map.of()), "panel");
                SandboxDetailsViewModel vm = new SandboxDetailsViewModel()) {
            SandboxRecord s = endedClaudeSandbox(host, repo);
            Path log = host.wiring().sandboxService().logFile(s.id());
            SandboxBackend backend = host.wiring().sandboxBackend(host.wiring().tierChecks());
            TranscriptViewModel transcript = vm.transcript();
            AtomicInteger removed = new AtomicInteger();
            fx(() -> {
                vm.setBackend(backend);
                vm.sectionProperty().set(Section.TRANSCRIPT);
                vm.show(row(s));
                return null;
            });
            // What the real CLI printed: Paddock's line before the run, its session, how it ended.
            waitFor("the CLI's own run", 10, () -> rows(transcript).stream().anyMatch(r -> r.kind() == Kind.USAGE));
            // Lines the CLI writes to stderr before its session starts (warnings that depend on the machine) are
            // plain output rows between the two; they are shown in the failure message.
            List<TranscriptRow> first = rows(transcript);
            String shown = first.stream().map(r -> r.kind() + " " + r.text()).collect(Collectors.joining("\n"));
            assertThat(first).as(shown).extracting(TranscriptRow::kind).startsWith(Kind.MARKER);
            assertThat(first)
                    .as(shown)
                    .extracting(TranscriptRow::kind)
                    .contains(Kind.SESSION)
                    .doesNotContain(Kind.TOOL_CALL);
            assertThat(first.stream().takeWhile(r -> r.kind() != Kind.SESSION).skip(1))
                    .as(shown)
                    .allMatch(r -> r.kind() == Kind.OUTPUT);
            int before = rows(transcript).size();
            fx(() -> {
                transcript.rows().addListener((ListChangeListener<TranscriptRow>) c -> {
                    while (c.next()) {
                        if (c.wasRemoved() && !c.wasReplaced()) {
                            removed.addAndGet(c.getRemovedSize());
                        }
                    }
                });
                return null;
            });
            int flushesBefore = transcript.flushTimes().size();

            // An agent at work: 8,000 events at once (several MB: read in steps), then 2,000 more in five bursts.
            ClaudeStreamLog agent = ClaudeStreamLog.newSession();
            List<String> lines = agent.conversation(s.workspace().worktreePath(), 10_000, 7);
            append(log, lines.subList(0, 8_000));
            for (int i = 0; i < 5; i++) {
                Thread.sleep(150);
                append(log, lines.subList(8_000 + i * 400, 8_000 + (i + 1) * 400));
            }
            assertThat(Files.size(log)).as("more than a step").isGreaterThan(3L * TranscriptFollower.STEP_BYTES);
            int expected = before + entries(lines);
            waitFor("all 10,000 events", 30, () -> rows(transcript).size() == expected);

            assertThat(removed.get()).as("rows are only appended").isZero();
            List<Long> flushes = transcript
                    .flushTimes()
                    .subList(flushesBefore, transcript.flushTimes().size());
            assertThat(flushes.size()).as("in more than one batch").isGreaterThan(1);
            for (int i = 1; i < flushes.size(); i++) {
                assertThat(flushes.get(i) - flushes.get(i - 1))
                        .as("time between two updates of the FX thread")
                        .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(TranscriptViewModel.FLUSH_MS) - 1);
            }
            assertThat(fx(() -> transcript.summaryProperty().get()))
                    .contains(" calls · ")
                    .contains(" tokens · $");
            assertThat(fx(() -> transcript.summaryInFullProperty().get()))
                    .startsWith(String.format("%,d entries", expected))
                    .contains(" runs: ")
                    .contains("tokens in");

            // Two calls the policy decides: their rows get the decisions.
            append(
                    log,
                    List.of(
                            agent.text("Let me check the tree, then clean the build."),
                            agent.bash("toolu_status", "git status"),
                            agent.toolResult("toolu_status", "On branch main", false),
                            agent.bash("toolu_clean", "rm -rf build"),
                            agent.toolResult("toolu_clean", "Denied by Paddock: rm -rf is denied", true)));
            host.wiring()
                    .approvals()
                    .decide(new ApprovalRequest(
                            s.id(), "Bash", "git status", s.workspace().worktree(), agent.session(), "toolu_status"));
            host.wiring()
                    .approvals()
                    .decide(new ApprovalRequest(
                            s.id(), "Bash", "rm -rf build", s.workspace().worktree(), agent.session(), "toolu_clean"));
            waitFor(
                    "the decisions",
                    10,
                    () -> decisionOf(transcript, "rm -rf build") != null
                            && decisionOf(transcript, "git status") != null);
            assertThat(decisionOf(transcript, "git status").text()).isEqualTo("allowed");
            TranscriptRow.Decision denied = decisionOf(transcript, "rm -rf build");
            assertThat(denied.text()).isEqualTo("denied");
            assertThat(denied.reason()).isNotBlank();
            assertThat(fx(() -> transcript.summaryProperty().get())).contains("(1 denied)");

            // The log tab follows the same file through its own follower.
            fx(() -> {
                vm.sectionProperty().set(Section.LOG);
                return null;
            });
            waitFor("the log's tail", 10, () -> {
                try {
                    return fx(() -> vm.logTextProperty().get()).contains("Denied by Paddock: rm -rf is denied");
                } catch (Exception e) {
                    return false;
                }
            });
        }
    }

    @Test
    void updatesReachTheFxThreadAtMostTwentyTimesASecondHoweverOftenTheLogIsRead() throws Exception {
        TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("project"));
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try (Host host = Host.start(PaddockHome.resolve(tmp.resolve("home"), Map.of()), "panel")) {
            SandboxRecord s = endedClaudeSandbox(host, repo);
            Path log = host.wiring().sandboxService().logFile(s.id());
            SandboxBackend backend = host.wiring().sandboxBackend(host.wiring().tierChecks());
            TranscriptViewModel transcript = new TranscriptViewModel(timer, () -> {});
            fx(() -> {
                transcript.show(s.id());
                return null;
            });
            AtomicInteger removed = new AtomicInteger();
            fx(() -> {
                transcript.rows().addListener((ListChangeListener<TranscriptRow>) c -> {
                    while (c.next()) {
                        removed.addAndGet(c.wasRemoved() && !c.wasReplaced() ? c.getRemovedSize() : 0);
                    }
                });
                return null;
            });
            // This thread reads as the details' thread would, but as fast as it can: a few lines, a read, again.
            transcript.poll(backend);
            ClaudeStreamLog agent = ClaudeStreamLog.newSession();
            List<String> lines = agent.conversation(s.workspace().worktreePath(), 3_000, 11);
            long start = System.nanoTime();
            for (int i = 0; i < lines.size(); i += 10) {
                append(log, lines.subList(i, i + 10));
                transcript.poll(backend);
            }
            long took = System.nanoTime() - start;
            waitFor(
                    "the last rows",
                    10,
                    () -> rows(transcript).stream()
                                    .filter(r -> r.kind() != Kind.MARKER)
                                    .count()
                            >= 3_000);

            List<Long> flushes = transcript.flushTimes();
            assertThat(removed.get()).as("rows are only appended").isZero();
            for (int i = 2; i < flushes.size(); i++) {
                assertThat(flushes.get(i) - flushes.get(i - 1))
                        .as("time between two updates of the FX thread")
                        .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(TranscriptViewModel.FLUSH_MS) - 1);
            }
            assertThat((long) flushes.size())
                    .as("300 reads in %d ms", took / 1_000_000)
                    .isLessThanOrEqualTo(took / TimeUnit.MILLISECONDS.toNanos(TranscriptViewModel.FLUSH_MS) + 3);
        } finally {
            timer.shutdownNow();
        }
    }

    @Test
    void anotherSandboxShownStartsItsTranscriptAfreshAndComingBackReadsTheFirstAgain() throws Exception {
        TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("project"));
        try (Host host = Host.start(PaddockHome.resolve(tmp.resolve("home"), Map.of()), "panel");
                SandboxDetailsViewModel vm = new SandboxDetailsViewModel()) {
            SandboxRecord claude = endedClaudeSandbox(host, repo);
            SandboxRecord custom = host.wiring()
                    .sandboxService()
                    .create(NewSandbox.of(repo.dir(), "Say hi", "echo 'hi from the custom command'; sleep 300"));
            ClaudeStreamLog agent = ClaudeStreamLog.newSession();
            append(
                    host.wiring().sandboxService().logFile(claude.id()),
                    agent.conversation(claude.workspace().worktreePath(), 1_000, 3));
            TranscriptViewModel transcript = vm.transcript();
            fx(() -> {
                vm.setBackend(host.wiring().sandboxBackend(host.wiring().tierChecks()));
                vm.sectionProperty().set(Section.TRANSCRIPT);
                vm.show(row(claude));
                return null;
            });
            waitFor("the first transcript", 20, () -> rows(transcript).size() > 1_000);
            int first = rows(transcript).size();

            fx(() -> {
                vm.show(row(custom));
                return null;
            });
            waitFor(
                    "the custom command's output",
                    20,
                    () -> rows(transcript).stream()
                            .anyMatch(r -> r.kind() == Kind.OUTPUT && r.text().equals("hi from the custom command")));
            assertThat(rows(transcript)).noneMatch(r -> r.kind() == Kind.TOOL_CALL);

            fx(() -> {
                vm.show(row(claude));
                return null;
            });
            waitFor("the first transcript again", 20, () -> rows(transcript).size() == first);
            assertThat(rows(transcript)).noneMatch(r -> r.text().contains("hi from the custom command"));
            host.wiring().sandboxService().stop(custom.id(), "test");
        }
    }

    private static List<TranscriptRow> rows(TranscriptViewModel t) {
        try {
            return fx(() -> new ArrayList<>(t.rows()));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static TranscriptRow.Decision decisionOf(TranscriptViewModel t, String command) {
        return rows(t).stream()
                .filter(r -> r.kind() == Kind.TOOL_CALL && r.text().equals(command))
                .map(TranscriptRow::decision)
                .filter(java.util.Objects::nonNull)
                .findFirst()
                .orElse(null);
    }

    @Test
    void theTextOnScreenKeepsTheNewestLinesFromALineStart() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; sb.length() <= SandboxDetailsViewModel.MAX_LOG_CHARS; i++) {
            sb.append("output line ").append(i).append('\n');
        }
        String kept = SandboxDetailsViewModel.trim(sb.toString());

        assertThat(kept.length()).isLessThan(SandboxDetailsViewModel.MAX_LOG_CHARS);
        assertThat(kept).startsWith("output line ").endsWith(sb.substring(sb.lastIndexOf("output line")));
        assertThat(SandboxDetailsViewModel.trim("short\n")).isEqualTo("short\n");
    }
}
