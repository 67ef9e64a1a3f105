package dev.paddock.ui.notify;

import dev.paddock.status.RepositoryStatus;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Announces on the desktop each sandbox that starts waiting for you ("ID is waiting for you", and under it the first
 * line of what its agent said), as soon as the panel's rows show it: once per wait, not for the sandboxes already
 * waiting in the first rows of a repository shown ({@link #reset}), and not for the one the person is looking at (the window focused with it
 * selected). Call {@link #rows} on the FX thread; the notification itself runs elsewhere ({@link DesktopNotifier}).
 */
public final class WaitingNotifier {
    /** Where a notification goes: summary, body, and whether it is wanted (asked off the FX thread). */
    @FunctionalInterface
    public interface Sink {
        void notify(String summary, String body, Supplier<Boolean> wanted);
    }

    private final Sink desktop;
    private final Supplier<Boolean> wanted;
    private final Predicate<String> lookedAt;
    // The wait each sandbox was last seen in (its start), or absent when it did not wait; null: nothing seen yet.
    private Map<String, Instant> waits;

    /**
     * @param wanted whether notifications are on (the setting), asked off the FX thread before each one
     * @param lookedAt whether the person is looking at the sandbox of that id (asked on the FX thread)
     */
    public WaitingNotifier(Sink desktop, Supplier<Boolean> wanted, Predicate<String> lookedAt) {
        this.desktop = desktop;
        this.wanted = wanted;
        this.lookedAt = lookedAt;
    }

    /** Another repository is shown: its rows, when they come, are what was there already. */
    public void reset() {
        waits = null;
    }

    /** The rows shown now: announces the sandboxes whose wait began since the last rows. */
    public void rows(List<RepositoryStatus.Sandbox> rows) {
        Map<String, Instant> now = new HashMap<>();
        for (RepositoryStatus.Sandbox s : rows) {
            if (s.waitingForYou()) {
                Instant since = s.waitingSince() == null ? Instant.EPOCH : s.waitingSince();
                now.put(s.id(), since);
                if (waits != null && !since.equals(waits.get(s.id())) && !lookedAt.test(s.id())) {
                    desktop.notify(s.id() + " is waiting for you", firstLine(s.waitingDetail()), wanted);
                }
            }
        }
        waits = now;
    }

    /** The first non-blank line of {@code text}, cut to 200 characters; "" for none. */
    static String firstLine(String text) {
        String line = text == null
                ? ""
                : text.lines()
                        .map(String::strip)
                        .filter(l -> !l.isEmpty())
                        .findFirst()
                        .orElse("");
        return line.length() > 200 ? line.substring(0, 199) + "…" : line;
    }
}
