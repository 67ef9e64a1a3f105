package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.agent.AgentOptions;
import dev.paddock.agent.PresetPrograms;
import dev.paddock.worktree.GitCli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agents' programs and flags through the sandbox service, on a real store and repository: a set program that is
 * not there refuses the sandbox before anything is made, and flags are checked before they are stored.
 */
class AgentOptionsServiceTest {
    @TempDir
    Path tmp;

    private SandboxRig rig;
    private SandboxService service;

    @BeforeEach
    void open() throws Exception {
        rig = new SandboxRig(tmp);
        PresetPrograms presets = new PresetPrograms(
                tmp.resolve("home"),
                tmp,
                new GitCli(),
                () -> 60_000,
                System::getenv,
                AgentOptions.stored(rig.settings, rig.repoService));
        rig.creator.agentPrograms(presets);
        rig.launcher.agentPrograms(presets);
        service = rig.service();
    }

    @AfterEach
    void close() {
        rig.close();
    }

    private NewSandbox codex(String id) {
        return NewSandbox.builder()
                .repository(rig.repo.dir())
                .task("Tidy the README")
                .agent("codex")
                .id(id)
                .tier(Tier.WORKTREE)
                .branch("agent/" + id)
                .maxRetries(0)
                .build();
    }

    @Test
    void aSetProgramThatIsNotThereRefusesTheSandboxNamingTheSettingAndMakesNothing() throws Exception {
        Path codex = tmp.resolve("tools/codex");
        Files.createDirectories(codex.getParent());
        Files.writeString(codex, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(codex, PosixFilePermissions.fromString("rwx------"));
        rig.settings.set("agents.codex.executable", codex.toString(), "ann");
        Files.delete(codex);

        assertThatThrownBy(() -> service.create(codex("tidy-001")))
                .isInstanceOf(SandboxException.class)
                .hasMessageStartingWith("Cannot create a codex sandbox: the setting agents.codex.executable names "
                        + codex + ", and there is no such file.");

        assertThat(rig.store.exists("tidy-001")).isFalse();
        assertThat(rig.repo.git("branch", "--list", "agent/tidy-001")).isBlank();
        assertThat(rig.repo.dir().resolve(".worktrees")).doesNotExist();

        Files.writeString(codex, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(codex, PosixFilePermissions.fromString("rwx------"));
        SandboxRecord created = service.create(codex("tidy-002"));
        rig.awaitFingerprint(created.id());
        assertThat(created.spec().agent()).isEqualTo("codex");
    }

    @Test
    void flagsAreCheckedBeforeTheyAreStoredAndAnEmptyListClearsThem() throws Exception {
        Path main = service.setAgentFlags(rig.repo.dir(), "Claude", List.of("--max-turns", "30"));

        assertThat(main).isEqualTo(rig.repo.dir().toRealPath());
        assertThat(service.agentFlags(rig.repo.dir())).isEqualTo(Map.of("claude", List.of("--max-turns", "30")));
        assertThatThrownBy(() -> service.setAgentFlags(rig.repo.dir(), "claude", List.of("--setting-sources", "user")))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("--setting-sources");
        assertThatThrownBy(() -> service.setAgentFlags(rig.repo.dir(), "cursor", List.of()))
                .isInstanceOf(SandboxException.class)
                .hasMessageStartingWith("Unknown agent \"cursor\"");
        assertThat(service.agentFlags(rig.repo.dir())).isEqualTo(Map.of("claude", List.of("--max-turns", "30")));

        service.setAgentFlags(rig.repo.dir(), "claude", List.of());
        assertThat(service.agentFlags(rig.repo.dir())).isEmpty();
        long repoId = rig.repoService.registered(rig.repo.dir()).orElseThrow().id();
        assertThat(rig.events.recent(repoId, 10))
                .extracting(e -> e.message())
                .contains(
                        "Sandboxes of claude in " + main + " run with the extra flags --max-turns 30",
                        "Cleared the extra flags of claude in " + main);
    }
}
