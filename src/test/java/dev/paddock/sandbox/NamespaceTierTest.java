package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Wiring;
import dev.paddock.events.Event;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The namespace tier for real: agents inside bubblewrap (CI installs it; a machine without it fails
 * here, as it should: the tier is part of the product). Only the worktree and what git needs are
 * writable, /tmp is private, and there is no network but loopback.
 */
class NamespaceTierTest {
    @TempDir
    Path tmp;

    TempRepo repo;
    Wiring wiring;

    @BeforeEach
    void open() throws Exception {
        repo = TempRepo.init(tmp.resolve("repo"));
        repo.commitFile("src/app.txt", "version 1\n", "Add the app");
        wiring = Wiring.open(PaddockHome.resolve(tmp.resolve("home"), Map.of()));
        wiring.setApiUrl("http://127.0.0.1:1");
    }

    @AfterEach
    void close() {
        wiring.close();
    }

    SandboxRecord run(String task, String command, SandboxState until) throws Exception {
        SandboxRecord s = wiring.sandboxService()
                .create(NewSandbox.custom(repo.dir(), task, command)
                        .tier(Tier.NAMESPACE)
                        .leaseMs(60_000L)
                        .maxRetries(0)
                        .build());
        return awaitState(s.id(), until);
    }

    SandboxRecord awaitState(String id, SandboxState until) throws Exception {
        SandboxRecord s = wiring.sandboxService().find(id);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        Predicate<SandboxRecord> done = r -> r.state() == until;
        SandboxRecord r = wiring.sandboxService().find(s.id());
        while (!done.test(r)) {
            assertThat(System.nanoTime())
                    .as(
                            "%s reaches %s; now %s (%s), log:%n%s",
                            s.id(),
                            until.id(),
                            r.state().id(),
                            r.run().lastError(),
                            wiring.sandboxService().logTail(s.id()))
                    .isLessThan(deadline);
            wiring.supervisor().tick();
            Thread.sleep(100);
            r = wiring.sandboxService().find(s.id());
        }
        return r;
    }

    @Test
    void anAgentInTheNamespaceCommitsInItsWorktreeAndTheCommitIsOnTheBranch() throws Exception {
        SandboxRecord s = run(
                "Write inside",
                "echo inside > inside.txt && git add inside.txt"
                        + " && git commit -q -m 'Written inside bubblewrap' && echo 'committed' > \"$PADDOCK_HEARTBEAT_FILE\"",
                SandboxState.DONE);

        assertThat(repo.git("log", "-1", "--format=%s", s.workspace().branch()).strip())
                .isEqualTo("Written inside bubblewrap");
        assertThat(Files.readString(s.workspace().worktree().resolve("inside.txt")))
                .isEqualTo("inside\n");
        assertThat(wiring.sandboxService().history(s.id()))
                .extracting(Event::kind)
                .containsSubsequence("sandbox.created", "sandbox.running", "sandbox.done");
    }

    @Test
    void gitWorksInAnInitialisedSubmoduleAndItsCommitsReachTheHost() throws Exception {
        TempRepo library = TempRepo.init(tmp.resolve("lib-origin"));
        repo.addSubmodule(library, "lib");
        SandboxRecord created = wiring.sandboxService()
                .create(NewSandbox.custom(
                                repo.dir(),
                                "Fix the library",
                                "git status --porcelain && echo fixed >> lib/README.md && git -C lib commit -q -a -m 'Fixed inside'"
                                        + " && git add lib && git commit -q -m 'Use the fixed library' && echo GIT-OK")
                        .tier(Tier.NAMESPACE)
                        .leaseMs(60_000L)
                        .maxRetries(0)
                        .build());
        TempRepo.initSubmodules(created.workspace().worktree()); // on the host, before the agent starts

        SandboxRecord s = awaitState(created.id(), SandboxState.DONE);

        assertThat(wiring.sandboxService().logTail(s.id())).contains("GIT-OK");
        Path lib = s.workspace().worktree().resolve("lib");
        assertThat(TempRepo.git(lib, "log", "-1", "--format=%s").strip()).isEqualTo("Fixed inside");
        assertThat(repo.git("ls-tree", s.workspace().branch(), "lib")).contains(TempRepo.revParse(lib, "HEAD"));
        assertThat(TempRepo.git(s.workspace().worktree(), "status", "--porcelain")
                        .strip())
                .isEmpty();
    }

    @Test
    void outsideItsWorktreeTheAgentCannotWriteAndSeesNoNetworkButLoopback() throws Exception {
        Path mainFile = repo.dir().resolve("src/app.txt");
        SandboxRecord s = run(
                "Try to escape",
                "if echo changed >> " + mainFile + "; then echo WROTE-MAIN; fi;"
                        + " if touch " + tmp.resolve("outside.txt") + " 2>/dev/null; then echo WROTE-OUTSIDE; fi;"
                        + " echo private > /tmp/mine.txt && echo TMP-OK;"
                        + " echo HOME=$HOME;"
                        + " cut -d: -f1 /proc/net/dev | tail -n +3 | tr -d ' ' | sed 's/^/NET:/'",
                SandboxState.DONE);

        // The log's first line repeats the command; what the agent printed follows.
        java.util.List<String> printed =
                wiring.sandboxService().logTail(s.id()).lines().skip(1).toList();
        assertThat(printed).doesNotContain("WROTE-MAIN").contains("TMP-OK", "HOME=/tmp/home");
        assertThat(printed.stream().filter(l -> l.startsWith("NET:"))).containsExactly("NET:lo");
        assertThat(Files.readString(mainFile)).isEqualTo("version 1\n");
        // (touch may succeed inside: the test's folder is under /tmp, which is private in there.)
        assertThat(Files.exists(tmp.resolve("outside.txt")))
                .as("nothing reached the host's folder")
                .isFalse();
        assertThat(Files.exists(Path.of("/tmp/mine.txt")))
                .as("the agent's /tmp is private")
                .isFalse();
    }

    @Test
    void theAgentGetsItsTokenThroughTheEnvironmentNeverOnACommandLine() throws Exception {
        SandboxRecord s = run(
                "Look at the token",
                "echo TOKEN-LEN=${#PADDOCK_TOKEN}; echo ID=$PADDOCK_SANDBOX_ID;"
                        + " cat /proc/1/cmdline /proc/$$/cmdline | tr '\\0' ' '; echo; sleep 30",
                SandboxState.RUNNING);
        String token = dev.paddock.testing.AgentEnvironment.token(s);
        // Every process of the sandbox's tree, as any local user sees it in /proc/<pid>/cmdline.
        java.util.List<String> cmdlines = new java.util.ArrayList<>();
        long pid = s.runRef().pid();
        ProcessHandle.of(pid)
                .ifPresent(root -> java.util.stream.Stream.concat(java.util.stream.Stream.of(root), root.descendants())
                        .forEach(h -> {
                            try {
                                cmdlines.add(Files.readString(Path.of("/proc", Long.toString(h.pid()), "cmdline"))
                                        .replace('\0', ' '));
                            } catch (java.io.IOException gone) {
                                // ended meanwhile
                            }
                        }));
        assertThat(cmdlines)
                .as("the wrapper, bwrap and the agent")
                .hasSizeGreaterThanOrEqualTo(3)
                .anySatisfy(c -> assertThat(c).contains("bwrap"))
                .noneSatisfy(c -> assertThat(c).contains(token));
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!wiring.sandboxService().logTail(s.id()).contains("ID=") && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(wiring.sandboxService().logTail(s.id())).contains("TOKEN-LEN=" + token.length(), "ID=" + s.id());
        wiring.supervisor().stop(s.id(), "the test");
    }

    @Test
    void paddockHeartbeatWorksInsideTheNamespaceWithoutNetwork() throws Exception {
        SandboxRecord s = run("Beat inside", "paddock heartbeat half way there && sleep 30", SandboxState.RUNNING);
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        SandboxRecord r = wiring.sandboxService().find(s.id());
        while (!"half way there".equals(r.lease().progress()) && System.nanoTime() < deadline) {
            wiring.supervisor().tick();
            Thread.sleep(100);
            r = wiring.sandboxService().find(s.id());
        }
        assertThat(r.lease().progress())
                .as("log:%n%s", wiring.sandboxService().logTail(s.id()))
                .isEqualTo("half way there");
        assertThat(r.lease().lastHeartbeatAt()).isNotNull();
        wiring.supervisor().stop(s.id(), "the test");
    }
}
