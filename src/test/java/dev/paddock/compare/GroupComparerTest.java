package dev.paddock.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.Host;
import dev.paddock.api.ApiAnswerException;
import dev.paddock.api.ApiClient;
import dev.paddock.api.SandboxClient;
import dev.paddock.sandbox.AgentCounts;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxException;
import dev.paddock.sandbox.SandboxGroup;
import dev.paddock.sandbox.SandboxNotFoundException;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.Tier;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.TempRepo;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link GroupComparer} on a real running Paddock and real git repositories: a fan-out of two agents whose commands
 * commit different work; the merge queue tests both branches (one passes and is merged, the other fails), and the
 * comparison counts each one's commits, files and lines since the group's start, its verdict and its run time; the
 * API answers the same.
 */
class GroupComparerTest {
    /** The first sandbox commits twice (3 lines in one file), the second once (2 files, one of them "bad"). */
    static final String WORK = "case \"$PADDOCK_SANDBOX_ID\" in"
            + " *-1) printf 'good\\nlines\\n' > a.txt && git add a.txt && git commit -qm one"
            + " && echo more >> a.txt && git commit -qam two ;;"
            + " *) printf 'bad\\n' > b.txt && printf 'x\\n' > c.txt && git add b.txt c.txt && git commit -qm bad ;;"
            + " esac";

    @TempDir
    Path tmp;

    @Test
    void eachSandboxOfAFanOutWithItsWorkItsTestsAndItsTime() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        String start = repo.head();
        try (Host host = Host.start(PaddockHome.resolve(tmp.resolve("home"), Map.of()), "serve")) {
            host.wiring()
                    .merges()
                    .configure(repo.dir(), null, "! grep -rq bad --include='*.txt' .", 60_000L, 1, null, "auto");
            SandboxGroup g = host.wiring()
                    .sandboxService()
                    .createGroup(
                            NewSandbox.custom(repo.dir(), "Write things", WORK)
                                    .tier(Tier.WORKTREE)
                                    .maxRetries(0)
                                    .build(),
                            AgentCounts.parse("custom:2"));
            List<String> ids = g.sandboxes().stream().map(SandboxRecord::id).toList();
            GroupComparer comparer = host.wiring().comparisons();
            await(
                    () -> {
                        GroupComparison c = comparer.compare(g.id());
                        return c.members().stream()
                                .allMatch(m -> m.testsPassed() != null
                                        && List.of("merged", "failed").contains(m.mergeState())
                                        && !m.state().equals("merging"));
                    },
                    () -> comparer.compare(g.id()).toString());

            GroupComparison c = comparer.compare(g.id());

            assertThat(c.group()).isEqualTo(g.id());
            assertThat(c.task()).isEqualTo("Write things");
            assertThat(c.baseBranch()).isEqualTo("main");
            assertThat(c.baseCommit()).isEqualTo(start);
            assertThat(c.members()).extracting(MemberResult::id).containsExactlyElementsOf(ids);
            MemberResult one = c.members().get(0);
            MemberResult two = c.members().get(1);
            assertThat(one.agent()).isEqualTo("custom");
            assertThat(List.of(one.commits(), one.files())).containsExactly(2, 1);
            assertThat(List.of(one.added(), one.deleted())).containsExactly(3L, 0L);
            assertThat(one.testVerdict()).isEqualTo("passed");
            assertThat(one.mergeState()).isEqualTo("merged");
            assertThat(one.state()).isEqualTo("merged");
            assertThat(List.of(two.commits(), two.files())).containsExactly(1, 2);
            assertThat(List.of(two.added(), two.deleted())).containsExactly(2L, 0L);
            assertThat(two.testVerdict()).isEqualTo("failed");
            assertThat(two.mergeState()).isEqualTo("failed");
            for (MemberResult m : c.members()) {
                assertThat(m.runs()).isEqualTo(1);
                assertThat(m.runMs()).isNotNull().isBetween(0L, 60_000L);
                assertThat(m.toolCalls())
                        .as("a custom command's log is text: no tool calls")
                        .isZero();
                assertThat(m.tokens()).isNull();
                assertThat(m.costUsd()).isNull();
            }
            assertThat(comparer.compare(ids.get(1)))
                    .as("a sandbox of the group names the group")
                    .isEqualTo(c);

            SandboxRecord alone = host.wiring()
                    .sandboxService()
                    .create(NewSandbox.custom(repo.dir(), "Alone", "true")
                            .tier(Tier.WORKTREE)
                            .build());
            assertThatThrownBy(() -> comparer.compare(alone.id()))
                    .isInstanceOf(SandboxException.class)
                    .hasMessageContaining("made on its own, not in a fan-out");
            assertThatThrownBy(() -> comparer.compare("no-such-group")).isInstanceOf(SandboxNotFoundException.class);

            // The same through the API (GET /v1/sandboxes/{id}/compare): 400 for a sandbox in no group, 404 for none.
            PaddockHome home = PaddockHome.resolve(tmp.resolve("home"), Map.of());
            SandboxClient api = new SandboxClient(
                    ApiClient.discover(home.instanceFile(), home.tokenFile()).orElseThrow());
            assertThat(api.compare(ids.get(0))).isEqualTo(comparer.compare(g.id()));
            assertThatThrownBy(() -> api.compare(alone.id()))
                    .isInstanceOfSatisfying(
                            ApiAnswerException.class,
                            e -> assertThat(e.status()).isEqualTo(400));
            assertThatThrownBy(() -> api.compare("no-such-group"))
                    .isInstanceOfSatisfying(
                            ApiAnswerException.class,
                            e -> assertThat(e.status()).isEqualTo(404));
        }
    }

    @FunctionalInterface
    interface Check {
        boolean ok() throws Exception;
    }

    @FunctionalInterface
    interface Describe {
        String what() throws Exception;
    }

    static void await(Check check, Describe describe) throws Exception {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (check.ok()) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("timed out; last: " + describe.what());
    }
}
