package dev.paddock.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.store.Database;
import dev.paddock.store.StoreException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The in-process event bus, fed by the event log of a real H2 file. */
class EventBusTest {
    @TempDir
    Path tmp;

    @Test
    void anEventIsPublishedOnlyOnceItsTransactionCommittedAndThenIsReadable() throws Exception {
        try (Database db = Database.open(tmp.resolve("paddock"));
                EventBus bus = new EventBus()) {
            EventLog log = new EventLog(db, Clock.systemUTC(), bus);
            BlockingQueue<Event> heard = new LinkedBlockingQueue<>();
            List<Integer> storedWhenHeard = new CopyOnWriteArrayList<>();
            bus.subscribe(e -> true, e -> {
                try {
                    storedWhenHeard.add(log.ofSandbox("s1").size());
                } catch (StoreException ex) {
                    storedWhenHeard.add(-1);
                }
                heard.add(e);
            });
            CountDownLatch insideTx = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Thread writer = new Thread(() -> {
                try {
                    db.jdbc().inTransaction(tx -> {
                        log.append(tx, EventDraft.of(null, "s1", "sandbox.running", "s1 runs", null));
                        insideTx.countDown();
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            throw new SQLException(e);
                        }
                        return null;
                    });
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            writer.start();
            assertThat(insideTx.await(10, TimeUnit.SECONDS)).isTrue();
            // Appended but not committed: nobody hears of it.
            assertThat(heard.poll(300, TimeUnit.MILLISECONDS)).isNull();
            release.countDown();
            writer.join(10_000);

            Event e = heard.poll(10, TimeUnit.SECONDS);
            assertThat(e).isNotNull();
            assertThat(e.kind()).isEqualTo("sandbox.running");
            assertThat(e).isEqualTo(log.ofSandbox("s1").get(0));
            assertThat(storedWhenHeard).containsExactly(1);
        }
    }

    @Test
    void anEventOfATransactionThatRolledBackIsNeverPublished() throws Exception {
        try (Database db = Database.open(tmp.resolve("paddock"));
                EventBus bus = new EventBus()) {
            EventLog log = new EventLog(db, Clock.systemUTC(), bus);
            BlockingQueue<Event> heard = new LinkedBlockingQueue<>();
            bus.subscribe(e -> true, heard::add);

            assertThatThrownBy(() -> db.jdbc().inTransaction(tx -> {
                        log.append(tx, EventDraft.of(null, "s1", "sandbox.running", "s1 runs", null));
                        throw new SQLException("the change failed");
                    }))
                    .isInstanceOf(StoreException.class);
            log.append(EventDraft.of(null, "s2", "sandbox.stopped", "s2 stopped", null));

            Event first = heard.poll(10, TimeUnit.SECONDS);
            assertThat(first).isNotNull();
            assertThat(first.sandboxId()).isEqualTo("s2");
            assertThat(heard.poll(300, TimeUnit.MILLISECONDS)).isNull();
            assertThat(log.ofSandbox("s1")).isEmpty();
        }
    }

    @Test
    void aSlowSubscriberNeitherBlocksThePublisherNorStallsTheOthers() throws Exception {
        try (EventBus bus = new EventBus()) {
            CountDownLatch stuck = new CountDownLatch(1);
            BlockingQueue<Event> slowHeard = new LinkedBlockingQueue<>();
            bus.subscribe(e -> true, e -> {
                try {
                    stuck.await();
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
                slowHeard.add(e);
            });
            BlockingQueue<Event> fastHeard = new LinkedBlockingQueue<>();
            bus.subscribe(e -> true, fastHeard::add);

            Thread publisher = Thread.currentThread();
            List<Thread> deliveredOn = new CopyOnWriteArrayList<>();
            bus.subscribe(e -> true, e -> deliveredOn.add(Thread.currentThread()));
            for (int i = 1; i <= 100; i++) {
                bus.publish(event(i, "merge.enqueued"));
            }

            for (int i = 1; i <= 100; i++) {
                Event e = fastHeard.poll(10, TimeUnit.SECONDS);
                assertThat(e).isNotNull();
                assertThat(e.id()).isEqualTo(i); // in publication order
            }
            assertThat(slowHeard).isEmpty();
            assertThat(deliveredOn).doesNotContain(publisher);
            stuck.countDown();
            for (int i = 1; i <= 100; i++) {
                assertThat(slowHeard.poll(10, TimeUnit.SECONDS))
                        .extracting(Event::id)
                        .isEqualTo((long) i);
            }
        }
    }

    @Test
    void subscribersHearOnlyTheKindsTheyAskedForAndNothingOnceClosed() throws Exception {
        try (EventBus bus = new EventBus()) {
            BlockingQueue<Event> approvals = new LinkedBlockingQueue<>();
            EventBus.Subscription s = bus.subscribe(List.of("approval."), approvals::add);
            bus.publish(event(1, "merge.merged"));
            bus.publish(event(2, "approval.requested"));
            assertThat(approvals.poll(10, TimeUnit.SECONDS))
                    .extracting(Event::id)
                    .isEqualTo(2L);
            assertThat(approvals.poll(200, TimeUnit.MILLISECONDS)).isNull();

            s.close();
            bus.publish(event(3, "approval.approved"));
            assertThat(approvals.poll(300, TimeUnit.MILLISECONDS)).isNull();
            assertThat(bus.subscribers()).isZero();
        }
    }

    @Test
    void aFailingSubscriberDoesNotStopItsLaterEvents() throws Exception {
        try (EventBus bus = new EventBus()) {
            BlockingQueue<Event> heard = new LinkedBlockingQueue<>();
            bus.subscribe(e -> true, e -> {
                if (e.id() == 1) {
                    throw new IllegalStateException("boom");
                }
                heard.add(e);
            });
            bus.publish(event(1, "merge.merged"));
            bus.publish(event(2, "merge.merged"));
            assertThat(heard.poll(10, TimeUnit.SECONDS)).extracting(Event::id).isEqualTo(2L);
        }
    }

    private static Event event(long id, String kind) {
        return new Event(id, java.time.Instant.now(), 1L, null, kind, kind, null);
    }
}
