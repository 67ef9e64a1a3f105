package dev.paddock.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.store.Database;
import dev.paddock.testing.PrivatePostgres;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The events a panel shows on a store two Paddocks share: its own once, the other's read from the store, and the
 * other's never on its own bus (where checkpoints act on them).
 */
class StoreEventFeedTest {
    private Database a;
    private Database b;
    private final EventBus busA = new EventBus();
    private final EventBus busB = new EventBus();
    private StoreEventFeed feed;

    @BeforeEach
    void setUp() throws Exception {
        PrivatePostgres.Db pg = PrivatePostgres.newDatabase();
        a = Database.openServer(pg.urlWithLogin());
        b = Database.openServer(pg.urlWithLogin());
    }

    @AfterEach
    void tearDown() {
        if (feed != null) {
            feed.close();
        }
        busA.close();
        busB.close();
        a.close();
        b.close();
    }

    @Test
    void theFeedHearsItsOwnEventsOnceAndTheOthersWithinAPoll() throws Exception {
        EventLog logA = new EventLog(a, Clock.systemUTC(), busA);
        EventLog logB = new EventLog(b, Clock.systemUTC(), busB);
        logA.append(new EventDraft(null, "s-0", "sandbox.created", "before the feed", null));
        feed = StoreEventFeed.start(logB, busB, true);
        List<String> shown = new CopyOnWriteArrayList<>();
        feed.bus().subscribe(e -> true, e -> shown.add(e.message()));
        List<String> onOwnBus = new CopyOnWriteArrayList<>();
        busB.subscribe(e -> true, e -> onOwnBus.add(e.message()));

        logB.append(new EventDraft(null, "s-1", "sandbox.created", "made by B", null));
        logA.append(new EventDraft(null, "s-2", "sandbox.created", "made by A", null));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!shown.contains("made by A") && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        feed.poll();
        Thread.sleep(200); // deliveries are asynchronous

        assertThat(shown).containsExactlyInAnyOrder("made by B", "made by A");
        assertThat(onOwnBus).containsExactly("made by B");
    }
}
