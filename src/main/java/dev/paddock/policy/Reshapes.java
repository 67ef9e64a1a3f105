package dev.paddock.policy;

import dev.paddock.policy.shell.Word;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Commands that may change where a path with {@code ..} leads, and the paths with {@code ..} of the same command
 * line. The analysis follows a symbolic link before a {@code ..} as the disk has it when the command is judged;
 * a link made, or a folder moved, by another part of the command ({@code ln -s a/b d; cat d/../../x},
 * {@code mv ../../s ../s2} above the working directory) changes that before the path is used, in any order a loop
 * or a function may give. Such a line is not judged. One per analysis.
 */
final class Reshapes {
    /** Programs that make links or move folders. */
    private static final Set<String> PROGRAMS =
            Set.of("ln", "link", "mv", "rename", "rsync", "tar", "bsdtar", "gtar", "unzip", "cpio", "7z", "7za");
    /** git subcommands that write the worktree from the repository (its links too). */
    private static final Set<String> GIT = Set.of(
            "checkout",
            "switch",
            "reset",
            "stash",
            "merge",
            "pull",
            "rebase",
            "cherry-pick",
            "revert",
            "restore",
            "read-tree",
            "checkout-index",
            "am",
            "clone",
            "worktree",
            "submodule");

    private final Set<Integer> reshaping = new HashSet<>();
    private final Set<Integer> dotDots = new HashSet<>();
    private String first;
    private int current;

    /** The command being analysed now (its place on the line): what follows is counted for it. */
    void at(int command) {
        current = command;
    }

    /** A program run by the current command, with its arguments after the name. */
    void program(String name, List<Word> args) {
        if (PROGRAMS.contains(name) || name.equals("cp") && copiesLinks(args)) {
            reshaping(name);
        }
    }

    /** A git subcommand run by the current command ({@link GitArguments.Parsed#subcommand()}; null when none). */
    void git(String subcommand) {
        if (subcommand != null && GIT.contains(subcommand)) {
            reshaping("git " + subcommand);
        }
    }

    private void reshaping(String program) {
        reshaping.add(current);
        if (first == null) {
            first = program;
        }
    }

    /** The current command uses a path with {@code ..} (a file it names, or a {@code cd}). */
    void dotDot() {
        dotDots.add(current);
    }

    /** Why the line cannot be judged, or null. */
    String problem() {
        for (int r : reshaping) {
            for (int d : dotDots) {
                if (d != r) {
                    return "a path with `..` where `" + first + "` may have made a link or moved a folder"
                            + " first, so where it leads is known only at run time";
                }
            }
        }
        return null;
    }

    /** Whether {@code cp} keeps links as links ({@code -a}, {@code -d}, {@code -P}, {@code -r}) or makes them. */
    private static boolean copiesLinks(List<Word> args) {
        for (Word w : args) {
            String v = w.value();
            if (v.equals("--")) {
                return false;
            }
            if (v.startsWith("--")) {
                if (v.equals("--archive")
                        || v.equals("--symbolic-link")
                        || v.equals("--no-dereference")
                        || v.equals("--recursive")
                        || v.startsWith("--preserve")) {
                    return true;
                }
            } else if (v.startsWith("-")) {
                for (char c : v.substring(1).toCharArray()) {
                    if ("adPrRs".indexOf(c) >= 0) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
