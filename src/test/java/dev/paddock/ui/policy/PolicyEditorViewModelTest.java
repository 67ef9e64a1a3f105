package dev.paddock.ui.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.panel.FilePolicyEditorBackend;
import dev.paddock.policy.PolicyFile;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Policy dialog's view model against its typed backend over real files ({@link FilePolicyEditorBackend}):
 * plain JUnit, no scene; only the FX toolkit, for the thread its properties change on.
 */
class PolicyEditorViewModelTest {
    @TempDir
    Path tmp;

    @BeforeAll
    static void fx() throws Exception {
        CountDownLatch up = new CountDownLatch(1);
        try {
            Platform.startup(up::countDown);
        } catch (IllegalStateException already) {
            up.countDown();
        }
        assertThat(up.await(30, TimeUnit.SECONDS)).isTrue();
    }

    private PolicyEditorViewModel editor(TempRepo repo) throws Exception {
        Path home = Files.createDirectories(tmp.resolve("home"));
        PolicyEditorViewModel vm = fx(() ->
                new PolicyEditorViewModel(repo.dir(), new FilePolicyEditorBackend(home, () -> 60_000), Runnable::run));
        fx(vm::load).get(10, TimeUnit.SECONDS);
        return vm;
    }

    @Test
    void aMissingFileLoadsTheTemplateAndSaveCreatesItWhenValid() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("project"));
        PolicyEditorViewModel vm = editor(repo);
        assertThat(fx(() -> vm.textProperty().get())).isEqualTo(PolicyEditorViewModel.TEMPLATE);
        assertThat(fx(() -> vm.messageProperty().get())).contains("does not exist yet");

        fx(() -> {
            vm.textProperty().set("{\"permissions\": {\"allow\": [\"Bash(git status)\"]}}");
            vm.checkNow();
            return null;
        });
        waitFor(() -> fx(() -> vm.canSaveProperty().get()));
        Path saved = fx(vm::save).get(10, TimeUnit.SECONDS);

        assertThat(saved)
                .isEqualTo(PolicyFile.repositoryFile(repo.dir().toAbsolutePath().normalize()));
        assertThat(Files.readString(saved)).isEqualTo("{\"permissions\": {\"allow\": [\"Bash(git status)\"]}}\n");
        assertThat(fx(() -> vm.unsavedProperty().get())).isFalse();
    }

    @Test
    void invalidTextCannotBeSavedAndSaysWhere() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("project"));
        PolicyEditorViewModel vm = editor(repo);
        fx(() -> {
            vm.textProperty().set("{\"permissions\": ");
            vm.checkNow();
            return null;
        });
        waitFor(() -> fx(() ->
                vm.validationProperty().get() != null && !vm.checkingProperty().get()));

        assertThat(fx(() -> vm.validationProperty().get().isValid())).isFalse();
        assertThat(fx(() -> vm.canSaveProperty().get())).isFalse();
        assertThat(fx(vm::save).isCancelled()).isTrue();
        assertThat(PolicyFile.repositoryFile(repo.dir())).doesNotExist();
    }

    @Test
    void importingClaudeSettingsAddsTheirRulesOnceAndSavesNothing() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("project"));
        repo.write(
                ".claude/settings.json",
                "{\"permissions\": {\"allow\": [\"Bash(npm test)\", \"Bash(git status)\"],"
                        + " \"deny\": [\"Bash(rm -rf *)\"]}}");
        PolicyEditorViewModel vm = editor(repo);
        fx(() -> {
            vm.textProperty().set("{\"permissions\": {\"allow\": [\"Bash(git status)\"], \"ask\": [], \"deny\": []}}");
            return null;
        });

        String said = fx(vm::importClaudeSettings).get(10, TimeUnit.SECONDS);

        assertThat(said).startsWith("Imported 2 rules from ").contains("(1 already here)");
        String text = fx(() -> vm.textProperty().get());
        assertThat(text).contains("\"Bash(npm test)\"", "\"Bash(rm -rf *)\"");
        assertThat(text.split("Bash\\(git status\\)", -1)).hasSize(2); // once
        assertThat(PolicyFile.repositoryFile(repo.dir())).doesNotExist();
    }

    @Test
    void aSandboxWorktreeEditsItsRepositorysPolicy() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("project"));
        Path sandbox = Files.createDirectories(repo.dir().resolve(".worktrees/spin-1/agent/spin"));
        Path home = Files.createDirectories(tmp.resolve("home"));
        PolicyEditorViewModel vm = fx(() ->
                new PolicyEditorViewModel(sandbox, new FilePolicyEditorBackend(home, () -> 60_000), Runnable::run));

        assertThat(vm.file())
                .isEqualTo(PolicyFile.repositoryFile(repo.dir().toAbsolutePath().normalize()));
    }

    private static <T> T fx(Callable<T> work) throws Exception {
        FutureTask<T> task = new FutureTask<>(work);
        Platform.runLater(task);
        return task.get(10, TimeUnit.SECONDS);
    }

    private static void waitFor(Callable<Boolean> condition) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.call()) {
            assertThat(System.nanoTime()).as("waited 10 s").isLessThan(end);
            Thread.sleep(20);
        }
    }
}
