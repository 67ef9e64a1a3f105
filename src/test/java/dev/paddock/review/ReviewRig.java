package dev.paddock.review;

import dev.paddock.Wiring;
import dev.paddock.events.Event;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A real Paddock home built as the panel builds it ({@link Wiring}), over a real repository (base {@code main}, a
 * file {@code a.txt} of three lines), with its supervisor running and its merge queue driven by the test. Its
 * {@code PATH} starts with a folder the test may put fake agent programs in ({@link #fakeAgent}).
 */
final class ReviewRig implements AutoCloseable {
    static final Duration WAIT = Duration.ofSeconds(60);

    final Path tmp;
    final TempRepo repo;
    final PaddockHome home;
    final Path bin;
    Wiring wiring;

    ReviewRig(Path tmp) throws Exception {
        this.tmp = tmp;
        this.repo = TempRepo.init(tmp.resolve("repo")).excludeWorktreesDir();
        repo.commitFile("a.txt", "alpha\nbeta\ngamma\n", "Add a.txt");
        this.home = PaddockHome.resolve(tmp.resolve("home"), Map.of());
        this.bin = Files.createDirectories(tmp.resolve("bin"));
        open();
    }

    /** Opens the home (again) and starts its supervisor. */
    void open() throws Exception {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("PATH", bin + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        wiring = Wiring.open(home, env);
        wiring.supervisor().start();
    }

    /** Closes the home (as Paddock stopping). */
    void closeWiring() {
        if (wiring != null) {
            wiring.close();
            wiring = null;
        }
    }

    ReviewService reviews() {
        return wiring.reviews();
    }

    /** Writes an executable {@code name} on the rig's {@code PATH}. */
    void fakeAgent(String name, String script) throws Exception {
        Path p = bin.resolve(name);
        Files.writeString(p, "#!/bin/sh\n" + script);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** Creates a custom sandbox running {@code command}. */
    SandboxRecord custom(String id, String command) throws Exception {
        return wiring.sandboxService()
                .create(NewSandbox.custom(repo.dir(), "edit a.txt", command)
                        .id(id)
                        .branch("agent/" + id)
                        .maxRetries(0)
                        .build());
    }

    /** Creates a sandbox of the agent preset {@code agent}. */
    SandboxRecord preset(String id, String agent) throws Exception {
        return wiring.sandboxService()
                .create(NewSandbox.builder()
                        .repository(repo.dir())
                        .task("edit a.txt")
                        .agent(agent)
                        .id(id)
                        .branch("agent/" + id)
                        .maxRetries(0)
                        .build());
    }

    SandboxRecord find(String id) throws Exception {
        return wiring.sandboxService().find(id);
    }

    /** Waits until the sandbox is in {@code state}; fails on a failed run or after {@link #WAIT}. */
    SandboxRecord await(String id, SandboxState state) throws Exception {
        long end = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < end) {
            SandboxRecord s = find(id);
            if (s.state() == state) {
                return s;
            }
            if (s.state() == SandboxState.FAILED || s.state() == SandboxState.AWAITING_HUMAN) {
                throw new AssertionError(
                        id + " is " + s.state().id() + " (" + s.run().lastError() + "), not " + state.id() + "; log:\n"
                                + wiring.sandboxService().logTail(id));
            }
            Thread.sleep(50);
        }
        throw new AssertionError(id + " is " + find(id).state().id() + " after " + WAIT + ", not " + state.id());
    }

    /** Waits for the run to end, then lets the merge queue's tick look at it (the gate, with review required). */
    SandboxRecord finishAndGate(String id) throws Exception {
        await(id, SandboxState.DONE);
        wiring.merges().queue().enqueueFinished();
        return find(id);
    }

    /** Runs the merge queue of the sandbox's repository until it is empty. */
    void drainQueue(String sandboxId) throws Exception {
        long repoId = find(sandboxId).repositoryId();
        for (int i = 0; i < 20 && wiring.merges().queue().runNext(repoId); i++) {
            // next
        }
    }

    List<Event> history(String id) throws Exception {
        return wiring.sandboxService().history(id);
    }

    String main() {
        return repo.git("rev-parse", "main").strip();
    }

    @Override
    public void close() {
        closeWiring();
    }
}
