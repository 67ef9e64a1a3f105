package dev.paddock.worktree;

/**
 * What {@code git status --porcelain=v2 --branch -z} says of a worktree (git-status(1), "Porcelain Format
 * Version 2"): the headers {@code # branch.oid <commit> | (initial)} and {@code # branch.head <branch> |
 * (detached)}, then one entry per changed path ({@code 1}, {@code u}, {@code ?}, {@code !}; a {@code 2} entry,
 * a rename or copy, is followed by its original path as a token of its own).
 *
 * @param head the commit checked out, or null on an unborn branch
 * @param branch the branch checked out, or null when HEAD is detached
 * @param changedFiles changed, unmerged and untracked paths (ignored ones, when asked for, are not counted)
 */
public record StatusV2(String head, String branch, int changedFiles) {
    /** Parses the NUL-separated output. */
    public static StatusV2 parse(String z) {
        String head = null;
        String branch = null;
        int changed = 0;
        String[] tokens = z.split("\0");
        for (int i = 0; i < tokens.length; i++) {
            String t = tokens[i];
            if (t.startsWith("# branch.oid ")) {
                String oid = t.substring("# branch.oid ".length());
                head = oid.equals("(initial)") ? null : oid;
            } else if (t.startsWith("# branch.head ")) {
                String b = t.substring("# branch.head ".length());
                branch = b.equals("(detached)") ? null : b;
            } else if (t.startsWith("1 ") || t.startsWith("u ") || t.startsWith("? ")) {
                changed++;
            } else if (t.startsWith("2 ")) {
                changed++;
                i++; // the original path
            }
        }
        return new StatusV2(head, branch, changed);
    }
}
