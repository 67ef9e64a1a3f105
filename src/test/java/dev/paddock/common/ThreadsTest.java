package dev.paddock.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ThreadFactory;
import org.junit.jupiter.api.Test;

/** The names and daemon flag of the threads Paddock's executors make (thread dumps and tests look for the names). */
class ThreadsTest {
    @Test
    void daemonThreadsAllCarryTheGivenName() {
        ThreadFactory f = Threads.daemon("supervisor");
        Thread a = f.newThread(() -> {});
        Thread b = f.newThread(() -> {});
        assertThat(a.getName()).isEqualTo("supervisor");
        assertThat(b.getName()).isEqualTo("supervisor");
        assertThat(a.isDaemon()).isTrue();
        assertThat(b.isDaemon()).isTrue();
    }

    @Test
    void numberedThreadsCountFromOnePerFactory() {
        ThreadFactory f = Threads.numbered("api-read");
        assertThat(f.newThread(() -> {}).getName()).isEqualTo("api-read-1");
        Thread second = f.newThread(() -> {});
        assertThat(second.getName()).isEqualTo("api-read-2");
        assertThat(second.isDaemon()).isTrue();
        assertThat(Threads.numbered("api-read").newThread(() -> {}).getName()).isEqualTo("api-read-1");
    }

    @Test
    void theThreadRunsTheTaskItWasMadeFor() throws InterruptedException {
        StringBuilder ran = new StringBuilder();
        Thread t = Threads.daemon("x").newThread(() -> ran.append("ran"));
        t.start();
        t.join(5_000);
        assertThat(ran).hasToString("ran");
    }
}
