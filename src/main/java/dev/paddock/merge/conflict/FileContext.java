package dev.paddock.merge.conflict;

import java.util.List;
import java.util.regex.Pattern;

/**
 * What the classifier knows of a conflicted file beyond one hunk: its path (language rules, lockfiles), whether a
 * tool generated it, and the whitespace style of base, ours and theirs as whole files (which side reformatted,
 * and the file's dominant style). Built once per file.
 *
 * @param path      repository-relative path
 * @param generated whether it is a lockfile or says it is generated (a {@code Code generated ... DO NOT EDIT} or
 *                  {@code @generated} line among its first lines)
 * @param base      whitespace style of the base version
 * @param ours      whitespace style of ours
 * @param theirs    whitespace style of theirs
 */
public record FileContext(String path, boolean generated, WhitespaceStyle base, WhitespaceStyle ours,
                          WhitespaceStyle theirs) {
    private static final Pattern GENERATED = Pattern.compile("(?i)(code generated .*do not edit|@generated\\b)");
    private static final int HEAD = 5;

    /** A file known only by its path (no whole-file texts). */
    public static FileContext of(String path) {
        return new FileContext(path, Lockfiles.isLockfile(path), WhitespaceStyle.NONE, WhitespaceStyle.NONE,
                WhitespaceStyle.NONE);
    }

    /** The context of a file from its three versions' lines. */
    public static FileContext of(String path, List<String> base, List<String> ours, List<String> theirs) {
        boolean generated = Lockfiles.isLockfile(path) || saysGenerated(ours) || saysGenerated(theirs);
        if (generated) {
            return new FileContext(path, true, WhitespaceStyle.NONE, WhitespaceStyle.NONE, WhitespaceStyle.NONE);
        }
        return new FileContext(path, false, WhitespaceStyle.of(base), WhitespaceStyle.of(ours),
                WhitespaceStyle.of(theirs));
    }

    private static boolean saysGenerated(List<String> lines) {
        for (int i = 0; i < Math.min(HEAD, lines.size()); i++) {
            if (GENERATED.matcher(lines.get(i)).find()) {
                return true;
            }
        }
        return false;
    }
}
