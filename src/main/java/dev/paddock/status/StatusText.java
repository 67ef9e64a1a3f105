package dev.paddock.status;

import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Renders a {@link RepositoryStatus} as plain text for a terminal: what {@code paddock status} prints. The CLI renders
 * it, or asks the running Paddock to render it for the CLI's time zone and locale (the thin client), so both print
 * the same bytes.
 */
public final class StatusText {
    /** Events in the text output; the JSON has all the snapshot holds. */
    public static final int RECENT_EVENTS = 10;

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private StatusText() {}

    /**
     * The status as text, its event times in {@code zone}, its numbers formatted for {@code locale} (the CLI's
     * {@code ZoneId.systemDefault()} and {@code Locale.getDefault(Locale.Category.FORMAT)}).
     */
    public static String render(RepositoryStatus s, ZoneId zone, Locale locale) {
        DateTimeFormatter clock = CLOCK.withZone(zone);
        StringBuilder b = new StringBuilder();
        RepositoryStatus.Repository r = s.repository();
        b.append("Repository  ")
                .append(r.path())
                .append("  (base ")
                .append(r.baseBranch())
                .append(r.registered() ? "" : ", not registered")
                .append(")\n");
        Counts c = s.counts();
        b.append(String.format(
                locale,
                "Sandboxes   active %d · pending %d · failed 24 h %d · merged 24 h %d · awaiting human %d"
                        + " · waiting for you %d · ready for review %d%n",
                c.active(),
                c.pending(),
                c.failed24h(),
                c.merged24h(),
                c.awaitingHuman(),
                c.waitingForYou(),
                c.readyForReview()));
        RepositoryStatus.Environment env = s.environment();
        b.append("Isolation   docker ")
                .append(
                        env.docker().reachable()
                                ? "ready " + env.docker().version()
                                : dev.paddock.container.EngineStatus.NOT_CHECKED.equals(
                                                env.docker().error())
                                        ? "not checked yet"
                                        : "unreachable")
                .append(" · bubblewrap ")
                .append(env.bubblewrap().usable() ? "ready" : env.bubblewrap().installed() ? "unusable" : "missing")
                .append("\n\n");

        b.append("Worktrees (").append(s.worktrees().size()).append(")\n");
        int nameWidth = 8;
        int branchWidth = 6;
        for (RepositoryStatus.Worktree t : s.worktrees()) {
            nameWidth = Math.max(nameWidth, display(t).length());
            branchWidth = Math.max(branchWidth, branch(t).length());
        }
        String fmt = "  %-" + nameWidth + "s  %-" + branchWidth + "s  %-8s  %s%n";
        b.append(String.format(locale, fmt, "NAME", "BRANCH", "HEAD", "STATE"));
        for (RepositoryStatus.Worktree t : s.worktrees()) {
            String head = t.head() == null
                    ? ""
                    : t.head().substring(0, Math.min(8, t.head().length()));
            b.append(String.format(locale, fmt, display(t), branch(t), head, state(t)));
        }
        if (s.worktreeError() != null) {
            b.append("  ! ").append(s.worktreeError()).append('\n');
        }
        b.append("\nSandboxes (").append(s.sandboxes().size()).append(")\n");
        int idWidth = 2;
        for (RepositoryStatus.Sandbox x : s.sandboxes()) {
            idWidth = Math.max(idWidth, x.id().length());
        }
        String sandboxFmt = "  %-" + idWidth + "s  %-10s  %-14s  %s%s%s%s%n";
        if (!s.sandboxes().isEmpty()) {
            b.append(String.format(locale, sandboxFmt, "ID", "TIER", "STATE", "BRANCH", "", "", ""));
        }
        for (RepositoryStatus.Sandbox x : s.sandboxes()) {
            b.append(String.format(
                    locale,
                    sandboxFmt,
                    x.id(),
                    x.tier(),
                    x.shownState(),
                    x.branch(),
                    x.engineUnreachable() ? "  (the Docker engine does not answer; last known " + x.state() + ")" : "",
                    x.worktreeMissing() ? "  (worktree folder missing)" : "",
                    x.waitingForYou() ? "  (waiting for you: paddock sandbox say " + x.id() + " TEXT)" : ""));
        }
        if (s.orphans() != null && !s.orphans().isEmpty()) {
            b.append("\nOrphans (").append(s.orphans().size()).append(")\n");
            for (RepositoryStatus.Orphan o : s.orphans()) {
                b.append("  ")
                        .append(o.description())
                        .append(o.actions().isEmpty() ? "" : " [" + String.join(", ", o.actions()) + "]")
                        .append('\n');
            }
        }
        int shown = Math.min(RECENT_EVENTS, s.recentEvents().size());
        b.append("\nRecent events (")
                .append(shown)
                .append(" of ")
                .append(s.recentEvents().size())
                .append(")\n");
        for (RepositoryStatus.EventLine e : s.recentEvents().subList(0, shown)) {
            b.append("  ")
                    .append(clock.format(e.at()))
                    .append("  ")
                    .append(e.message())
                    .append('\n');
        }
        return b.toString();
    }

    private static String branch(RepositoryStatus.Worktree t) {
        return t.branch() != null ? t.branch() : t.detached() ? "(detached HEAD)" : "(no branch)";
    }

    private static String display(RepositoryStatus.Worktree t) {
        return t.main() ? t.name() + " (main)" : t.name();
    }

    private static String state(RepositoryStatus.Worktree t) {
        StringBuilder s = new StringBuilder();
        if (t.missing()) {
            s.append("folder missing");
        } else if (t.dirty() == null) {
            s.append("?");
        } else if (t.dirty()) {
            s.append("dirty (").append(t.changedFiles()).append(")");
        } else {
            s.append("clean");
        }
        if (t.locked()) {
            s.append(", locked");
        }
        if (t.prunable()) {
            s.append(", prunable");
        }
        return s.toString();
    }
}
