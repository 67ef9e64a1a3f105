package dev.paddock.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.store.Database;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The event log on a real H2 file. */
class EventLogTest {
    @TempDir
    Path tmp;

    @Test
    void aMessageLongerThanItsColumnIsStoredShortenedAndItsDetailsWhole() throws Exception {
        try (Database db = Database.open(tmp.resolve("paddock"))) {
            EventLog events = new EventLog(db, Clock.systemUTC());
            String message = "x needs a person: " + "the error said so. ".repeat(1000);
            String details = "{\"error\": \"" + "e".repeat(50_000) + "\"}";

            events.append(new EventDraft(null, "x", "sandbox.awaiting_human", message, details));

            Event e = events.ofSandbox("x").get(0);
            assertThat(e.message())
                    .hasSize(EventLog.MESSAGE_MAX)
                    .startsWith("x needs a person: the error")
                    .endsWith("…");
            assertThat(e.details()).isEqualTo(details);
        }
    }
}
