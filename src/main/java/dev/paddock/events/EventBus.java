package dev.paddock.events;

import dev.paddock.common.Threads;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Paddock's one in-process event bus: every event {@link EventLog} stores is published here once its transaction
 * committed (never before, and never for a transaction that rolled back), and subscribers hear of it on the bus's
 * own threads.
 *
 * <p>{@link #publish} never blocks and never runs a subscriber: it puts the event in the mailbox of each matching
 * subscriber. Each subscriber's mailbox is drained by one task at a time on a shared pool of daemon threads
 * ({@code event-bus-N}), so one subscriber sees its events in publication order, one at a time, and a slow
 * subscriber holds only its own thread: the others go on. A mailbox holds at most {@link #MAILBOX_LIMIT} events;
 * past that the oldest are dropped (logged), so a stuck subscriber cannot make the publisher run out of memory.
 * Subscribers that only reload something should coalesce (the panel's view models reload through one throttled
 * loader each).
 */
public final class EventBus implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EventBus.class);
    /** Most events waiting for one subscriber; older ones are dropped past this. */
    public static final int MAILBOX_LIMIT = 10_000;

    /** A subscription; closing it stops deliveries (one already running finishes). */
    public interface Subscription extends AutoCloseable {
        @Override
        void close();
    }

    private final ExecutorService pool = Executors.newCachedThreadPool(Threads.numbered("event-bus"));
    private final List<Mailbox> mailboxes = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /**
     * Subscribes to every event {@code filter} accepts.
     *
     * @param filter which events; runs on the publisher's thread, so it must be quick and must not block
     * @param subscriber runs on a bus thread, one event at a time
     */
    public Subscription subscribe(Predicate<? super Event> filter, Consumer<? super Event> subscriber) {
        Mailbox m = new Mailbox(filter, subscriber);
        mailboxes.add(m);
        return () -> {
            m.closed = true;
            mailboxes.remove(m);
        };
    }

    /** Subscribes to the events whose kind starts with one of {@code kindPrefixes} ("approval.", "merge."). */
    public Subscription subscribe(List<String> kindPrefixes, Consumer<? super Event> subscriber) {
        List<String> prefixes = List.copyOf(kindPrefixes);
        return subscribe(e -> e.kind() != null && prefixes.stream().anyMatch(e.kind()::startsWith), subscriber);
    }

    /**
     * Hands {@code event} to its subscribers without waiting for them. Call it only once the event is stored and
     * committed ({@link EventLog} does).
     */
    public void publish(Event event) {
        if (closed || event == null) {
            return;
        }
        for (Mailbox m : mailboxes) {
            boolean wanted;
            try {
                wanted = m.filter.test(event);
            } catch (RuntimeException e) {
                LOG.warn("An event filter failed on {}: {}", event.kind(), e.toString());
                wanted = false;
            }
            if (wanted) {
                m.offer(event);
            }
        }
    }

    /** How many subscriptions are open (tests). */
    public int subscribers() {
        return mailboxes.size();
    }

    /** Stops delivering; events still in mailboxes are dropped. */
    @Override
    public void close() {
        closed = true;
        mailboxes.forEach(m -> m.closed = true);
        mailboxes.clear();
        pool.shutdownNow();
    }

    /** One subscriber's queue of events, drained by at most one task at a time. */
    private final class Mailbox {
        final Predicate<? super Event> filter;
        final Consumer<? super Event> subscriber;
        final Queue<Event> queue = new ConcurrentLinkedQueue<>();
        final AtomicInteger size = new AtomicInteger();
        final AtomicBoolean draining = new AtomicBoolean();
        volatile boolean closed;

        Mailbox(Predicate<? super Event> filter, Consumer<? super Event> subscriber) {
            this.filter = filter;
            this.subscriber = subscriber;
        }

        void offer(Event e) {
            queue.add(e);
            if (size.incrementAndGet() > MAILBOX_LIMIT && queue.poll() != null) {
                size.decrementAndGet();
                LOG.warn("An event subscriber is {} events behind: dropped the oldest", MAILBOX_LIMIT);
            }
            schedule();
        }

        private void schedule() {
            if (!queue.isEmpty() && draining.compareAndSet(false, true)) {
                try {
                    pool.execute(this::drain);
                } catch (RejectedExecutionException shutDown) {
                    draining.set(false);
                }
            }
        }

        private void drain() {
            try {
                Event e;
                while (!closed && (e = queue.poll()) != null) {
                    size.decrementAndGet();
                    try {
                        subscriber.accept(e);
                    } catch (RuntimeException ex) {
                        LOG.warn("An event subscriber failed on {}: {}", e.kind(), ex.toString(), ex);
                    }
                }
            } finally {
                draining.set(false);
            }
            if (!closed) {
                schedule(); // an event offered after the last poll and before draining was cleared
            }
        }
    }
}
