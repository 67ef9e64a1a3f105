package dev.paddock.store;

import dev.paddock.events.EventDraft;
import dev.paddock.events.EventLog;
import dev.paddock.merge.MergeEntry;
import dev.paddock.merge.MergeStore;
import dev.paddock.merge.MergeStrategy;
import dev.paddock.repo.RepoStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/**
 * Test helper run as a separate JVM: opens the store at {@code args[0]}, registers the repository {@code args[1]},
 * puts branch {@code args[2]} in its merge queue, prints {@code REPOSITORY <id>} and {@code MERGE <id>} and then
 * waits to be killed.
 */
public final class EnqueueAndWait {
    private EnqueueAndWait() {}

    public static void main(String[] args) throws Exception {
        Database db = Database.open(Path.of(args[0]));
        EventLog events = new EventLog(db, Clock.systemUTC());
        long repo = new RepoStore(db, Clock.systemUTC())
                .register(Path.of(args[1]), "main")
                .repo()
                .id();
        MergeEntry entry = new MergeStore(db, events, Clock.systemUTC())
                .insert(
                        repo,
                        null,
                        args[2],
                        MergeStrategy.MERGE,
                        "the test",
                        EventDraft.of(repo, null, "merge.queued", "Queued " + args[2], Map.of()));
        System.out.println("REPOSITORY " + repo);
        System.out.println("MERGE " + entry.id());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
