package dev.paddock.settings;

import dev.paddock.store.Database;
import dev.paddock.store.Jdbc;
import dev.paddock.store.StoreException;
import java.util.Optional;

/** Small named settings in the store ({@code settings} table), with defaults in code. */
public final class SettingsStore {
    /** Automatic retries of a failed or timed-out sandbox before a person is asked. */
    public static final Setting<Integer> SANDBOX_MAX_RETRIES = new Setting<>("sandbox.maxRetries", 2, Integer::valueOf);
    /** Default lease of a sandbox, in ms (BRIEF: 15 minutes). */
    public static final Setting<Long> SANDBOX_LEASE_MS = new Setting<>("sandbox.leaseMs", 15 * 60_000L, Long::valueOf);
    /** Grace period between SIGTERM and SIGKILL when stopping an agent's process tree, in ms. */
    public static final Setting<Long> SANDBOX_KILL_GRACE_MS = new Setting<>("sandbox.killGraceMs", 3_000L, Long::valueOf);

    /**
     * Period of the reconciler, in ms: how often records, {@code git worktree list}, the folders under
     * {@code .worktrees/} and live processes are compared (BRIEF "Zombies"; also once at start).
     */
    public static final Setting<Long> RECONCILE_INTERVAL_MS = new Setting<>("reconcile.intervalMs", 5 * 60_000L,
            Long::valueOf);

    /**
     * How long a request the policy asks about waits for a person before it is denied, in ms (issue 5:
     * 10 minutes). The Claude Code hook's own {@code timeout} must be longer (see {@code paddock hook install}).
     */
    public static final Setting<Long> APPROVAL_TIMEOUT_MS = new Setting<>("approval.timeoutMs", 10 * 60_000L,
            Long::valueOf);

    /** A named setting with its default and parser. */
    public record Setting<T>(String name, T defaultValue, java.util.function.Function<String, T> parse) {
    }

    private final Jdbc jdbc;

    public SettingsStore(Database db) {
        this.jdbc = db.jdbc();
    }

    /** The stored value, or the default when unset or unreadable. */
    public <T> T get(Setting<T> setting) throws StoreException {
        Optional<String> raw = jdbc.queryOne("SELECT setting_value FROM settings WHERE name = ?", rs -> rs.getString(1),
                setting.name());
        if (raw.isEmpty()) {
            return setting.defaultValue();
        }
        try {
            return setting.parse().apply(raw.get());
        } catch (RuntimeException e) {
            return setting.defaultValue();
        }
    }

    /** Stores a value. */
    public <T> void put(Setting<T> setting, T value) throws StoreException {
        jdbc.inTransaction(tx -> {
            if (tx.update("UPDATE settings SET setting_value = ? WHERE name = ?", String.valueOf(value), setting.name()) == 0) {
                tx.update("INSERT INTO settings (name, setting_value) VALUES (?, ?)", setting.name(), String.valueOf(value));
            }
            return null;
        });
    }
}
