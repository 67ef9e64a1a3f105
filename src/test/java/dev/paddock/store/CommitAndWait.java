package dev.paddock.store;

import dev.paddock.events.EventDraft;
import dev.paddock.events.EventLog;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/**
 * Test helper run as a separate JVM: opens the store at {@code args[0]}, appends one event whose
 * message is {@code args[1]}, prints {@code COMMITTED} and then waits to be killed.
 */
public final class CommitAndWait {
    private CommitAndWait() {
    }

    public static void main(String[] args) throws Exception {
        Database db = Database.open(Path.of(args[0]));
        new EventLog(db, Clock.systemUTC()).append(EventDraft.of(null, null, "test.committed", args[1], Map.of()));
        System.out.println("COMMITTED");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
