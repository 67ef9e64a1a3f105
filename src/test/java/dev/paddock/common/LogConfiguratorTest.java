package dev.paddock.common;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The appenders are built on the first event, once, and every event reaches them, from any thread. */
class LogConfiguratorTest {
    @Test
    void nothingIsBuiltUntilSomethingIsLoggedThenOnceForEveryThread() throws Exception {
        LoggerContext ctx = new LoggerContext();
        AtomicInteger builds = new AtomicInteger();
        ListAppender<ILoggingEvent> real = new ListAppender<>();
        real.setContext(ctx);
        LogConfigurator.FirstEvent first = new LogConfigurator.FirstEvent(() -> {
            builds.incrementAndGet();
            real.start();
            return List.<Appender<ILoggingEvent>>of(real);
        });
        first.setContext(ctx);
        first.setName("FIRST-EVENT");
        first.start();
        Logger root = ctx.getLogger(Logger.ROOT_LOGGER_NAME);
        root.addAppender(first);
        assertThat(builds.get()).isZero();
        ctx.getLogger("first").info("the first event");

        assertThat(builds.get()).isEqualTo(1);
        int threads = 8;
        int each = 200;
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int n = t;
            Thread th = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < each; i++) {
                    ctx.getLogger("t" + n).info("event {}", i);
                }
            });
            th.start();
            started.add(th);
        }
        go.countDown();
        for (Thread th : started) {
            th.join();
        }

        assertThat(builds.get()).isEqualTo(1);
        assertThat(real.list).hasSize(1 + threads * each);
        assertThat(root.getAppender(first.getName())).isNull();
        assertThat(root.isAttached(real)).isTrue();
    }

    @Test
    void theFirstEventOfAFreshContextBuildsTheAppenders() {
        LoggerContext ctx = new LoggerContext();
        AtomicInteger builds = new AtomicInteger();
        LogConfigurator.FirstEvent first = new LogConfigurator.FirstEvent(() -> {
            builds.incrementAndGet();
            return List.of();
        });
        first.setContext(ctx);
        first.setName("FIRST-EVENT");
        first.start();
        ctx.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(first);

        assertThat(builds.get()).isZero();
        ctx.getLogger("x").warn("now");
        assertThat(builds.get()).isEqualTo(1);
    }
}
