package dev.paddock.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.settings.SettingEntry;
import dev.paddock.settings.SettingsStore;
import dev.paddock.store.Database;
import dev.paddock.testing.StoreKind;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Old events are deleted after {@code events.retentionDays}, on a real store. */
@ParameterizedClass(name = "{0}")
@EnumSource(StoreKind.class)
class EventRetentionTest {
    private static final Instant NOW = Instant.parse("2026-12-05T12:00:00Z");

    @TempDir
    Path tmp;

    private final StoreKind kind;

    EventRetentionTest(StoreKind kind) {
        this.kind = kind;
    }

    @Test
    void eventsOlderThanTheRetentionAreDeletedAndNewerOnesKept() throws Exception {
        try (Database db = kind.open(tmp)) {
            Clock now = Clock.fixed(NOW, ZoneOffset.UTC);
            EventLog old = new EventLog(db, Clock.fixed(NOW.minus(Duration.ofDays(40)), ZoneOffset.UTC));
            EventLog recent = new EventLog(db, Clock.fixed(NOW.minus(Duration.ofDays(20)), ZoneOffset.UTC));
            for (int i = 0; i < 12_000; i++) {
                old.append(EventDraft.of(null, "sb-" + i % 10, "test.old", "old " + i, Map.of()));
            }
            recent.append(EventDraft.of(null, "sb-1", "test.recent", "recent", Map.of()));
            SettingsStore settings = new SettingsStore(db, new EventLog(db, now));
            EventRetention retention = new EventRetention(new EventLog(db, now), () -> get(settings), now);

            assertThat(settings.entry("events.retentionDays"))
                    .extracting(SettingEntry::value)
                    .isEqualTo("365");
            assertThat(retention.deleteOld()).as("a year: nothing is that old").isZero();

            settings.set("events.retentionDays", "30", "the test");
            assertThat(retention.deleteOld()).isEqualTo(12_000);
            assertThat(db.jdbc().query("SELECT kind FROM events ORDER BY id", rs -> rs.getString(1)))
                    .containsExactly("test.recent", "setting.changed");

            settings.set("events.retentionDays", "0", "the test");
            assertThat(new EventRetention(
                                    new EventLog(db, now),
                                    () -> get(settings),
                                    Clock.fixed(NOW.plus(Duration.ofDays(9_000)), ZoneOffset.UTC))
                            .deleteOld())
                    .as("0 keeps all")
                    .isZero();
        }
    }

    private static int get(SettingsStore settings) {
        try {
            return settings.get(SettingsStore.EVENTS_RETENTION_DAYS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
