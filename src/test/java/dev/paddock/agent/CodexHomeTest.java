package dev.paddock.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.sandbox.SandboxLayout;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.Tier;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link CodexHome} on real folders, against what an agent may have left in its control directory. */
class CodexHomeTest {
    @TempDir
    Path tmp;

    @Test
    void aLinkLeftWhereTheHomeGoesIsReplacedNeverWrittenThrough() throws Exception {
        SandboxLayout layout = new SandboxLayout(tmp.resolve("repo"), "s-1", "agent/s-1");
        Files.createDirectories(layout.controlDir());
        Path user = Files.createDirectories(tmp.resolve("user").resolve(".codex"));
        Files.writeString(user.resolve("config.toml"), "model = \"gpt-x\"\n");
        // The agent (its control directory is writable inside a namespace sandbox) swapped its home for a link to a
        // folder of the host's.
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.createSymbolicLink(layout.controlDir().resolve(CodexHome.DIR), outside);
        Instant now = Instant.now();
        SandboxRecord s = SandboxRecord.builder()
                .id("s-1")
                .repositoryId(1)
                .task("t")
                .agentCommand("codex")
                .tier(Tier.NAMESPACE)
                .agent("codex")
                .branch("agent/s-1")
                .baseBranch("main")
                .baseCommit("0")
                .worktreePath(layout.worktree().toString())
                .state(SandboxState.PENDING)
                .createdAt(now)
                .stateChangedAt(now)
                .leaseMs(60_000)
                .build();

        Path home =
                CodexHome.prepare(s, layout, Map.of("HOME", tmp.resolve("user").toString()));

        assertThat(Files.isDirectory(home, LinkOption.NOFOLLOW_LINKS)).isTrue();
        assertThat(Files.readString(home.resolve("config.toml"))).isEqualTo("model = \"gpt-x\"\n");
        assertThat(outside).isEmptyDirectory();
    }
}
