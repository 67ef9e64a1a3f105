package dev.paddock.ui.sandboxes;

import dev.paddock.status.RepositoryStatus.Sandbox;
import java.util.List;
import java.util.Map;

/**
 * What of a sandbox's row changes with every heartbeat: the time of the last one, its progress text and the lease's
 * expiry. Agents beat every few seconds, so a snapshot of many running sandboxes differs from the one before in
 * nearly every row; the table keeps such a row (its cells are not rebuilt) and shows those three figures from the
 * newest snapshot instead ({@link SandboxTable}'s heartbeat and lease cells, drawn again at every tick of the clock).
 * A row is replaced when anything else changes.
 */
public final class LiveRows {
    private LiveRows() {}

    /** Whether two rows of the same sandbox differ in nothing but the heartbeat, its progress and the lease. */
    public static boolean sameBesidesHeartbeat(Sandbox a, Sandbox b) {
        return a.equals(b) || withoutHeartbeat(a).equals(withoutHeartbeat(b));
    }

    /** The newest rows by sandbox id, for {@link #latest}. */
    public static Map<String, Sandbox> byId(List<Sandbox> rows) {
        Map<String, Sandbox> out = new java.util.HashMap<>(rows.size() * 2);
        rows.forEach(r -> out.put(r.id(), r));
        return java.util.Collections.unmodifiableMap(out);
    }

    /** The newest version of {@code row} in {@code newest} (the row itself when it is not there). */
    static Sandbox latest(Sandbox row, Map<String, Sandbox> newest) {
        return row == null ? null : newest.getOrDefault(row.id(), row);
    }

    private static Sandbox withoutHeartbeat(Sandbox s) {
        return new Sandbox(
                s.id(),
                s.task(),
                s.tier(),
                s.state(),
                s.branch(),
                s.worktreePath(),
                s.createdAt(),
                null,
                null,
                null,
                s.retryCount(),
                s.exitCode(),
                s.lastError(),
                s.engineUnreachable(),
                s.worktreeMissing(),
                s.agent(),
                s.model(),
                s.waitingForYou(),
                s.waitingSince(),
                s.waitingDetail(),
                s.group());
    }
}
