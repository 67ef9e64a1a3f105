package dev.paddock.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.events.EventKinds;
import dev.paddock.testing.FakeGh;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pull requests through the GitHub CLI. gh needs the network and a GitHub account, so these tests never run the
 * real one: a PATH without gh, and a fake {@code gh} script on the PATH that records its arguments.
 */
class PullRequestTest {
    @TempDir
    Path tmp;

    @Test
    void withoutGhTheMessageSaysWhatIsMissingAndNothingIsPushed() throws Exception {
        try (PublishRig rig = new PublishRig(tmp)) {
            Path bare = rig.bareRemote(tmp.resolve("origin.git"), "origin");
            rig.commit("a.txt", "a\n", "One");

            assertThatThrownBy(() -> rig.service().pullRequest(rig.sandbox.id(), null, false, "tester"))
                    .isInstanceOfSatisfying(
                            PublishException.class,
                            e -> assertThat(e.kind()).isEqualTo(PublishException.Kind.UNAVAILABLE))
                    .hasMessage("gh is not installed: install the GitHub CLI and run gh auth login");
            assertThat(rig.remoteTip(bare, rig.branch())).isEmpty();
        }
    }

    @Test
    void aGhThatIsNotSignedInSaysSo() throws Exception {
        try (PublishRig rig = new PublishRig(tmp)) {
            rig.bareRemote(tmp.resolve("origin.git"), "origin");
            rig.fakeGh("echo 'You are not logged into any GitHub hosts.' >&2\nexit 1\n");

            assertThatThrownBy(() -> rig.service().pullRequest(rig.sandbox.id(), null, false, "tester"))
                    .isInstanceOf(PublishException.class)
                    .hasMessage("gh is not signed in: run gh auth login");
        }
    }

    @Test
    void ghIsGivenTheBranchTheBaseTheTaskAndASummary() throws Exception {
        try (PublishRig rig = new PublishRig(tmp)) {
            Path bare = rig.bareRemote(tmp.resolve("origin.git"), "origin");
            rig.commit("hello.txt", "hello\n", "Say hello");
            String tip = rig.commit("hello.txt", "hello, world\n", "Greet the world");
            Path record = tmp.resolve("gh-args");
            rig.fakeGh(FakeGh.recording(record));

            PublishResult r = rig.service().pullRequest(rig.sandbox.id(), null, true, "tester");

            assertThat(r.pullRequestUrl()).isEqualTo(FakeGh.URL);
            assertThat(r.message()).contains("Pull request: " + FakeGh.URL);
            assertThat(rig.remoteTip(bare, rig.branch()))
                    .as("pushed before gh runs")
                    .isEqualTo(tip);
            List<String> args = List.of(Files.readString(record).split("\n--\n"));
            assertThat(args.subList(0, 5))
                    .containsExactly("pr", "create", "--head=" + rig.branch(), "--base=main", "--title=Add a greeting");
            assertThat(args.get(5))
                    .startsWith("--body=")
                    .contains("## Task\n\nAdd a greeting\n\nSay hello in hello.txt.")
                    .contains("## Agent\n\ncustom")
                    .contains("- Say hello\n- Greet the world\n");
            assertThat(args.subList(6, args.size())).containsExactly("--draft");
            assertThat(Path.of(Files.readString(Path.of(record + ".dir")).strip())
                            .toRealPath())
                    .as("gh runs in the sandbox's worktree, where its repository and remotes are")
                    .isEqualTo(rig.worktree().toRealPath());
            assertThat(rig.eventTexts())
                    .anyMatch(e -> e.startsWith(EventKinds.SANDBOX_PULL_REQUEST_OPENED) && e.contains(FakeGh.URL));
        }
    }

    @Test
    void ghsOwnRefusalIsShown() throws Exception {
        try (PublishRig rig = new PublishRig(tmp)) {
            rig.bareRemote(tmp.resolve("origin.git"), "origin");
            rig.commit("a.txt", "a\n", "One");
            rig.fakeGh("if [ \"$1\" = auth ]; then exit 0; fi\n"
                    + "echo 'a pull request for branch \"x\" into branch \"main\" already exists' >&2\nexit 1\n");

            assertThatThrownBy(() -> rig.service().pullRequest(rig.sandbox.id(), null, false, "tester"))
                    .isInstanceOfSatisfying(
                            PublishException.class, e -> assertThat(e.kind()).isEqualTo(PublishException.Kind.FAILED))
                    .hasMessageContaining("gh pr create failed: a pull request for branch");
        }
    }

    @Test
    void approvedWorkGoesWhereTheRepositorysTargetSays() throws Exception {
        try (PublishRig rig = new PublishRig(tmp)) {
            Path bare = rig.bareRemote(tmp.resolve("upstream.git"), "upstream");
            rig.bareRemote(tmp.resolve("origin.git"), "origin");
            String tip = rig.commit("a.txt", "a\n", "One");

            assertThatThrownBy(() -> rig.service().publishApproved(rig.sandbox.id(), "ann"))
                    .isInstanceOf(PublishException.class)
                    .hasMessageContaining("is local: the merge queue merges");

            rig.wiring.merges().configureTarget(rig.repo.dir(), "push", "upstream", true);
            PublishResult noGh = rig.service().publishApproved(rig.sandbox.id(), "ann");
            assertThat(rig.remoteTip(bare, rig.branch())).isEqualTo(tip);
            assertThat(noGh.pullRequestUrl()).isNull();
            assertThat(noGh.message()).endsWith("No pull request: " + GhCli.MISSING + ".");

            Path record = tmp.resolve("gh-args");
            rig.fakeGh(FakeGh.recording(record));
            PublishResult withGh = rig.service().publishApproved(rig.sandbox.id(), "ann");
            assertThat(withGh.pullRequestUrl()).isEqualTo(FakeGh.URL);
            assertThat(Files.readString(record)).doesNotContain("--draft");
        }
    }
}
