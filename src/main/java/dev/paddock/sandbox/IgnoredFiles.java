package dev.paddock.sandbox;

import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.GitException;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The files git ignores in a worktree (build output, {@code node_modules/}): not work a removal would lose, yet
 * they go with the worktree, so the removal check says how many and where. Git names them without descending into
 * ignored folders ({@code git ls-files --others --ignored --exclude-standard --directory}); the files in those
 * folders are counted by a walk that stops at {@link #CAP}, so a huge {@code node_modules/} costs one bounded walk.
 * Submodules' ignored files are not counted.
 *
 * @param files the files counted (at most {@link #CAP})
 * @param more whether the count stopped at the cap (there are more than {@code files})
 * @param folders the top-level folders holding the most of them, most first (e.g. {@code build/}), at most
 *     {@link #FOLDERS_MAX}
 * @param otherFolders how many more top-level folders hold some
 */
public record IgnoredFiles(int files, boolean more, List<String> folders, int otherFolders) {
    /** Files counted at most. */
    public static final int CAP = 10_000;
    /** Folders named at most. */
    static final int FOLDERS_MAX = 3;
    /** None. */
    public static final IgnoredFiles NONE = new IgnoredFiles(0, false, List.of(), 0);

    public IgnoredFiles {
        folders = folders == null ? List.of() : List.copyOf(folders);
    }

    /** "1,204 ignored files in build/, node_modules/" (for people); empty when there are none. */
    public String summary() {
        if (files == 0) {
            return "";
        }
        StringBuilder b = new StringBuilder(more ? "more than " : "")
                .append(String.format(java.util.Locale.ROOT, "%,d", files))
                .append(" ignored file")
                .append(files == 1 && !more ? "" : "s");
        if (!folders.isEmpty()) {
            b.append(" in ").append(String.join(", ", folders));
            if (otherFolders > 0) {
                b.append(" and ").append(otherFolders).append(otherFolders == 1 ? " other folder" : " other folders");
            }
        }
        return b.toString();
    }

    /** Counts the ignored files of the worktree {@code worktree}, up to {@code cap}. */
    static IgnoredFiles of(GitCli git, Path worktree, int cap) throws GitException {
        GitCli.Result r =
                git.run(worktree, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory");
        if (!r.ok()) {
            throw new GitException("Cannot list the files git ignores in " + worktree + ": " + r.errorLine());
        }
        Map<String, Integer> byFolder = new LinkedHashMap<>();
        int total = 0;
        boolean more = false;
        for (String entry : r.stdout().split("\0")) {
            if (entry.isEmpty()) {
                continue;
            }
            if (total >= cap) {
                more = true;
                break;
            }
            int n;
            if (entry.endsWith("/")) {
                int[] counted = count(worktree.resolve(entry), cap - total);
                n = counted[0];
                more |= counted[1] != 0;
            } else {
                n = 1;
            }
            total += n;
            int slash = entry.indexOf('/');
            if (slash > 0 && n > 0) {
                byFolder.merge(entry.substring(0, slash + 1), n, Integer::sum);
            }
        }
        List<String> ranked = new ArrayList<>(byFolder.keySet());
        ranked.sort(Comparator.comparing((String f) -> -byFolder.get(f)).thenComparing(f -> f));
        List<String> top = ranked.subList(0, Math.min(FOLDERS_MAX, ranked.size()));
        return new IgnoredFiles(total, more, top, ranked.size() - top.size());
    }

    /** Files (and links, not followed) under {@code dir}, at most {@code max}; [count, 1 when stopped at max]. */
    private static int[] count(Path dir, int max) {
        int[] n = {0, 0};
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (n[0] >= max) {
                        n[1] = 1;
                        return FileVisitResult.TERMINATE;
                    }
                    n[0]++;
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE; // unreadable: not counted
                }
            });
        } catch (IOException e) {
            // what was counted stands
        }
        return n;
    }
}
