package dev.paddock.diff;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jgit.diff.DiffDriver;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.DiffFormatter;
import org.eclipse.jgit.diff.EditList;
import org.eclipse.jgit.diff.RawText;
import org.eclipse.jgit.diff.RawTextComparator;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.util.QuotedString;

/**
 * JGit's {@link DiffFormatter} set up as {@code git diff -M} is, and writing what git writes where JGit differs: a
 * hunk header names the line before the hunk that git's default function-name rule picks (a line starting with a
 * letter, {@code _} or {@code $}), and a binary file is one {@code Binary files A and B differ} line. Renames are
 * detected up to git's default rename limit (1000 inexact pairs, or {@code diff.renameLimit}); exact renames, found
 * by object id, have no limit, so a moved folder of any size is shown as renames.
 */
class GitPatchFormatter extends DiffFormatter {
    /** git's default {@code diff.renameLimit} (JGit's own default is 400). */
    static final int GIT_RENAME_LIMIT = 1000;

    private static final int FUNCNAME_MAX = 80;
    private static final Pattern BINARY = Pattern.compile("--- (.*)\n\\+\\+\\+ (.*)\nBinary files differ\n$");

    private RawText oldText;
    /** Where the last hunk's function line search of this file started (-1: none yet), and what it found. */
    private int searchedFrom = -1;

    private String lastFuncName;

    GitPatchFormatter(OutputStream out, Repository repo, boolean ignoreWhitespace) {
        super(out);
        setRepository(repo);
        setDiffComparator(ignoreWhitespace ? RawTextComparator.WS_IGNORE_ALL : RawTextComparator.DEFAULT);
        setDetectRenames(true);
        getRenameDetector().setRenameLimit(repo.getConfig().getInt("diff", "renamelimit", GIT_RENAME_LIMIT));
    }

    @Override
    public void format(EditList edits, RawText a, RawText b, DiffDriver driver) throws IOException {
        oldText = a;
        searchedFrom = -1;
        lastFuncName = null;
        try {
            super.format(edits, a, b, driver);
        } finally {
            oldText = null;
        }
    }

    @Override
    protected void writeHunkHeader(int aStartLine, int aEndLine, int bStartLine, int bEndLine, String funcName)
            throws IOException {
        String name = funcName;
        if (name == null && oldText != null) {
            // As git: each search stops where the previous hunk's began, and keeps its line when it finds none.
            String found = funcName(oldText, aStartLine, searchedFrom);
            searchedFrom = Math.min(aStartLine, oldText.size()) - 1;
            lastFuncName = found != null ? found : lastFuncName;
            name = lastFuncName;
        }
        super.writeHunkHeader(aStartLine, aEndLine, bStartLine, bEndLine, name);
    }

    /**
     * git's default function line for a hunk starting at {@code start} (0-based): the nearest one before it and after
     * line {@code after} (-1: from the file's start); null when there is none.
     */
    static String funcName(RawText a, int start, int after) {
        for (int i = Math.min(start, a.size()) - 1; i > after; i--) {
            String line = a.getString(i);
            if (!line.isEmpty()) {
                char c = line.charAt(0);
                if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$') {
                    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
                    String cut = bytes.length <= FUNCNAME_MAX
                            ? line
                            : new String(bytes, 0, FUNCNAME_MAX, StandardCharsets.UTF_8).replace("\uFFFD", "");
                    return cut.stripTrailing();
                }
            }
        }
        return null;
    }

    /**
     * Writes the patch of {@code entries} to {@code out} as {@code git diff} does, one file at a time (only one
     * file's text is held at once); with {@code ignoreWhitespace}, a file whose only change is whitespace is left out.
     */
    static void writePatch(Repository repo, List<DiffEntry> entries, boolean ignoreWhitespace, OutputStream out)
            throws IOException {
        ByteArrayOutputStream one = new ByteArrayOutputStream();
        QuotedString quote = repo.getConfig().getBoolean("core", "quotePath", true)
                ? QuotedString.GIT_PATH
                : QuotedString.GIT_PATH_MINIMAL;
        try (GitPatchFormatter f = new GitPatchFormatter(one, repo, ignoreWhitespace)) {
            for (DiffEntry e : entries) {
                if (FileChanges.sameContent(e) && pureMove(e)) {
                    out.write(moveHeader(e, quote).getBytes(StandardCharsets.UTF_8));
                    continue;
                }
                one.reset();
                f.format(e);
                f.flush();
                byte[] text = one.toByteArray();
                if (!(ignoreWhitespace && whitespaceOnly(e, text))) {
                    out.write(gitBinaryLine(text));
                }
            }
        }
        out.flush();
    }

    /** A rename or copy that changed neither content nor mode: JGit would read both sides for nothing. */
    private static boolean pureMove(DiffEntry e) {
        return (e.getChangeType() == DiffEntry.ChangeType.RENAME || e.getChangeType() == DiffEntry.ChangeType.COPY)
                && e.getOldMode().equals(e.getNewMode());
    }

    /** The whole patch of a pure move, as git (and JGit) write it. */
    static String moveHeader(DiffEntry e, QuotedString quote) {
        String verb = e.getChangeType() == DiffEntry.ChangeType.RENAME ? "rename" : "copy";
        return "diff --git " + quote.quote("a/" + e.getOldPath()) + " " + quote.quote("b/" + e.getNewPath()) + "\n"
                + "similarity index " + e.getScore() + "%\n"
                + verb + " from " + quote.quote(e.getOldPath()) + "\n"
                + verb + " to " + quote.quote(e.getNewPath()) + "\n";
    }

    /** Whether a modified file's patch has no hunk and no binary line: its only change was whitespace. */
    private static boolean whitespaceOnly(DiffEntry e, byte[] text) {
        if (e.getChangeType() != DiffEntry.ChangeType.MODIFY || !e.getOldMode().equals(e.getNewMode())) {
            return false;
        }
        String s = new String(text, StandardCharsets.ISO_8859_1);
        return !s.contains("\n@@ ") && !s.endsWith("Binary files differ\n");
    }

    /** JGit's {@code --- A / +++ B / Binary files differ} of a binary file as git's one line. */
    static byte[] gitBinaryLine(byte[] filePatch) {
        int n = filePatch.length;
        String tail = "Binary files differ\n";
        if (n < tail.length()
                || !new String(filePatch, n - tail.length(), tail.length(), StandardCharsets.ISO_8859_1).equals(tail)) {
            return filePatch;
        }
        String all = new String(filePatch, StandardCharsets.ISO_8859_1);
        Matcher m = BINARY.matcher(all);
        if (!m.find()) {
            return filePatch;
        }
        String line = "Binary files " + m.group(1) + " and " + m.group(2) + " differ\n";
        return (all.substring(0, m.start()) + line).getBytes(StandardCharsets.ISO_8859_1);
    }
}
