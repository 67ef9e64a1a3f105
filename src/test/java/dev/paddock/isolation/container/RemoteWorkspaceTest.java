package dev.paddock.isolation.container;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.container.DockerEngine;
import dev.paddock.container.WorkspaceVolumes;
import dev.paddock.testing.DockerTests;
import dev.paddock.testing.TempRepo;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.WorkspaceReturn;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A worktree delivered into a volume on the engine, worked on in a container, and brought back (no bind mount). */
class RemoteWorkspaceTest {
    private static final String AGENT = "1000:1000";

    @TempDir
    Path tmp;

    private DockerEngine engine;
    private RemoteWorkspace workspace;
    private final List<String> volumesMade = new ArrayList<>();
    private TempRepo repo;
    private Path wt;

    @BeforeEach
    void setUp() {
        DockerTests.requireEngineWithGitImage();
        engine = new DockerEngine(Clock.systemUTC());
        workspace = new RemoteWorkspace(
                new WorkspaceVolumes(engine), new GitCli(), RemoteWorkspace.DEFAULT_MAX_BYTES, 100_000);
        repo = TempRepo.init(tmp.resolve("repo"));
        repo.commitFile("README.md", "hello\n", "first");
        repo.commitFile("gone.txt", "to be deleted\n", "second");
        wt = repo.addWorktree(tmp.resolve("wt"), "sb");
        TempRepo.write(wt, "src/Main.java", "class Main {}\n");
        try {
            // A link leading out that the branch has: it comes back as it went.
            Files.createSymbolicLink(wt.resolve("hosts"), Path.of("/etc/hosts"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        TempRepo.commitAll(wt, "sandbox commit");
        TempRepo.write(wt, "README.md", "hello, uncommitted\n");
        TempRepo.write(wt, "notes/untracked.txt", "untracked\n");
    }

    @AfterEach
    void tearDown() {
        for (String v : volumesMade) {
            DockerTests.docker("volume", "rm", "-f", v);
        }
        if (engine != null) {
            engine.close();
        }
    }

    private String volume() {
        String v = "paddock-test-ws-" + UUID.randomUUID().toString().substring(0, 8);
        volumesMade.add(v);
        return v;
    }

    private DockerTests.Result inContainer(String image, String volume, String script) {
        return DockerTests.docker(
                "run",
                "--rm",
                "--network",
                "none",
                "--user",
                AGENT,
                "-e",
                "HOME=/tmp",
                "--mount",
                "type=volume,source=" + volume + ",target=/work",
                "-w",
                "/work",
                image,
                "/bin/sh",
                "-c",
                script);
    }

    @Test
    void aCommitAndEditsMadeInTheContainerComeBackOntoTheBranchAndTheWorktree() throws Exception {
        // What the local repository knows and must stay here: a remote with a token, a credential helper, a user.
        repo.git("remote", "add", "origin", "https://alice:secret-token@git.example.invalid/r.git");
        repo.git("config", "credential.helper", "store --file /home/alice/.git-credentials");
        repo.git("config", "user.email", "alice@example.invalid");
        String v = volume();
        RemoteWorkspace.Delivered d =
                workspace.deliver(v, DockerTests.GIT_IMAGE, wt, "sb", 1000, 1000, Map.of("paddock.test", "1"));
        assertThat(d.head()).isEqualTo(TempRepo.revParse(wt, "HEAD"));

        DockerTests.Result seen = inContainer(
                DockerTests.GIT_IMAGE,
                v,
                "cat README.md notes/untracked.txt && cat .git/config && git status --porcelain && git log --format=%s");
        assertThat(seen.code()).as(seen.out()).isZero();
        assertThat(seen.out()).contains("hello, uncommitted", "untracked", "sandbox commit", "first");
        assertThat(seen.out()).doesNotContain("origin", "url =", tmp.toString(), "secret-token", "credential", "alice");
        DockerTests.Result everything = inContainer(
                DockerTests.GIT_IMAGE,
                v,
                "grep -rl -e secret-token -e git-credentials -e alice@ -e '" + tmp + "' .git; true");
        assertThat(everything.out().strip())
                .as("files of .git naming local things")
                .isEmpty();
        assertThat(seen.out()).contains(" M README.md", "?? notes/");

        DockerTests.Result work = inContainer(
                DockerTests.GIT_IMAGE,
                v,
                "echo 'class Main { int x; }' > src/Main.java && git rm -q gone.txt"
                        + " && git -c user.name=Agent -c user.email=agent@x.invalid commit -qam 'agent commit'"
                        + " && echo new > fresh.txt && rm notes/untracked.txt");
        assertThat(work.code()).as(work.out()).isZero();

        long t0 = System.nanoTime();
        WorkspaceReturn.Outcome o = workspace.bringBack(v, DockerTests.GIT_IMAGE, wt, "sb", "sb-1");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("BENCH remote-workspace bring-back (one commit, small repo): " + ms + " ms");

        assertThat(o.moved()).isTrue();
        assertThat(o.diverged()).isFalse();
        assertThat(TempRepo.git(wt, "log", "-1", "--format=%s").strip()).isEqualTo("agent commit");
        assertThat(TempRepo.revParse(wt, "HEAD")).isEqualTo(o.remote());
        assertThat(Files.readString(wt.resolve("src/Main.java"))).contains("int x;");
        assertThat(wt.resolve("gone.txt")).doesNotExist();
        assertThat(wt.resolve("notes/untracked.txt")).doesNotExist();
        assertThat(wt.resolve("notes")).doesNotExist();
        assertThat(Files.readString(wt.resolve("fresh.txt"))).isEqualTo("new\n");
        assertThat(Files.readSymbolicLink(wt.resolve("hosts"))).isEqualTo(Path.of("/etc/hosts"));
        assertThat(Files.readString(wt.resolve("README.md"))).isEqualTo("hello, uncommitted\n");
        // commit -a took README.md's uncommitted change along; fresh.txt was made after the commit.
        assertThat(TempRepo.git(wt, "show", "HEAD:README.md")).isEqualTo("hello, uncommitted\n");
        assertThat(TempRepo.git(wt, "status", "--porcelain").lines().toList()).containsExactly("?? fresh.txt");
    }

    @Test
    void aCommitInTheContainerCarriesTheSandboxsOwnIdentity() throws Exception {
        repo.git("config", "user.email", "alice@example.invalid");
        new dev.paddock.worktree.WorktreeManager(new GitCli())
                .setIdentity(wt, "Paddock agent sb-1", "sb-1@agents.paddock.invalid");
        String v = volume();
        workspace.deliver(v, DockerTests.GIT_IMAGE, wt, "sb", 1000, 1000, Map.of("paddock.test", "1"));

        DockerTests.Result work =
                inContainer(DockerTests.GIT_IMAGE, v, "echo more >> README.md && git commit -qam 'no identity given'");
        assertThat(work.code()).as(work.out()).isZero();
        workspace.bringBack(v, DockerTests.GIT_IMAGE, wt, "sb", "sb-1");

        assertThat(TempRepo.git(wt, "log", "-1", "--format=%an <%ae>|%cn <%ce>|%s")
                        .strip())
                .isEqualTo("Paddock agent sb-1 <sb-1@agents.paddock.invalid>"
                        + "|Paddock agent sb-1 <sb-1@agents.paddock.invalid>|no identity given");
    }

    @Test
    void anImageWithoutGitGetsTheWorkspaceAndItsEditsComeBack() throws Exception {
        String v = volume();
        String image = System.getenv().getOrDefault("PADDOCK_TEST_IMAGE", "paddock-test:busybox");
        workspace.deliver(v, image, wt, "sb", 1000, 1000, Map.of());
        DockerTests.Result work =
                inContainer(image, v, "test -d .git/objects && echo edited >> README.md && rm gone.txt && ls -la");
        assertThat(work.code()).as(work.out()).isZero();

        WorkspaceReturn.Outcome o = workspace.bringBack(v, image, wt, "sb", "sb-1");

        assertThat(o.moved()).isFalse();
        assertThat(o.diverged()).isFalse();
        assertThat(Files.readString(wt.resolve("README.md"))).isEqualTo("hello, uncommitted\nedited\n");
        assertThat(wt.resolve("gone.txt")).doesNotExist();
        assertThat(TempRepo.git(wt, "status", "--porcelain").lines().toList())
                .containsExactlyInAnyOrder(" M README.md", " D gone.txt", "?? notes/");
    }

    @Test
    void aHistoryThatIsNoFastForwardIsKeptAsideAndChangesNothingLocally() throws Exception {
        String v = volume();
        workspace.deliver(v, DockerTests.GIT_IMAGE, wt, "sb", 1000, 1000, Map.of());
        DockerTests.Result work = inContainer(
                DockerTests.GIT_IMAGE,
                v,
                "git -c user.name=Agent -c user.email=a@x.invalid commit -q --amend -m rewritten");
        assertThat(work.code()).as(work.out()).isZero();
        String before = TempRepo.revParse(wt, "HEAD");

        WorkspaceReturn.Outcome o = workspace.bringBack(v, DockerTests.GIT_IMAGE, wt, "sb", "sb-1");

        assertThat(o.diverged()).isTrue();
        assertThat(o.moved()).isFalse();
        assertThat(TempRepo.revParse(wt, "HEAD")).isEqualTo(before);
        assertThat(TempRepo.git(wt, "log", "-1", "--format=%s", "refs/paddock/remote/sb-1")
                        .strip())
                .isEqualTo("rewritten");
        assertThat(Files.readString(wt.resolve("README.md"))).isEqualTo("hello, uncommitted\n");
    }

    @Test
    void anExistingVolumeIsNotDeliveredInto() throws Exception {
        String v = volume();
        workspace.deliver(v, DockerTests.GIT_IMAGE, wt, "sb", 1000, 1000, Map.of());
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> workspace.deliver(v, DockerTests.GIT_IMAGE, wt, "sb", 1000, 1000, Map.of()))
                .hasMessageContaining("exists already");
    }

    @Test
    void aTarEscapingTheWorkspaceIsRefusedAndChangesNothing() throws Exception {
        String v = volume();
        workspace.deliver(v, DockerTests.GIT_IMAGE, wt, "sb", 1000, 1000, Map.of());
        DockerTests.Result work = inContainer(DockerTests.GIT_IMAGE, v, "ln -s /etc escape && echo x >> README.md");
        assertThat(work.code()).as(work.out()).isZero();
        String before = TempRepo.git(wt, "status", "--porcelain");

        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> workspace.bringBack(v, DockerTests.GIT_IMAGE, wt, "sb", "sb-1"))
                .isInstanceOf(dev.paddock.worktree.WorkspaceRefused.class)
                .hasMessageContaining("link leading out");
        assertThat(TempRepo.git(wt, "status", "--porcelain")).isEqualTo(before);
        assertThat(wt.resolve("escape")).doesNotExist();
    }

    @Test
    void deliveringThisRepositoryAndBringingACommitBack() throws Exception {
        Path here = Path.of("").toAbsolutePath();
        TempRepo.git(
                tmp,
                "clone",
                "--quiet",
                "--no-hardlinks",
                here.toString(),
                tmp.resolve("self").toString());
        TempRepo copy = TempRepo.open(tmp.resolve("self"));
        Path self = copy.addWorktree(tmp.resolve("self-wt"), "sb-self");
        String branch = "sb-self";
        String v = volume();
        RemoteWorkspace.Delivered d = workspace.deliver(v, DockerTests.GIT_IMAGE, self, branch, 1000, 1000, Map.of());
        System.out.println("BENCH remote-workspace deliver (this repository: " + d.files() + " files, "
                + (d.bytes() >> 10) + " KiB of files, tar " + (d.tarBytes() >> 20) + " MiB): "
                + d.took().toMillis()
                + " ms");
        DockerTests.Result log = inContainer(DockerTests.GIT_IMAGE, v, "git log --oneline | wc -l");
        assertThat(log.code()).as(log.out()).isZero();
        assertThat(Integer.parseInt(log.out().strip())).isGreaterThan(1);

        DockerTests.Result work = inContainer(
                DockerTests.GIT_IMAGE,
                v,
                "echo more >> README.md && git -c user.name=Agent -c user.email=a@x.invalid commit -qam more");
        assertThat(work.code()).as(work.out()).isZero();
        long t0 = System.nanoTime();
        WorkspaceReturn.Outcome o = workspace.bringBack(v, DockerTests.GIT_IMAGE, self, branch, "sb-self");
        System.out.println("BENCH remote-workspace bring-back (this repository, one commit): "
                + (System.nanoTime() - t0) / 1_000_000 + " ms");
        assertThat(o.moved()).isTrue();
        assertThat(TempRepo.git(self, "status", "--porcelain")).isEmpty();
    }
}
