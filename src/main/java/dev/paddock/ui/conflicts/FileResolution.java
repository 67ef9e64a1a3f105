package dev.paddock.ui.conflicts;

import dev.paddock.merge.conflict.ConflictFile;
import dev.paddock.merge.conflict.ConflictHunk;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The result of one conflicted text file while a person resolves it: the result text, the lines each
 * conflict hunk occupies in it, and how each hunk was resolved. Pure logic (no FX): the view applies
 * the {@link Splice}s it returns to its editor and reports hand edits back through {@link #edited}.
 *
 * <p>Hunk spans follow edits the usual way of merge tools: an edit wholly before a hunk moves it, one
 * wholly after leaves it, and one touching its lines grows it to cover the edit and marks it
 * {@link HunkState#EDITED} (resolved by hand).
 */
final class FileResolution {
    /**
     * A replacement of the result text: characters {@code [from, to)} become {@code text}.
     *
     * @param hunk the hunk it resolves
     */
    record Splice(int hunk, int from, int to, String text) {}

    private final ConflictFile file;
    private final StringBuilder text;
    private final int[] start;
    private final int[] end;
    private final HunkState[] choices;

    /** The starting result of {@code file} (a text kind): every hunk unresolved. */
    FileResolution(ConflictFile file) {
        this.file = file;
        LineMerge.Start s = LineMerge.start(file);
        this.text = new StringBuilder(TextLines.join(s.lines(), s.trailingNewline()));
        int n = file.hunks().size();
        start = new int[n];
        end = new int[n];
        for (int i = 0; i < n; i++) {
            start[i] = s.spans().get(i)[0];
            end[i] = s.spans().get(i)[1];
        }
        choices = new HunkState[n];
        Arrays.fill(choices, HunkState.UNRESOLVED);
    }

    private FileResolution(ConflictFile file, String text, int[] start, int[] end, HunkState[] choices) {
        this.file = file;
        this.text = new StringBuilder(text);
        this.start = start;
        this.end = end;
        this.choices = choices;
    }

    /**
     * The result of {@code file} as resolved before ({@code resolvedText}), reopened: every hunk counts as resolved by
     * hand. A hunk's lines are found between the lines around it in the starting result (the merged lines between
     * hunks, which a person rarely touches), in order; where those cannot be found, the first hunk covers every
     * line that differs from the starting result and the others are empty after it.
     */
    static FileResolution reopened(ConflictFile file, String resolvedText) {
        FileResolution s = new FileResolution(file);
        int n = s.hunks();
        List<String> from = TextLines.of(s.text()).lines();
        List<String> to = TextLines.of(resolvedText).lines();
        int[] start = new int[n];
        int[] end = new int[n];
        HunkState[] choices = new HunkState[n];
        Arrays.fill(choices, HunkState.EDITED);
        if (!anchor(s, from, to, start, end)) {
            int prefix = 0;
            while (prefix < from.size()
                    && prefix < to.size()
                    && from.get(prefix).equals(to.get(prefix))) {
                prefix++;
            }
            int suffix = 0;
            while (suffix < from.size() - prefix
                    && suffix < to.size() - prefix
                    && from.get(from.size() - 1 - suffix).equals(to.get(to.size() - 1 - suffix))) {
                suffix++;
            }
            Arrays.fill(start, to.size() - suffix);
            Arrays.fill(end, to.size() - suffix);
            if (n > 0) {
                start[0] = Math.min(prefix, to.size() - suffix);
            }
        }
        return new FileResolution(file, resolvedText, start, end, choices);
    }

    /** Finds the hunks of {@code s} in {@code to} by the lines between them; false when a gap is not there. */
    private static boolean anchor(FileResolution s, List<String> from, List<String> to, int[] start, int[] end) {
        int n = s.hunks();
        int at = 0; // next line of `to` not yet matched
        for (int h = 0; h <= n; h++) {
            int gapFrom = h == 0 ? 0 : s.end[h - 1];
            int gapTo = h == n ? from.size() : s.start[h];
            List<String> gap = from.subList(gapFrom, gapTo);
            int found;
            if (h == 0) {
                found = startsWith(to, 0, gap) ? 0 : -1;
            } else if (h == n) {
                found = to.size() - gap.size() >= at && startsWith(to, to.size() - gap.size(), gap)
                        ? to.size() - gap.size()
                        : -1;
            } else {
                found = indexOf(to, gap, at);
            }
            if (found < 0) {
                return false;
            }
            if (h > 0) {
                start[h - 1] = at;
                end[h - 1] = found;
            }
            at = found + gap.size();
        }
        return true;
    }

    private static boolean startsWith(List<String> lines, int from, List<String> part) {
        return from >= 0
                && from + part.size() <= lines.size()
                && lines.subList(from, from + part.size()).equals(part);
    }

    private static int indexOf(List<String> lines, List<String> part, int from) {
        for (int i = from; i + part.size() <= lines.size(); i++) {
            if (startsWith(lines, i, part)) {
                return i;
            }
        }
        return -1;
    }

    /** The file. */
    ConflictFile file() {
        return file;
    }

    /** The whole result text now. */
    String text() {
        return text.toString();
    }

    /** Number of hunks. */
    int hunks() {
        return choices.length;
    }

    /** First result line of hunk {@code h} (0-based). */
    int start(int h) {
        return start[h];
    }

    /** End (exclusive) result line of hunk {@code h}. */
    int end(int h) {
        return end[h];
    }

    /** How hunk {@code h} is resolved. */
    HunkState choice(int h) {
        return choices[h];
    }

    /** Hunks not resolved yet. */
    int unresolved() {
        return (int) Arrays.stream(choices).filter(c -> !c.isResolved()).count();
    }

    /** The hunk whose lines include result line {@code line}, or -1. */
    int hunkAtLine(int line) {
        for (int h = 0; h < choices.length; h++) {
            if (line >= start[h] && line < end[h]) {
                return h;
            }
        }
        return -1;
    }

    /**
     * Resolves hunk {@code h} with {@code choice}'s lines: replaces its lines in the result.
     *
     * @return the replacement, for the editor
     * @throws IllegalArgumentException as {@link HunkState#lines}
     */
    Splice choose(int h, HunkState choice) {
        ConflictHunk hunk = file.hunks().get(h);
        List<String> lines = choice == HunkState.UNRESOLVED ? LineMerge.startingLines(hunk) : choice.lines(hunk);
        int paragraphs = TextLines.breaks(text, 0, text.length()) + 1;
        int from = lineStart(start[h]);
        int to;
        String insert;
        if (end[h] < paragraphs) {
            to = lineStart(end[h]);
            insert = lines.isEmpty() ? "" : String.join("\n", lines) + "\n";
        } else { // the hunk ends the text, which has no final line break
            to = text.length();
            insert = String.join("\n", lines);
            if (lines.isEmpty() && from > 0) {
                from--; // the line break before the hunk goes with it
            }
        }
        text.replace(from, to, insert);
        int delta = lines.size() - (end[h] - start[h]);
        end[h] = start[h] + lines.size();
        for (int k = 0; k < choices.length; k++) {
            if (k > h) { // spans keep the hunks' order
                start[k] += delta;
                end[k] += delta;
            }
        }
        choices[h] = choice;
        return new Splice(h, from, to, insert);
    }

    /**
     * A hand edit of the result: characters {@code [position, position + removed.length())} were
     * replaced by {@code inserted}.
     *
     * @return the hunks whose lines the edit touched (now {@link HunkState#EDITED}), in order
     */
    List<Integer> edited(int position, String removed, String inserted) {
        int line = TextLines.breaks(text, 0, position);
        int removedBreaks = TextLines.breaks(removed, 0, removed.length());
        int insertedBreaks = TextLines.breaks(inserted, 0, inserted.length());
        text.replace(position, position + removed.length(), inserted);
        int delta = insertedBreaks - removedBreaks;
        int last = line + removedBreaks; // last old line the edit touched
        List<Integer> touched = new ArrayList<>();
        for (int h = 0; h < choices.length; h++) {
            if (last < start[h]) {
                start[h] += delta;
                end[h] += delta;
            } else if (line < end[h]) {
                start[h] = Math.min(start[h], line);
                end[h] = Math.max(end[h], last + 1) + delta;
                choices[h] = HunkState.EDITED;
                touched.add(h);
            }
        }
        return touched;
    }

    private int lineStart(int line) {
        int pos = 0;
        for (int l = 0; l < line; l++) {
            pos = text.indexOf("\n", pos) + 1;
        }
        return pos;
    }
}
