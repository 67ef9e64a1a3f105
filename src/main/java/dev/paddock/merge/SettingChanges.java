package dev.paddock.merge;

import dev.paddock.events.EventDraft;
import dev.paddock.events.EventKinds;
import dev.paddock.repo.RepoRecord;
import java.util.List;
import java.util.Map;

/** The {@code setting.changed} events of a repository's merge settings, and the checks of typed values. */
final class SettingChanges {
    private SettingChanges() {}

    /** One {@code setting.changed} event per merge setting whose value differs (names as the CLI options). */
    static List<EventDraft> of(RepoRecord repo, MergeSettings from, MergeSettings to) {
        List<EventDraft> out = new java.util.ArrayList<>();
        add(out, repo, "strategy", from.strategy().id(), to.strategy().id());
        add(
                out,
                repo,
                "test-command",
                from.hasTest() ? from.testCommand().strip() : "(none)",
                to.hasTest() ? to.testCommand().strip() : "(none)");
        add(
                out,
                repo,
                "test-timeout",
                from.testTimeout().toMillis() + " ms",
                to.testTimeout().toMillis() + " ms");
        add(out, repo, "max-attempts", String.valueOf(from.maxAttempts()), String.valueOf(to.maxAttempts()));
        add(out, repo, "auto-resolve", from.autoResolve().id(), to.autoResolve().id());
        add(out, repo, "review", from.review().id(), to.review().id());
        add(out, repo, "target", from.target().kind().id(), to.target().kind().id());
        add(out, repo, "remote", from.target().remoteShown(), to.target().remoteShown());
        add(
                out,
                repo,
                "pull-request",
                String.valueOf(from.target().pullRequest()),
                String.valueOf(to.target().pullRequest()));
        return out;
    }

    /** Adds the event of one setting when its value changes. */
    static void add(List<EventDraft> out, RepoRecord repo, String name, String from, String to) {
        if (!from.equals(to)) {
            out.add(EventDraft.of(
                    repo.id(),
                    null,
                    EventKinds.SETTING_CHANGED,
                    "Merge setting " + name + " of " + repo.path() + " changed " + from + " → " + to,
                    Map.of(
                            "name",
                            "merge." + name,
                            "from",
                            from,
                            "to",
                            to,
                            "repository",
                            repo.path().toString())));
        }
    }

    /**
     * A typed remote name, stripped; null for a blank one (origin, or the only remote).
     *
     * @throws IllegalArgumentException for a name git would not take as a remote's
     */
    static String remoteName(String remote) {
        String r = remote.strip();
        if (r.isEmpty()) {
            return null;
        }
        if (r.startsWith("-") || r.contains("..") || !r.matches("[A-Za-z0-9._/-]+") || r.endsWith("/")) {
            throw new IllegalArgumentException("\"" + remote + "\" is not a remote's name (such as origin)");
        }
        return r;
    }
}
