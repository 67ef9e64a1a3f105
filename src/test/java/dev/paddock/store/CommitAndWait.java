package dev.paddock.store;

import dev.paddock.events.EventDraft;
import dev.paddock.events.EventLog;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/**
 * Test helper run as a separate JVM: opens the store at {@code args[0]}, appends one event whose
 * message is {@code args[1]} (or {@code args[2]} events, {@code args[1]} plus " #n", 100 ms apart), prints
 * {@code COMMITTED} and then waits to be killed.
 */
public final class CommitAndWait {
    private CommitAndWait() {}

    public static void main(String[] args) throws Exception {
        Database db = Database.open(Path.of(args[0]));
        EventLog log = new EventLog(db, Clock.systemUTC());
        if (args.length < 3) {
            log.append(EventDraft.of(null, null, "test.committed", args[1], Map.of()));
        } else {
            for (int i = 1; i <= Integer.parseInt(args[2]); i++) {
                log.append(EventDraft.of(null, null, "test.committed", args[1] + " #" + i, Map.of()));
                Thread.sleep(100);
            }
        }
        System.out.println("COMMITTED");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
