package dev.paddock.sandbox;

import java.text.Normalizer;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Sandbox ids and suggested branch names, from the task text: "Fix the auth timeout" on 2026-11-30
 * gives the id {@code fix-auth-timeout-20261130-001} and the branch {@code agent/fix-auth-timeout}.
 * An id names a folder under {@code .worktrees/}, so it is lower-case letters, digits and dashes only.
 */
public final class SandboxIds {
    private static final Pattern VALID = Pattern.compile("[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?");
    private static final Set<String> STOP_WORDS = Set.of(
            "a", "an", "the", "in", "on", "of", "for", "to", "and", "with", "from", "into", "at", "by", "is", "it",
            "that", "this", "be", "our", "my", "please");
    private static final DateTimeFormatter DAY = DateTimeFormatter.BASIC_ISO_DATE;
    /** Longest id. */
    public static final int MAX_LENGTH = 64;
    /** Most words of the task kept in a slug. */
    static final int SLUG_WORDS = 3;

    private SandboxIds() {}

    /**
     * Checks an id given by a person or a script.
     *
     * @throws SandboxException when it is not 1–64 lower-case letters, digits and dashes (so never
     *     {@code ..}, a slash or anything else that could leave {@code .worktrees/})
     */
    public static void check(String id) throws SandboxException {
        if (id == null || !VALID.matcher(id).matches()) {
            throw new SandboxException("\"" + id + "\" is not a valid sandbox id: use 1 to 64 lower-case letters,"
                    + " digits and dashes (it names a folder under .worktrees/).");
        }
    }

    /** A short slug of the task's first meaningful words, e.g. {@code fix-auth-timeout}; "sandbox" when none. */
    public static String slug(String task) {
        String ascii = Normalizer.normalize(task == null ? "" : task, Normalizer.Form.NFD)
                .replaceAll("\\p{M}", "")
                .toLowerCase(Locale.ROOT);
        List<String> words = new ArrayList<>();
        for (String w : ascii.split("[^a-z0-9]+")) {
            if (!w.isEmpty() && !STOP_WORDS.contains(w)) {
                words.add(w.length() > 16 ? w.substring(0, 16) : w);
            }
            if (words.size() == SLUG_WORDS) {
                break;
            }
        }
        return words.isEmpty() ? "sandbox" : String.join("-", words);
    }

    /**
     * The next free id for a task on a day: {@code <slug>-<yyyymmdd>-<nnn>}, nnn one more than the
     * highest taken.
     *
     * @param taken ids already used (store and folders)
     */
    public static String next(String task, LocalDate day, Collection<String> taken) {
        return next(slug(task) + "-" + DAY.format(day) + "-", taken);
    }

    /**
     * The next free id for a fan-out of a task on a day ({@code <slug>-<yyyymmdd>-<nnn>}, as {@link #next}), its slug
     * cut so that the id with {@code room} more characters (its sandboxes' {@code -<agent>-<n>}) is still a valid id.
     */
    public static String nextGroup(String task, LocalDate day, Collection<String> taken, int room) {
        String slug = slug(task);
        int most = MAX_LENGTH - room - (DAY.format(day).length() + 5);
        if (slug.length() > most) {
            slug = slug.substring(0, Math.max(1, most)).replaceAll("-+$", "");
        }
        return next(slug + "-" + DAY.format(day) + "-", taken);
    }

    private static String next(String prefix, Collection<String> taken) {
        int max = 0;
        for (String id : taken) {
            if (id.startsWith(prefix)) {
                // A fan-out's sandboxes carry the number too: <prefix><nnn>-<agent>-<n>.
                String rest = id.substring(prefix.length());
                int dash = rest.indexOf('-');
                try {
                    max = Math.max(max, Integer.parseInt(dash < 0 ? rest : rest.substring(0, dash)));
                } catch (NumberFormatException ignored) {
                    // not one of ours
                }
            }
        }
        return prefix + String.format("%03d", max + 1);
    }

    /** The prefix shared by every id {@link #next} makes for this task and day. */
    public static String prefix(String task, LocalDate day) {
        return slug(task) + "-" + DAY.format(day) + "-";
    }

    /** The branch suggested for a task: {@code agent/<slug>}. */
    public static String suggestBranch(String task) {
        return "agent/" + slug(task);
    }
}
