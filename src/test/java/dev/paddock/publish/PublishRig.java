package dev.paddock.publish;

import dev.paddock.Wiring;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxRepositories;
import dev.paddock.sandbox.Tier;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.FakeGh;
import dev.paddock.testing.TempRepo;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.RepositoryLocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A Paddock store over a real repository with one sandbox (not started: its worktree and branch are there, and the
 * test commits in them), and a {@link PublishService} whose gh is looked for on a PATH the test chooses.
 */
final class PublishRig implements AutoCloseable {
    final TempRepo repo;
    final Wiring wiring;
    final GitCli git = new GitCli();
    final SandboxRecord sandbox;
    final Path bin;

    PublishRig(Path tmp) throws Exception {
        repo = TempRepo.init(tmp.resolve("repo")).excludeWorktreesDir();
        wiring = Wiring.open(PaddockHome.resolve(tmp.resolve("home"), Map.of()));
        sandbox = wiring.sandboxService()
                .create(NewSandbox.custom(repo.dir(), "Add a greeting\n\nSay hello in hello.txt.", "true")
                        .tier(Tier.WORKTREE)
                        .build());
        bin = Files.createDirectories(tmp.resolve("bin"));
    }

    /** The service, with gh looked for in {@link #bin} alone. */
    PublishService service() {
        return new PublishService(
                wiring.sandboxService(),
                new SandboxRepositories(wiring.repoStore(), new RepositoryLocator(git)),
                wiring.merges(),
                git,
                new BranchPush(git, Duration.ofSeconds(60)),
                new GhCli(bin.toString(), Duration.ofSeconds(30)),
                wiring.events());
    }

    Path worktree() {
        return sandbox.workspace().worktree();
    }

    String branch() {
        return sandbox.workspace().branch();
    }

    /** Commits a file in the sandbox's worktree; returns the commit. */
    String commit(String file, String content, String message) {
        TempRepo.write(worktree(), file, content);
        return TempRepo.commitAll(worktree(), message);
    }

    /** A bare repository added as remote {@code name}; returns its path. */
    Path bareRemote(Path dir, String name) {
        Path bare = TempRepo.initBare(dir, false);
        repo.git("remote", "add", name, bare.toString());
        return bare;
    }

    /** What {@code git ls-remote} says the remote's branch is, or "" when it has none. */
    String remoteTip(Path bare, String branch) {
        String out = TempRepo.open(bare).git("ls-remote", bare.toString(), "refs/heads/" + branch);
        return out.isBlank() ? "" : out.strip().split("\\s+")[0];
    }

    /** Puts an executable {@code gh} script in {@link #bin}. */
    Path fakeGh(String script) throws IOException {
        return FakeGh.install(bin, script);
    }

    /** Every event's message and details, for checking what was written. */
    List<String> eventTexts() throws Exception {
        return wiring.events().ofSandbox(sandbox.id()).stream()
                .map(e -> e.kind() + " " + e.message() + " " + e.details())
                .toList();
    }

    @Override
    public void close() {
        wiring.close();
    }
}
