package dev.paddock.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.application.Platform;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The view models' throttled loader, with the FX toolkit of the headless tests. */
class ThrottledLoaderTest {
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

    @Test
    void aBurstOfRequestsCostsFewReloadsOffTheFxThreadAndTheNewestIsAppliedOnIt() throws Exception {
        AtomicInteger loads = new AtomicInteger();
        List<Boolean> loadedOnFx = new CopyOnWriteArrayList<>();
        List<Integer> applied = new CopyOnWriteArrayList<>();
        List<Boolean> appliedOnFx = new CopyOnWriteArrayList<>();
        CountDownLatch quiet = new CountDownLatch(1);
        try (ThrottledLoader<Integer> loader = new ThrottledLoader<>(
                "test-loader",
                200,
                () -> {
                    loadedOnFx.add(Platform.isFxApplicationThread());
                    return loads.incrementAndGet();
                },
                v -> {
                    appliedOnFx.add(Platform.isFxApplicationThread());
                    applied.add(v);
                })) {
            for (int i = 0; i < 1000; i++) {
                loader.request();
            }
            Thread.sleep(700);
            loader.execute(quiet::countDown);
            assertThat(quiet.await(10, TimeUnit.SECONDS)).isTrue();
            // The first request starts a reload at once; the others merge into at most one more.
            assertThat(loads.get()).isBetween(1, 2);
            assertThat(loadedOnFx).containsOnly(false);
            waitFor(() -> !applied.isEmpty() && applied.get(applied.size() - 1) == loads.get());
            assertThat(appliedOnFx).containsOnly(true);
        }
    }

    @Test
    void twoReloadsStartAtLeastTheMinimumIntervalApart() throws Exception {
        List<Long> starts = new CopyOnWriteArrayList<>();
        try (ThrottledLoader<Integer> loader = new ThrottledLoader<>(
                "test-loader",
                100,
                () -> {
                    starts.add(System.nanoTime());
                    return 1;
                },
                v -> {})) {
            for (int i = 0; i < 5; i++) {
                loader.request();
                Thread.sleep(30);
            }
            waitFor(() -> starts.size() >= 2);
            Thread.sleep(300);
            for (int i = 1; i < starts.size(); i++) {
                assertThat(TimeUnit.NANOSECONDS.toMillis(starts.get(i) - starts.get(i - 1)))
                        .isGreaterThanOrEqualTo(99);
            }
        }
    }

    @Test
    void theSafetyPollReloadsWithoutRequestsAndNothingRunsOnceClosed() throws Exception {
        AtomicInteger loads = new AtomicInteger();
        ThrottledLoader<Integer> loader = new ThrottledLoader<>("test-loader", () -> loads.incrementAndGet(), v -> {});
        loader.every(50);
        waitFor(() -> loads.get() >= 3);
        loader.close();
        Thread.sleep(100);
        int after = loads.get();
        loader.request();
        Thread.sleep(200);
        assertThat(loads.get()).isEqualTo(after);
    }

    private static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waited 10 s").isLessThan(end);
            Thread.sleep(10);
        }
    }
}
