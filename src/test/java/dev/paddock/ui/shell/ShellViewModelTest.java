package dev.paddock.ui.shell;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Host;
import dev.paddock.repo.RepoRecord;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.settings.PaddockHome;
import dev.paddock.status.RepositoryStatus;
import dev.paddock.testing.TempRepo;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javafx.application.Platform;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shell's view model against the typed backends a real Paddock builds ({@code Host.panel()}): plain JUnit, no
 * scene; only the FX toolkit, for the thread its properties change on.
 */
class ShellViewModelTest {
    @TempDir
    Path tmp;

    private final AtomicReference<Host> host = new AtomicReference<>();
    private ShellViewModel vm;

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

    @AfterEach
    void close() {
        if (vm != null) {
            vm.close();
        }
    }

    private ShellViewModel started(TempRepo repo) throws Exception {
        vm = new ShellViewModel(h -> {
            Host started = Host.start(h, "panel");
            host.set(started);
            return started.panel();
        });
        vm.start(PaddockHome.resolve(tmp.resolve("home"), Map.of()), repo.dir()).get(60, TimeUnit.SECONDS);
        return vm;
    }

    @Test
    void startingOpensTheRepositoryAndTheDashboardShowsIt() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("project"));
        ShellViewModel shell = started(repo);

        assertThat(fx(() -> shell.phaseProperty().get())).isEqualTo(ShellViewModel.Phase.READY);
        RepoRecord current = fx(() -> shell.currentProperty().get());
        assertThat(current.path()).isEqualTo(repo.dir().toRealPath());
        assertThat(fx(() -> shell.recents().stream().map(RepoRecord::id).toList()))
                .containsExactly(current.id());
        waitFor(() -> fx(() -> shell.dashboard().latestProperty().get()) != null);
        assertThat(fx(() -> shell.dashboard().worktrees().size())).isEqualTo(1);
        assertThat(shell.paddockHome()).isEqualTo(tmp.resolve("home"));
        assertThat(shell.mergeSettings()).isNotNull();
        assertThat(shell.policies().policyRepository(repo.dir()))
                .isEqualTo(repo.dir().toAbsolutePath().normalize());
    }

    @Test
    void aSandboxCreatedElsewhereShowsOnTheDashboardFromItsEvent() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("project"));
        ShellViewModel shell = started(repo);
        waitFor(() -> fx(() -> shell.dashboard().latestProperty().get()) != null);

        // As the CLI or the API would: through the service, not the panel.
        SandboxRecord s = host.get().wiring().sandboxService().create(NewSandbox.of(repo.dir(), "spin", "sleep 30"));

        waitFor(() -> fx(() -> shell.dashboard().sandboxes().stream()
                        .map(RepositoryStatus.Sandbox::id)
                        .toList())
                .contains(s.id()));
    }

    @Test
    void openingAFolderOutsideAnyRepositorySaysWhyAndKeepsTheRepositoryShown() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("project"));
        ShellViewModel shell = started(repo);
        RepoRecord shown = fx(() -> shell.currentProperty().get());
        Path plain = java.nio.file.Files.createDirectories(tmp.resolve("plain"));

        shell.open(plain).get(30, TimeUnit.SECONDS);

        assertThat(fx(() -> shell.openErrorProperty().get())).isNotBlank();
        assertThat(fx(() -> shell.currentProperty().get())).isEqualTo(shown);
        assertThat(fx(() -> shell.busyProperty().get())).isFalse();
    }

    @Test
    void closingTheShellStopsPaddock() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("project"));
        ShellViewModel shell = started(repo);
        Path instance = tmp.resolve("home").resolve("instance.json");
        assertThat(instance).exists();

        shell.close();
        vm = null;

        assertThat(instance).doesNotExist();
    }

    private static <T> T fx(Callable<T> read) throws Exception {
        FutureTask<T> task = new FutureTask<>(read);
        Platform.runLater(task);
        return task.get(10, TimeUnit.SECONDS);
    }

    private static void waitFor(Callable<Boolean> condition) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.call()) {
            assertThat(System.nanoTime()).as("waited 20 s").isLessThan(end);
            Thread.sleep(20);
        }
    }
}
