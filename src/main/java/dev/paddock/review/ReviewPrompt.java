package dev.paddock.review;

import java.util.List;

/**
 * What a request for changes tells the agent: each unsent comment with its file, line and the quoted line, as a
 * follow-up prompt (an agent that resumes its session) and as the Markdown file written in the worktree
 * ({@link ReviewFile}; what a {@code custom} command, which cannot resume, is given).
 */
final class ReviewPrompt {
    /** Longest prompt sent as a follow-up; a longer one names the file instead of quoting every comment. */
    static final int PROMPT_MAX = 8000;

    private ReviewPrompt() {}

    /** The comments as Markdown: a heading per request, one item per comment. */
    static String markdown(List<ReviewComment> comments, int round, String who) {
        StringBuilder b = new StringBuilder("# Review comments (round ")
                .append(round)
                .append(", from ")
                .append(who)
                .append(")\n\n")
                .append("A reviewer asked for changes before this branch is merged. Address each comment, then"
                        + " commit your work.\n\n");
        comments.forEach(c -> item(b, c));
        return b.toString();
    }

    /**
     * The follow-up prompt: the comments themselves, or, when they would make it longer than {@link #PROMPT_MAX},
     * a pointer to {@code file} where they all are.
     */
    static String prompt(List<ReviewComment> comments, int round, String who, String file) {
        String full = markdown(comments, round, who) + "\nThe same list is in " + file + " (not committed).\n";
        if (full.length() <= PROMPT_MAX) {
            return full;
        }
        return "A reviewer (" + who + ") asked for changes before this branch is merged: " + comments.size()
                + " comments, too long to quote here. Read them in " + file + " (not committed), address each one,"
                + " then commit your work.";
    }

    private static void item(StringBuilder b, ReviewComment c) {
        b.append("- ");
        if (c.path() == null) {
            b.append("General");
        } else {
            b.append('`').append(c.path());
            if (c.line() != null) {
                b.append(':').append(c.line());
            }
            b.append('`');
            if (c.side() == ReviewComment.Side.OLD) {
                b.append(" (the line as it was before your change)");
            }
        }
        b.append(" — ").append(c.author()).append(":\n");
        if (c.quoted() != null) {
            b.append("  > ").append(c.quoted().stripTrailing()).append('\n');
        }
        for (String line : c.body().strip().split("\n", -1)) {
            b.append("  ").append(line).append('\n');
        }
    }
}
