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
        try {
            super.format(edits, a, b, driver);
        } finally {
            oldText = null;
        }
    }

    @Override
    protected void writeHunkHeader(int aStartLine, int aEndLine, int bStartLine, int bEndLine, String funcName)
            throws IOException {
        String name = funcName != null ? funcName : funcName(oldText, aStartLine);
        super.writeHunkHeader(aStartLine, aEndLine, bStartLine, bEndLine, name);
    }

    /** git's default function line for a hunk starting at {@code start} (0-based): the nearest one before it. */
    static String funcName(RawText a, int start) {
        if (a == null) {
            return null;
        }
        for (int i = Math.min(start, a.size()) - 1; i >= 0; i--) {
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
     * file's text is held at once).
     */
    static void writePatch(Repository repo, List<DiffEntry> entries, boolean ignoreWhitespace, OutputStream out)
            throws IOException {
        ByteArrayOutputStream one = new ByteArrayOutputStream();
        try (GitPatchFormatter f = new GitPatchFormatter(one, repo, ignoreWhitespace)) {
            for (DiffEntry e : entries) {
                one.reset();
                f.format(e);
                f.flush();
                out.write(gitBinaryLine(one.toByteArray()));
            }
        }
        out.flush();
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
