package dev.paddock.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.store.Database;
import dev.paddock.testing.StoreKind;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** The event log in a real store, an H2 file and a PostgreSQL database. */
@ParameterizedClass(name = "{0}")
@EnumSource(StoreKind.class)
class EventLogTest {
    @TempDir
    Path tmp;

    private final StoreKind kind;

    EventLogTest(StoreKind kind) {
        this.kind = kind;
    }

    @Test
    void aMessageLongerThanItsColumnIsStoredShortenedAndItsDetailsWhole() throws Exception {
        try (Database db = kind.open(tmp)) {
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
