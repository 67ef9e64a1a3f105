package dev.paddock.diff;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Wiring;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.TempRepo;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A real repository, Paddock's real services over a real H2 file ({@link Wiring}; the supervisor is not started, so
 * no agent runs) and one sandbox whose worktree a test changes; and git's own answer to compare Paddock's with.
 */
public final class DiffRig implements AutoCloseable {
    public final TempRepo repo;
    public final Wiring wiring;
    public final SandboxRecord sandbox;
    public final Path wt;

    private DiffRig(TempRepo repo, Wiring wiring, SandboxRecord sandbox) {
        this.repo = repo;
        this.wiring = wiring;
        this.sandbox = sandbox;
        this.wt = sandbox.workspace().worktree();
    }

    /** A sandbox {@code id} of a repository in {@code tmp} whose files {@code base} wrote and committed. */
    public static DiffRig open(Path tmp, String id, java.util.function.Consumer<TempRepo> base) throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        base.accept(repo);
        repo.commitAll("Base");
        Wiring wiring = Wiring.open(PaddockHome.resolve(tmp.resolve("home"), Map.of()));
        SandboxRecord s = wiring.sandboxService()
                .create(NewSandbox.custom(repo.dir(), "Change files", "sleep 60")
                        .id(id)
                        .branch("agent/" + id)
                        .maxRetries(0)
                        .build());
        assertThat(wiring.fingerprints().await(s.id(), Duration.ofSeconds(60))).isTrue();
        return new DiffRig(repo, wiring, s);
    }

    public DiffService diffs() {
        return wiring.diffs();
    }

    public String base() {
        return sandbox.workspace().baseCommit();
    }

    /** Writes a file in the worktree. */
    public DiffRig write(String path, String content) {
        TempRepo.write(wt, path, content);
        return this;
    }

    public DiffRig writeBytes(String path, byte[] content) throws IOException {
        Path f = wt.resolve(path);
        Files.createDirectories(f.getParent());
        Files.write(f, content);
        return this;
    }

    /** Commits everything in the worktree; its id. */
    public String commit(String message) {
        return TempRepo.commitAll(wt, message);
    }

    public String git(String... args) {
        return TempRepo.git(wt, args);
    }

    /**
     * git's diff of the base commit against the worktree's state, untracked files included (through a private index,
     * as Paddock does): {@code git diff --cached -M BASE EXTRA...}.
     */
    public String gitDiff(String... extra) throws Exception {
        Path index = Files.createTempFile("paddock-diff-test-index", "");
        Files.delete(index);
        try {
            git(index, "add", "-A", "--", ":/");
            List<String> args = new ArrayList<>(List.of("diff", "--cached", "-M", base()));
            args.addAll(List.of(extra));
            return git(index, args.toArray(String[]::new));
        } finally {
            Files.deleteIfExists(index);
        }
    }

    private String git(Path index, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", wt.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().put("GIT_INDEX_FILE", index.toString());
        pb.environment().put("GIT_CONFIG_NOSYSTEM", "1");
        pb.environment().put("GIT_CONFIG_GLOBAL", "/dev/null");
        pb.environment().put("LC_ALL", "C");
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as("git " + args[0]).isZero();
        return out;
    }

    @Override
    public void close() {
        wiring.close();
    }
}
