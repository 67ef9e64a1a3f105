package dev.paddock.settings;

import dev.paddock.common.PaddockException;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventKinds;
import dev.paddock.events.EventLog;
import dev.paddock.store.Database;
import dev.paddock.store.Jdbc;
import dev.paddock.store.StoreException;
import java.sql.SQLException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Paddock's settings: the registry of known ones ({@link #KNOWN}, defaults in code) and their values in
 * the store ({@code settings} table, one row per setting changed from its default).
 *
 * <p>Readers call {@link #get} each time they need a value, so a change takes effect without a restart:
 * {@code sandbox.maxRetries} and {@code sandbox.leaseMs} for the next sandbox created (a sandbox keeps the
 * values it was created with), {@code sandbox.killGraceMs} for the next stop, {@code reconcile.intervalMs}
 * from the wait after the reconciler's next pass.
 */
public final class SettingsStore {
    private static final Logger LOG = LoggerFactory.getLogger(SettingsStore.class);

    /** Automatic retries of a failed or timed-out sandbox before a person is asked: 0 to 100. */
    public static final Setting<Integer> SANDBOX_MAX_RETRIES = Setting.ofInt(
            "sandbox.maxRetries",
            2,
            0,
            100,
            "retries",
            "Automatic retries of a failed or timed-out sandbox before a person is asked.");

    /** Default lease of a sandbox, in ms (15 minutes): 1 s to 24 h. */
    public static final Setting<Long> SANDBOX_LEASE_MS = Setting.ofLong(
            "sandbox.leaseMs",
            15 * 60_000L,
            1_000L,
            24 * 3_600_000L,
            "ms",
            "Lease of a new sandbox: how long its agent may go without a heartbeat.");

    /** Grace period between SIGTERM and SIGKILL when stopping an agent's process tree, in ms: 0 to 10 min. */
    public static final Setting<Long> SANDBOX_KILL_GRACE_MS = Setting.ofLong(
            "sandbox.killGraceMs",
            3_000L,
            0L,
            600_000L,
            "ms",
            "Time an agent's processes get between SIGTERM and SIGKILL when stopped.");

    /**
     * Period of the reconciler, in ms (5 minutes): 10 s to 24 h. How often records, {@code git worktree list},
     * the folders under {@code .worktrees/} and live processes are compared (also once at start).
     */
    public static final Setting<Long> RECONCILE_INTERVAL_MS = Setting.ofLong(
            "reconcile.intervalMs",
            5 * 60_000L,
            10_000L,
            24 * 3_600_000L,
            "ms",
            "How often records, worktrees, folders and processes are compared.");

    /**
     * How long a request the policy asks about waits for a person before it is denied, in ms (default
     * 10 minutes): 1 s to 24 h. The Claude Code hook's own {@code timeout} must be longer (see
     * {@code paddock hook install}).
     */
    public static final Setting<Long> APPROVAL_TIMEOUT_MS = Setting.ofLong(
            "approval.timeoutMs",
            10 * 60_000L,
            1_000L,
            24 * 3_600_000L,
            "ms",
            "How long an agent's request waits for a person before it is denied.");

    /**
     * How long the event log keeps an event, in days (a year): 0 keeps every event. Older ones are deleted once an
     * hour, so the store does not grow with the log for ever.
     */
    public static final Setting<Integer> EVENTS_RETENTION_DAYS = Setting.ofInt(
            "events.retentionDays",
            365,
            0,
            36_500,
            "days",
            "Events older than this are deleted, once an hour (0 keeps them all).");

    /**
     * How many checkpoints each sandbox keeps (100): 0 keeps them all. Past it, the oldest checkpoint's ref and row
     * are deleted after each new one.
     */
    public static final Setting<Integer> CHECKPOINTS_KEEP = Setting.ofInt(
            "checkpoints.keep",
            100,
            0,
            100_000,
            "checkpoints",
            "Checkpoints each sandbox keeps; older ones are deleted (0 keeps them all).");

    /** How long a checkpoint is kept, in days (0, the default: for good); never a sandbox's newest one. */
    public static final Setting<Integer> CHECKPOINTS_RETENTION_DAYS = Setting.ofInt(
            "checkpoints.retentionDays",
            0,
            0,
            36_500,
            "days",
            "Checkpoints older than this are deleted, never a sandbox's newest (0 keeps them for good).");

    /** How often a running sandbox is checkpointed when its worktree changed, in seconds (0, the default: never). */
    public static final Setting<Integer> CHECKPOINTS_EVERY_S = Setting.ofInt(
            "checkpoints.everySeconds",
            0,
            0,
            86_400,
            "s",
            "Checkpoint running sandboxes whose files changed this often (0: only at the end of each turn).");

    /**
     * The most a namespace sandbox may write into each shared layer, in MiB (0, the default: no cap, the writes are
     * kept on disk). With a cap the writes go to a size-limited tmpfs that lasts as long as the run; a write past it
     * fails with "No space left on device".
     */
    public static final Setting<Integer> LAYERS_CAP_MB = Setting.ofInt(
            "layers.capMb",
            0,
            0,
            1_048_576,
            "MiB",
            "The most a sandbox may write into each shared layer (0: no cap; a cap keeps the writes in memory for"
                    + " the run).");

    /** Claude Code's program: an absolute path, or empty to look for {@code claude} on Paddock's PATH. */
    public static final Setting<String> AGENTS_CLAUDE_EXECUTABLE = agentExecutable("claude", "Claude Code");

    /** Codex's program: an absolute path, or empty to look for {@code codex} on Paddock's PATH. */
    public static final Setting<String> AGENTS_CODEX_EXECUTABLE = agentExecutable("codex", "Codex");

    /** Gemini CLI's program: an absolute path, or empty to look for {@code gemini} on Paddock's PATH. */
    public static final Setting<String> AGENTS_GEMINI_EXECUTABLE = agentExecutable("gemini", "Gemini CLI");

    /** Aider's program: an absolute path, or empty to look for {@code aider} on Paddock's PATH. */
    public static final Setting<String> AGENTS_AIDER_EXECUTABLE = agentExecutable("aider", "Aider");

    /**
     * Whether the panel shows a desktop notification ({@code notify-send}) when a sandbox starts waiting for you: 1
     * (the default) or 0. None is shown for the sandbox you are looking at (the window focused and it selected).
     */
    public static final Setting<Integer> UI_NOTIFICATIONS_DESKTOP = Setting.ofInt(
            "ui.notifications.desktop",
            1,
            0,
            1,
            "on=1/off=0",
            "A desktop notification when a sandbox starts waiting for you (1), or none (0).");

    /** Every known setting, by name. */
    public static final List<Setting<?>> KNOWN = List.of(
            AGENTS_AIDER_EXECUTABLE,
            AGENTS_CLAUDE_EXECUTABLE,
            AGENTS_CODEX_EXECUTABLE,
            AGENTS_GEMINI_EXECUTABLE,
            APPROVAL_TIMEOUT_MS,
            CHECKPOINTS_EVERY_S,
            CHECKPOINTS_KEEP,
            CHECKPOINTS_RETENTION_DAYS,
            EVENTS_RETENTION_DAYS,
            LAYERS_CAP_MB,
            RECONCILE_INTERVAL_MS,
            SANDBOX_KILL_GRACE_MS,
            SANDBOX_LEASE_MS,
            SANDBOX_MAX_RETRIES,
            UI_NOTIFICATIONS_DESKTOP);

    private final Jdbc jdbc;
    private final EventLog events;

    private static Setting<String> agentExecutable(String agent, String product) {
        return Setting.ofExecutable(
                "agents." + agent + ".executable",
                "The " + product + " program sandboxes run" + " (\"\": " + agent
                        + " on Paddock's PATH); worktree and namespace tiers.");
    }

    /** Settings of {@code db}; changes are recorded in its event log. */
    public SettingsStore(Database db) {
        this(db, new EventLog(db, Clock.systemUTC()));
    }

    /** Settings of {@code db}; changes are recorded in {@code events}. */
    public SettingsStore(Database db, EventLog events) {
        this.jdbc = db.jdbc();
        this.events = events;
    }

    /**
     * The known setting called {@code name}.
     *
     * @throws UnknownSettingException when there is none; its message lists the known names
     */
    public static Setting<?> known(String name) throws UnknownSettingException {
        return KNOWN.stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new UnknownSettingException(
                        name, KNOWN.stream().map(Setting::name).toList()));
    }

    /**
     * The value in effect: the stored one, or the default when none is stored or the stored text is not
     * a value the setting allows (logged).
     *
     * @throws StoreException when the store cannot be read
     */
    public <T> T get(Setting<T> setting) throws StoreException {
        return effective(
                setting,
                jdbc.queryOne(
                        "SELECT setting_value FROM settings WHERE name = ?", rs -> rs.getString(1), setting.name()));
    }

    /**
     * Stores a value (for code; people's text goes through {@link #set}). Records no event.
     *
     * @throws IllegalArgumentException when the value is out of the setting's bounds (nothing is stored)
     * @throws StoreException when the store cannot be written
     */
    public <T> void put(Setting<T> setting, T value) throws StoreException {
        T checked = setting.check(value);
        jdbc.inTransaction(tx -> {
            write(tx, setting, checked);
            return null;
        });
    }

    /**
     * Every known setting with the value in effect, by name.
     *
     * @throws StoreException when the store cannot be read
     */
    public List<SettingEntry> all() throws StoreException {
        Map<String, String> stored = jdbc
                .query("SELECT name, setting_value FROM settings", rs -> Map.entry(rs.getString(1), rs.getString(2)))
                .stream()
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new));
        return KNOWN.stream()
                .map(s -> entry(s, Optional.ofNullable(stored.get(s.name()))))
                .toList();
    }

    /**
     * One setting with the value in effect.
     *
     * @throws UnknownSettingException when no setting has that name
     * @throws StoreException when the store cannot be read
     */
    public SettingEntry entry(String name) throws PaddockException {
        Setting<?> s = known(name);
        return entry(
                s, jdbc.queryOne("SELECT setting_value FROM settings WHERE name = ?", rs -> rs.getString(1), s.name()));
    }

    /**
     * Changes a setting from people's text and records the change as an event ("Setting sandbox.maxRetries
     * changed 2 → 5 by ann") when the value in effect changes. Setting the default value is the same as
     * {@link #reset}, except for the event's kind.
     *
     * @param who who asks, for the event, e.g. "ann via the CLI"
     * @return the setting with its new value
     * @throws UnknownSettingException when no setting has that name (nothing changed)
     * @throws InvalidSettingValueException when the text is not a value it allows (nothing changed)
     * @throws StoreException when the store cannot be written (nothing changed)
     */
    public SettingEntry set(String name, String text, String who) throws PaddockException {
        return change(known(name), text, who);
    }

    /**
     * Puts a setting back to its default and records the change as an event when the value in effect
     * changes.
     *
     * @param who who asks, for the event
     * @return the setting with its default value
     * @throws UnknownSettingException when no setting has that name (nothing changed)
     * @throws StoreException when the store cannot be written (nothing changed)
     */
    public SettingEntry reset(String name, String who) throws PaddockException {
        return change(known(name), null, who);
    }

    /** {@code text} null means: back to the default. */
    private <T> SettingEntry change(Setting<T> s, String text, String who) throws PaddockException {
        T next = text == null ? s.defaultValue() : s.parseNew(text);
        String kind = text == null ? EventKinds.SETTING_RESET : EventKinds.SETTING_CHANGED;
        return jdbc.inTransaction(tx -> {
            T before = effective(
                    s,
                    tx.queryOne("SELECT setting_value FROM settings WHERE name = ?", rs -> rs.getString(1), s.name()));
            write(tx, s, next);
            if (!before.equals(next)) {
                String verb = text == null ? " reset " : " changed ";
                String note = text == null ? " (the default)" : "";
                events.append(
                        tx,
                        EventDraft.of(
                                null,
                                null,
                                kind,
                                "Setting " + s.name() + verb + shown(before) + " → " + shown(next) + note + " by "
                                        + who,
                                Map.of(
                                        "name",
                                        s.name(),
                                        "from",
                                        String.valueOf(before),
                                        "to",
                                        String.valueOf(next),
                                        "by",
                                        who)));
            }
            return SettingEntry.of(s, next);
        });
    }

    /** A value in an event's sentence: {@code ""} for an empty one (an executable's "none"). */
    private static String shown(Object value) {
        String v = String.valueOf(value);
        return v.isEmpty() ? "\"\"" : v;
    }

    /** Stores {@code value}, or removes the row when it is the default (so a later default applies). */
    private static <T> void write(Jdbc.Tx tx, Setting<T> s, T value) throws SQLException {
        if (value.equals(s.defaultValue())) {
            tx.update("DELETE FROM settings WHERE name = ?", s.name());
        } else if (tx.update("UPDATE settings SET setting_value = ? WHERE name = ?", String.valueOf(value), s.name())
                == 0) {
            tx.update("INSERT INTO settings (name, setting_value) VALUES (?, ?)", s.name(), String.valueOf(value));
        }
    }

    private static <T> SettingEntry entry(Setting<T> s, Optional<String> raw) {
        return SettingEntry.of(s, effective(s, raw));
    }

    private static <T> T effective(Setting<T> s, Optional<String> raw) {
        if (raw.isEmpty()) {
            return s.defaultValue();
        }
        try {
            return s.parse(raw.get());
        } catch (InvalidSettingValueException e) {
            LOG.warn("Stored value ignored, the default {} applies: {}", s.defaultValue(), e.getMessage());
            return s.defaultValue();
        }
    }
}
