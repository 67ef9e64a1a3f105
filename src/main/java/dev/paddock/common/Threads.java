package dev.paddock.common;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Thread factories for Paddock's executors. Every long-lived thread is a daemon (it never keeps the JVM alive;
 * its owner stops it on close) and has a name from the table in {@code docs/architecture.md}, which is what a
 * thread dump shows.
 */
public final class Threads {
    private Threads() {}

    /** Daemon threads all named {@code name} (for single-thread executors, or pools whose threads are alike). */
    public static ThreadFactory daemon(String name) {
        return r -> make(r, name);
    }

    /** Daemon threads named {@code name-1}, {@code name-2}, … in the order this factory makes them. */
    public static ThreadFactory numbered(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> make(r, name + "-" + n.incrementAndGet());
    }

    /** A daemon thread named {@code name} that runs {@code task}, not started yet (its owner starts it). */
    public static Thread daemonThread(String name, Runnable task) {
        return make(task, name);
    }

    /** Starts {@code task} on a new daemon thread named {@code name} (one-off work: a start-up step, a watchdog). */
    public static Thread start(String name, Runnable task) {
        Thread t = make(task, name);
        t.start();
        return t;
    }

    private static Thread make(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
