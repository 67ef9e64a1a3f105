package dev.paddock.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.paddock.events.Event;
import dev.paddock.events.EventLog;
import dev.paddock.store.Database;
import dev.paddock.testing.StoreKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** The settings registry over a real store (an H2 file, a PostgreSQL database): listing, changing, resetting, refusing bad input. */
@ParameterizedClass(name = "{0}")
@EnumSource(StoreKind.class)
class SettingsStoreTest {
    @TempDir
    Path tmp;

    private final StoreKind kind;

    SettingsStoreTest(StoreKind kind) {
        this.kind = kind;
    }

    private Database db;
    private EventLog events;
    private SettingsStore settings;

    @BeforeEach
    void open() throws Exception {
        db = kind.open(tmp);
        events = new EventLog(db, Clock.systemUTC());
        settings = new SettingsStore(db, events);
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void allListsEveryKnownSettingWithItsDefaultUnitAndBounds() throws Exception {
        List<SettingEntry> all = settings.all();

        assertThat(all)
                .extracting(SettingEntry::name)
                .containsExactly(
                        "agents.aider.executable",
                        "agents.claude.executable",
                        "agents.codex.executable",
                        "agents.gemini.executable",
                        "approval.timeoutMs",
                        "checkpoints.everySeconds",
                        "checkpoints.keep",
                        "checkpoints.retentionDays",
                        "events.retentionDays",
                        "layers.capMb",
                        "reconcile.intervalMs",
                        "sandbox.killGraceMs",
                        "sandbox.leaseMs",
                        "sandbox.maxRetries",
                        "ui.notifications.desktop");
        assertThat(all).allSatisfy(e -> {
            assertThat(e.isDefault()).isTrue();
            assertThat(e.value()).isEqualTo(e.defaultValue());
            assertThat(e.type()).isEqualTo(e.name().startsWith("agents.") ? "executable" : "integer");
            assertThat(e.description()).isNotBlank();
        });
        assertThat(all.get(13))
                .isEqualTo(new SettingEntry(
                        "sandbox.maxRetries",
                        "integer",
                        "2",
                        "2",
                        "retries",
                        SettingsStore.SANDBOX_MAX_RETRIES.description(),
                        "a whole number from 0 to 100 (retries)",
                        true));
        assertThat(all.get(12).allowed()).isEqualTo("a whole number from 1000 to 86400000 (ms)");
        assertThat(all.get(11).allowed()).isEqualTo("a whole number from 0 to 600000 (ms)");
        assertThat(all.get(10).allowed()).isEqualTo("a whole number from 10000 to 86400000 (ms)");
        assertThat(all.get(9).allowed()).isEqualTo("a whole number from 0 to 1048576 (MiB)");
        assertThat(all.get(5))
                .extracting(SettingEntry::name, SettingEntry::value)
                .containsExactly("checkpoints.everySeconds", "0");
        assertThat(all.get(4).allowed()).isEqualTo("a whole number from 1000 to 86400000 (ms)");
        assertThat(all.get(1))
                .isEqualTo(new SettingEntry(
                        "agents.claude.executable",
                        "executable",
                        "",
                        "",
                        "",
                        SettingsStore.AGENTS_CLAUDE_EXECUTABLE.description(),
                        "the absolute path of an executable file, or \"\" for none",
                        true));
    }

    @Test
    void setGetAndResetRoundTripAndEachChangeIsAnEvent() throws Exception {
        SettingEntry changed = settings.set("sandbox.maxRetries", " 5 ", "ann via the CLI");

        assertThat(changed.value()).isEqualTo("5");
        assertThat(changed.isDefault()).isFalse();
        assertThat(settings.get(SettingsStore.SANDBOX_MAX_RETRIES)).isEqualTo(5);
        assertThat(settings.entry("sandbox.maxRetries")).isEqualTo(changed);

        SettingEntry reset = settings.reset("sandbox.maxRetries", "bob");

        assertThat(reset.value()).isEqualTo("2");
        assertThat(reset.isDefault()).isTrue();
        assertThat(settings.get(SettingsStore.SANDBOX_MAX_RETRIES)).isEqualTo(2);
        assertThat(events.recent(-1, 10))
                .extracting(Event::kind, Event::message)
                .containsExactly(
                        tuple("setting.reset", "Setting sandbox.maxRetries reset 5 → 2 (the default) by bob"),
                        tuple("setting.changed", "Setting sandbox.maxRetries changed 2 → 5 by ann via the CLI"));
    }

    @Test
    void settingTheValueInEffectAgainRecordsNoEvent() throws Exception {
        settings.set("sandbox.leaseMs", "60000", "ann");
        settings.set("sandbox.leaseMs", "60000", "ann");
        settings.reset("sandbox.killGraceMs", "ann");

        assertThat(events.recent(-1, 10))
                .extracting(Event::message)
                .containsExactly("Setting sandbox.leaseMs changed 900000 → 60000 by ann");
    }

    @Test
    void badValuesAreRefusedNamingTheSettingTheValueAndWhatIsAllowedAndChangeNothing() throws Exception {
        settings.set("sandbox.maxRetries", "7", "ann");

        assertThatThrownBy(() -> settings.set("sandbox.maxRetries", "101", "ann"))
                .isInstanceOf(InvalidSettingValueException.class)
                .hasMessage("Setting sandbox.maxRetries cannot be \"101\": it takes a whole number from 0 to 100"
                        + " (retries).");
        assertThatThrownBy(() -> settings.set("sandbox.maxRetries", "-1", "ann"))
                .isInstanceOf(InvalidSettingValueException.class);
        assertThatThrownBy(() -> settings.set("sandbox.maxRetries", "three", "ann"))
                .hasMessageContaining("cannot be \"three\"");
        assertThatThrownBy(() -> settings.set("sandbox.maxRetries", "", "ann"))
                .isInstanceOf(InvalidSettingValueException.class);
        assertThatThrownBy(() -> settings.set("sandbox.leaseMs", "999", "ann"))
                .hasMessage("Setting sandbox.leaseMs cannot be \"999\": it takes a whole number from 1000 to 86400000"
                        + " (ms).");
        assertThatThrownBy(() -> settings.set("reconcile.intervalMs", "9999", "ann"))
                .isInstanceOf(InvalidSettingValueException.class);
        assertThatThrownBy(() -> settings.set("sandbox.killGraceMs", "600001", "ann"))
                .isInstanceOf(InvalidSettingValueException.class);

        // Digits of other scripts (Arabic-Indic 5, Devanagari 5, full-width 5) and signs are not whole numbers here.
        for (String notAscii : new String[] {"\u0665", "\u096B", "\uFF15", "+5", "\u0031\u0660"}) {
            assertThatThrownBy(() -> settings.set("sandbox.maxRetries", notAscii, "ann"))
                    .as(notAscii)
                    .isInstanceOf(InvalidSettingValueException.class);
        }

        assertThat(settings.get(SettingsStore.SANDBOX_MAX_RETRIES)).isEqualTo(7);
        assertThat(settings.all()).filteredOn(SettingEntry::isDefault).hasSize(14);
        assertThat(events.recent(-1, 10)).hasSize(1);
    }

    @Test
    void unknownNamesAreRefusedListingTheKnownOnes() throws Exception {
        String known = "Known settings: agents.aider.executable, agents.claude.executable, agents.codex.executable,"
                + " agents.gemini.executable, approval.timeoutMs, checkpoints.everySeconds, checkpoints.keep,"
                + " checkpoints.retentionDays, events.retentionDays, layers.capMb, reconcile.intervalMs,"
                + " sandbox.killGraceMs, sandbox.leaseMs, sandbox.maxRetries, ui.notifications.desktop.";

        assertThatThrownBy(() -> settings.set("sandbox.maxretries", "5", "ann"))
                .isInstanceOf(UnknownSettingException.class)
                .hasMessage("There is no setting \"sandbox.maxretries\". " + known);
        assertThatThrownBy(() -> settings.reset("nope", "ann")).isInstanceOf(UnknownSettingException.class);
        assertThatThrownBy(() -> settings.entry("nope")).isInstanceOf(UnknownSettingException.class);
        assertThat(settings.all()).allSatisfy(e -> assertThat(e.isDefault()).isTrue());
        assertThat(events.recent(-1, 10)).isEmpty();
    }

    @Test
    void putKeepsWorkingForCodeButRefusesOutOfBoundsValues() throws Exception {
        settings.put(SettingsStore.SANDBOX_KILL_GRACE_MS, 500L);

        assertThat(settings.get(SettingsStore.SANDBOX_KILL_GRACE_MS)).isEqualTo(500L);
        assertThatThrownBy(() -> settings.put(SettingsStore.SANDBOX_MAX_RETRIES, -3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sandbox.maxRetries cannot be \"-3\"");
        assertThat(settings.get(SettingsStore.SANDBOX_MAX_RETRIES)).isEqualTo(2);
    }

    @Test
    void aStoredValueThatIsNoLongerAllowedGivesTheDefault() throws Exception {
        db.jdbc().update("INSERT INTO settings (name, setting_value) VALUES (?, ?)", "sandbox.maxRetries", "5000");

        assertThat(settings.get(SettingsStore.SANDBOX_MAX_RETRIES)).isEqualTo(2);
        assertThat(settings.entry("sandbox.maxRetries").isDefault()).isTrue();
        assertThat(settings.set("sandbox.maxRetries", "3", "ann").value()).isEqualTo("3");
    }

    @Test
    void anAgentsExecutableIsAnExecutableFileWhenSetAndEmptyMeansThePath() throws Exception {
        Path program = Files.writeString(tmp.resolve("claude"), "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(program, PosixFilePermissions.fromString("rwx------"));
        Path plain = Files.writeString(tmp.resolve("notes.txt"), "not a program");
        Path dir = Files.createDirectories(tmp.resolve("bin"));

        SettingEntry set = settings.set("agents.claude.executable", " " + program + " ", "ann");

        assertThat(set.value()).isEqualTo(program.toString());
        assertThat(set.isDefault()).isFalse();
        assertThat(settings.get(SettingsStore.AGENTS_CLAUDE_EXECUTABLE)).isEqualTo(program.toString());
        String takes = "; it takes the absolute path of an executable file, or \"\" for none.";
        assertThatThrownBy(() -> settings.set(
                        "agents.codex.executable", tmp.resolve("nope").toString(), "ann"))
                .isInstanceOf(InvalidSettingValueException.class)
                .hasMessage("Setting agents.codex.executable cannot be \"" + tmp.resolve("nope")
                        + "\": there is no such file" + takes);
        assertThatThrownBy(() -> settings.set("agents.codex.executable", plain.toString(), "ann"))
                .hasMessage("Setting agents.codex.executable cannot be \"" + plain
                        + "\": it is not executable (chmod +x)" + takes);
        assertThatThrownBy(() -> settings.set("agents.codex.executable", dir.toString(), "ann"))
                .hasMessageContaining("it is not a file");
        assertThatThrownBy(() -> settings.set("agents.codex.executable", "codex", "ann"))
                .hasMessage("Setting agents.codex.executable cannot be \"codex\":" + takes.substring(1));
        assertThatThrownBy(() -> settings.set("agents.codex.executable", "/usr/bin/x\n/bin/y", "ann"))
                .isInstanceOf(InvalidSettingValueException.class);
        assertThat(settings.get(SettingsStore.AGENTS_CODEX_EXECUTABLE)).isEmpty();

        // A program that went away after it was set stays the setting's value: whoever runs it says it is gone.
        Files.delete(program);
        assertThat(settings.get(SettingsStore.AGENTS_CLAUDE_EXECUTABLE)).isEqualTo(program.toString());

        SettingEntry cleared = settings.set("agents.claude.executable", "", "ann");
        assertThat(cleared.isDefault()).isTrue();
        assertThat(events.recent(-1, 10))
                .extracting(Event::message)
                .containsExactly(
                        "Setting agents.claude.executable changed " + program + " → \"\" by ann",
                        "Setting agents.claude.executable changed \"\" → " + program + " by ann");
    }

    @Test
    void aChangeSurvivesReopeningTheStore() throws Exception {
        settings.set("reconcile.intervalMs", "60000", "ann");
        db.close();
        db = kind.open(tmp);

        assertThat(new SettingsStore(db).get(SettingsStore.RECONCILE_INTERVAL_MS))
                .isEqualTo(60_000L);
    }
}
