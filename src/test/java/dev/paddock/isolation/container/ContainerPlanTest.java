package dev.paddock.isolation.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.container.ContainerSpec;
import dev.paddock.isolation.GitWrites;
import dev.paddock.isolation.IsolationException;
import dev.paddock.isolation.RunId;
import dev.paddock.isolation.RunSpec;
import dev.paddock.testing.TempRepo;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container a {@link RunSpec} becomes, on a real linked worktree: environment values that are host paths of the
 * control directory or (for a task) of the worktree are given as the container sees them; host-only variables never
 * reach it.
 */
class ContainerPlanTest {
    @TempDir
    Path tmp;

    @Test
    void anAgentSeesItsControlDirectoryAtPaddockAndGetsNoHostOnlyVariable() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        Path wt = repo.addWorktree(repo.dir().resolve(".worktrees/s-1/agent"), "agent/one");
        Path control = repo.dir().resolve(".worktrees/s-1/.paddock");
        RunSpec spec = new RunSpec(
                RunSpec.Kind.AGENT,
                new RunId(
                        "s-1",
                        "paddock-s-1-r1",
                        Map.of("paddock.sandbox", "s-1"),
                        control,
                        tmp.resolve("s-1.log"),
                        null),
                wt,
                "echo hi",
                "run 1 of s-1",
                GitWrites.COMMIT,
                Map.of(
                        "PADDOCK_HEARTBEAT_FILE",
                        control.resolve("heartbeat").toString(),
                        "PADDOCK_WORKTREE",
                        wt.toString(),
                        "PADDOCK_TOKEN",
                        "secret"),
                Map.of("PADDOCK_API", "http://127.0.0.1:9"),
                null,
                false,
                "paddock-test:git");

        ContainerSpec c = ContainerPlan.spec(spec);

        assertThat(c.env())
                .containsEntry("PADDOCK_HEARTBEAT_FILE", "/paddock/heartbeat")
                .containsEntry("PADDOCK_WORKTREE", wt.toString())
                .containsEntry("PADDOCK_TOKEN", "secret")
                .containsEntry("HOME", "/tmp")
                .doesNotContainKey("PADDOCK_API");
        assertThat(c.workingDir()).isEqualTo(wt.toString());
        assertThat(c.mounts()).anySatisfy(m -> {
            assertThat(m.host()).isEqualTo(control);
            assertThat(m.target()).isEqualTo("/paddock");
            assertThat(m.readOnly()).isFalse();
        });
        assertThat(c.labels()).containsEntry("paddock.sandbox", "s-1");
        assertThat(c.name()).isEqualTo("paddock-s-1-r1");
    }

    @Test
    void aTaskWorksInWorkspaceAndSeesItsWorktreeThereWithoutAControlDirectory() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        Path wt = repo.addWorktree(repo.dir().resolve(".worktrees/.merge/7"), "merge-7");
        RunSpec spec = new RunSpec(
                RunSpec.Kind.TASK,
                new RunId("s-1", "paddock-merge-7-x", Map.of("paddock.merge", "7"), null, tmp.resolve("7.log"), null),
                wt,
                "make test",
                "make test",
                GitWrites.OBJECTS,
                Map.of("PADDOCK_MERGE_WORKTREE", wt.toString(), "OTHER", wt + "-not-inside"),
                Map.of(),
                null,
                true,
                "paddock-test:git");

        ContainerSpec c = ContainerPlan.spec(spec);

        assertThat(c.workingDir()).isEqualTo("/workspace");
        assertThat(c.env())
                .containsEntry("PADDOCK_MERGE_WORKTREE", "/workspace")
                .containsEntry("OTHER", wt + "-not-inside");
        assertThat(c.command()).containsExactly("/bin/sh", "-c", "make test");
        assertThat(c.mounts()).noneSatisfy(m -> assertThat(m.target()).isEqualTo("/paddock"));
        assertThat(c.mounts()).noneSatisfy(m -> assertThat(m.host().toString()).endsWith("/refs"));
        assertThat(c.network()).isTrue();
    }

    @Test
    void aRunWithoutAnImageIsRefusedSaying() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        Path wt = repo.addWorktree(repo.dir().resolve(".worktrees/.merge/8"), "merge-8");
        RunSpec spec = new RunSpec(
                RunSpec.Kind.TASK,
                new RunId("s-2", "n", Map.of(), null, tmp.resolve("8.log"), null),
                wt,
                "true",
                "true",
                GitWrites.OBJECTS,
                Map.of(),
                Map.of(),
                null,
                false,
                " ");

        assertThatThrownBy(() -> ContainerPlan.spec(spec))
                .isInstanceOf(IsolationException.class)
                .hasMessage("The sandbox s-2 has no container image.");
    }
}
