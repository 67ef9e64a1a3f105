package dev.paddock.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.events.EventKinds;
import dev.paddock.testing.TempRepo;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Pushing a sandbox's branch with the git CLI, to real bare repositories and to remotes that fail. */
class PublishServiceTest {
    @TempDir
    Path tmp;

    @Test
    void aPushPutsTheBranchOnTheRemoteAndSaysWhatWasNotPushed() throws Exception {
        try (PublishRig rig = new PublishRig(tmp)) {
            Path bare = rig.bareRemote(tmp.resolve("origin.git"), "origin");
            String commit = rig.commit("hello.txt", "hello\n", "Say hello");
            TempRepo.write(rig.worktree(), "draft.txt", "not committed\n");

            PushResult r = rig.service().push(rig.sandbox.id(), null, "tester");

            assertThat(rig.remoteTip(bare, rig.branch())).isEqualTo(commit);
            assertThat(r.remote()).isEqualTo("origin");
            assertThat(r.commit()).isEqualTo(commit);
            assertThat(r.uncommittedFiles()).isEqualTo(1);
            assertThat(r.message())
                    .startsWith("Pushed " + rig.branch() + " at " + commit.substring(0, 10) + " to origin (" + bare)
                    .contains("1 file has uncommitted changes in the worktree: not pushed");
            assertThat(r.shortMessage())
                    .isEqualTo("Pushed " + rig.branch() + " to origin; 1 uncommitted file not pushed.");
            assertThat(TempRepo.open(rig.worktree()).git("status", "--porcelain"))
                    .as("nothing was committed for the push")
                    .contains("draft.txt");
            assertThat(rig.eventTexts())
                    .anyMatch(e -> e.startsWith(EventKinds.SANDBOX_PUSHED)
                            && e.contains("\"remote\":\"origin\"")
                            && e.contains("\"branch\":\"" + rig.branch() + "\""));
        }
    }

    @Test
    void theOnlyRemoteIsTakenWithoutANameAndANamedOneWhenAsked() throws Exception {
        try (PublishRig rig = new PublishRig(tmp)) {
            Path mirror = rig.bareRemote(tmp.resolve("mirror.git"), "mirror");
            String commit = rig.commit("a.txt", "a\n", "One");

            assertThat(rig.service().push(rig.sandbox.id(), null, "tester").remote())
                    .isEqualTo("mirror");
            assertThat(rig.remoteTip(mirror, rig.branch())).isEqualTo(commit);

            Path backup = rig.bareRemote(tmp.resolve("backup.git"), "backup");
            assertThatThrownBy(() -> rig.service().push(rig.sandbox.id(), null, "tester"))
                    .isInstanceOf(PublishException.class)
                    .hasMessageContaining("has several remotes (backup, mirror) and none is called origin");
            rig.service().push(rig.sandbox.id(), "backup", "tester");
            assertThat(rig.remoteTip(backup, rig.branch())).isEqualTo(commit);
        }
    }

    @Test
    void noRemoteAndAnUnknownRemoteAreClearErrors() throws Exception {
        try (PublishRig rig = new PublishRig(tmp)) {
            rig.commit("a.txt", "a\n", "One");
            assertThatThrownBy(() -> rig.service().push(rig.sandbox.id(), null, "tester"))
                    .isInstanceOfSatisfying(
                            PublishException.class,
                            e -> assertThat(e.kind()).isEqualTo(PublishException.Kind.BAD_REQUEST))
                    .hasMessageContaining("has no remote to push to: add one with git remote add origin URL");

            rig.bareRemote(tmp.resolve("origin.git"), "origin");
            assertThatThrownBy(() -> rig.service().push(rig.sandbox.id(), "upstream", "tester"))
                    .isInstanceOf(PublishException.class)
                    .hasMessageContaining("has no remote named \"upstream\"; its remotes: origin");
            assertThat(rig.eventTexts()).noneMatch(e -> e.startsWith(EventKinds.SANDBOX_PUSHED));
        }
    }

    @Test
    void aRemoteUrlWithCredentialsIsNeverShown() throws Exception {
        try (PublishRig rig = new PublishRig(tmp)) {
            rig.commit("a.txt", "a\n", "One");
            // Nothing listens on port 1: git fails at once, naming the URL it could not reach.
            rig.repo.git("remote", "add", "origin", "https://alice:s3cret-token@127.0.0.1:1/team/repo.git");

            assertThat(Remote.choose(rig.git, rig.repo.dir(), null).url())
                    .isEqualTo("https://***@127.0.0.1:1/team/repo.git");
            assertThatThrownBy(() -> rig.service().push(rig.sandbox.id(), null, "tester"))
                    .isInstanceOfSatisfying(
                            PublishException.class, e -> assertThat(e.kind()).isEqualTo(PublishException.Kind.FAILED))
                    .hasMessageContaining("git push of " + rig.branch() + " to origin failed")
                    .hasMessageNotContaining("s3cret")
                    .hasMessageNotContaining("alice");
            assertThat(rig.eventTexts()).noneMatch(e -> e.contains("s3cret"));
        }
    }

    @Test
    void gitsOwnMessageNamingAUrlWithCredentialsIsShownWithoutThem() throws Exception {
        // git 2.39 already leaves credentials out of "unable to access"; older ones and remote helpers do not. A git
        // that prints such a URL on a push (and is the real git otherwise) shows that Paddock takes them out itself.
        Path fakeGit = tmp.resolve("git-printing-credentials");
        java.nio.file.Files.writeString(
                fakeGit,
                "#!/bin/sh\n"
                        + "for a in \"$@\"; do if [ \"$a\" = push ]; then\n"
                        + "  echo \"error: failed to push some refs to 'https://alice:s3cret@example.com/r.git'\" >&2\n"
                        + "  exit 1\n"
                        + "fi; done\n"
                        + "exec git \"$@\"\n");
        fakeGit.toFile().setExecutable(true);
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        repo.git("remote", "add", "origin", "https://alice:s3cret@example.com/r.git");
        dev.paddock.worktree.GitCli git = new dev.paddock.worktree.GitCli(fakeGit.toString());
        Remote origin = Remote.choose(git, repo.dir(), null);

        assertThatThrownBy(() -> new BranchPush(git, java.time.Duration.ofSeconds(30))
                        .push("s1", repo.dir(), null, origin, "main"))
                .isInstanceOf(PublishException.class)
                .hasMessage("git push of main to origin failed: failed to push some refs to"
                        + " 'https://***@example.com/r.git'");
    }
}
