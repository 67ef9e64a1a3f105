package dev.paddock.ui.sandboxes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Host;
import dev.paddock.compare.MemberResult;
import dev.paddock.sandbox.AgentCounts;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxGroup;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.Tier;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.TempRepo;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javafx.application.Platform;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The Compare view's model against the panel's real backend (a running Paddock): plain JUnit, no scene. It reads
 * off the FX thread (on the executor it was given) and shows the group's rows and summary, or why it could not.
 */
class CompareViewModelTest {
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

    private static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(10, TimeUnit.SECONDS);
    }

    @Test
    void readsTheGroupOffTheFxThreadAndSaysWhyWhenItCannot() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        AtomicReference<String> readOn = new AtomicReference<>();
        ExecutorService io = Executors.newSingleThreadExecutor(r -> new Thread(r, "compare-test-io"));
        try (Host host = Host.start(PaddockHome.resolve(tmp.resolve("home"), Map.of()), "panel")) {
            SandboxGroup g = host.wiring()
                    .sandboxService()
                    .createGroup(
                            NewSandbox.custom(repo.dir(), "Do nothing", "true")
                                    .tier(Tier.WORKTREE)
                                    .build(),
                            AgentCounts.parse("custom:3"));
            SandboxBackend backend = host.wiring().sandboxBackend(host.wiring().tierChecks());
            CompareViewModel vm = new CompareViewModel(
                    backend,
                    g.id(),
                    r -> io.execute(() -> {
                        readOn.set(Thread.currentThread().getName());
                        r.run();
                    }));

            fx(() -> {
                vm.load();
                return null;
            });
            assertThat(fx(() -> vm.loadingProperty().get()))
                    .as("loading until the answer arrives")
                    .isTrue();
            WaitForAsyncUtils.waitFor(
                    30, TimeUnit.SECONDS, () -> fx(() -> !vm.loadingProperty().get()));

            assertThat(readOn.get()).isEqualTo("compare-test-io");
            assertThat(fx(() -> vm.members().stream().map(MemberResult::id).toList()))
                    .containsExactlyElementsOf(
                            g.sandboxes().stream().map(SandboxRecord::id).toList());
            assertThat(fx(() -> vm.summaryProperty().get()))
                    .startsWith("3 sandboxes from main at ")
                    .endsWith(" · Do nothing");
            assertThat(fx(() -> vm.errorProperty().get())).isNull();

            CompareViewModel gone = new CompareViewModel(backend, "no-such-group", io);
            fx(() -> {
                gone.load();
                return null;
            });
            WaitForAsyncUtils.waitFor(
                    30, TimeUnit.SECONDS, () -> fx(() -> gone.errorProperty().get() != null));
            assertThat(fx(() -> gone.errorProperty().get().message()))
                    .isEqualTo("Comparing no-such-group: No sandbox no-such-group.");
            assertThat(fx(() ->
                            gone.members().isEmpty() && !gone.loadingProperty().get()))
                    .isTrue();
        } finally {
            io.shutdownNow();
        }
    }
}
