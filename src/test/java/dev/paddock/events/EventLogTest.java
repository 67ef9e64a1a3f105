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

    @Test
    void recentLinesAreTheRecentEventsWithoutTheirDetails() throws Exception {
        try (Database db = kind.open(tmp)) {
            EventLog events = new EventLog(db, Clock.systemUTC());
            for (int i = 0; i < 5; i++) {
                events.append(new EventDraft(null, "s" + i, "sandbox.heartbeat", "step " + i, "{\"n\": " + i + "}"));
            }

            var whole = events.recent(-1, 3);
            var lines = events.recentLines(-1, 3);

            assertThat(lines)
                    .extracting(Event::id)
                    .containsExactlyElementsOf(whole.stream().map(Event::id).toList());
            assertThat(lines).extracting(Event::message).containsExactly("step 4", "step 3", "step 2");
            assertThat(lines).extracting(Event::sandboxId).containsExactly("s4", "s3", "s2");
            assertThat(lines).extracting(Event::details).containsOnlyNulls();
            assertThat(whole).extracting(Event::details).containsExactly("{\"n\": 4}", "{\"n\": 3}", "{\"n\": 2}");
        }
    }
}
