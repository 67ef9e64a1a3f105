package dev.paddock.worktree;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Which worktree of a repository has a branch checked out, read from git's own administrative files instead of
 * a {@code git worktree list --porcelain} process: the main worktree's {@code HEAD} in the common git dir, and for
 * each linked worktree {@code <common dir>/worktrees/<name>/HEAD} and its {@code gitdir} file (the path of the
 * worktree's {@code .git} file). The rules are git's ({@code worktree.c}: {@code get_main_worktree},
 * {@code get_linked_worktree}): the main worktree is the common dir without its {@code /.git}, a linked worktree
 * is its {@code gitdir} without {@code /.git}, an admin folder without a {@code gitdir} file is skipped, a
 * detached {@code HEAD} holds no branch.
 *
 * <p>Layouts it does not read with certainty (a common dir not named {@code .git}, the reftable ref store whose
 * {@code HEAD} file only says {@code refs/heads/.invalid}, unreadable files) answer {@link Answer#UNKNOWN}: the
 * caller then asks git.
 */
public final class WorktreeHeads {
    private static final String REF_PREFIX = "ref: ";

    private WorktreeHeads() {}

    /**
     * What the files say.
     *
     * @param known whether they could be read with certainty (false: ask git)
     * @param tree the worktree holding the branch; null when none does (or when not known)
     */
    public record Answer(boolean known, Path tree) {
        public static final Answer UNKNOWN = new Answer(false, null);

        /** The worktree holding the branch, if known and any. */
        public Optional<Path> checkout() {
            return Optional.ofNullable(tree);
        }
    }

    /**
     * The worktree of {@code repo} (a main or linked worktree path) whose {@code HEAD} is
     * {@code refs/heads/<branch>}: the main worktree first, then linked ones by admin folder name.
     */
    public static Answer find(Path repo, String branch) {
        try {
            Path gitDir = gitDirOf(repo);
            if (gitDir == null) {
                return Answer.UNKNOWN;
            }
            Path common = commonDirOf(gitDir);
            if (common.getFileName() == null || !common.getFileName().toString().equals(".git")) {
                return Answer.UNKNOWN; // bare or separate git dir: git's own answer there is its business
            }
            String wanted = "refs/heads/" + branch;
            String mainHead = headRef(common.resolve("HEAD"));
            if (mainHead == null || mainHead.equals("refs/heads/.invalid")) {
                return Answer.UNKNOWN;
            }
            if (mainHead.equals(wanted)) {
                return new Answer(true, common.getParent());
            }
            Path admin = common.resolve("worktrees");
            if (!Files.isDirectory(admin)) {
                return new Answer(true, null);
            }
            List<Path> linked = new ArrayList<>();
            try (Stream<Path> s = Files.list(admin)) {
                s.filter(Files::isDirectory).sorted().forEach(linked::add);
            }
            for (Path a : linked) {
                Path gitdirFile = a.resolve("gitdir");
                Path headFile = a.resolve("HEAD");
                if (!Files.isRegularFile(gitdirFile) || !Files.isRegularFile(headFile)) {
                    continue; // git skips an admin folder it cannot read
                }
                String head = headRef(headFile);
                if (head == null) {
                    return Answer.UNKNOWN;
                }
                if (head.equals(wanted)) {
                    Path dotGit =
                            a.resolve(read(gitdirFile).strip()).normalize(); // relative paths: from the admin folder
                    return new Answer(
                            true,
                            dotGit.getFileName() != null
                                            && dotGit.getFileName().toString().equals(".git")
                                    ? dotGit.getParent()
                                    : dotGit);
                }
            }
            return new Answer(true, null);
        } catch (IOException | RuntimeException e) {
            return Answer.UNKNOWN;
        }
    }

    /**
     * Whether the branch certainly exists by git's ref files: a loose {@code refs/heads/<branch>} file holding a
     * commit id, or a line for it in {@code packed-refs}. False means "not seen here" (a reftable store, an odd
     * name, a symbolic ref...): ask git.
     */
    public static boolean branchFileExists(Path repo, String branch) {
        if (branch.isEmpty()
                || branch.startsWith("/")
                || branch.contains("..")
                || branch.contains("\0")
                || branch.contains("\\")) {
            return false;
        }
        try {
            Path gitDir = gitDirOf(repo);
            if (gitDir == null) {
                return false;
            }
            Path common = commonDirOf(gitDir);
            String ref = "refs/heads/" + branch;
            Path loose = common.resolve(ref);
            if (Files.isRegularFile(loose) && read(loose).strip().matches("[0-9a-f]{40}|[0-9a-f]{64}")) {
                return true;
            }
            Path packed = common.resolve("packed-refs");
            if (Files.isRegularFile(packed)) {
                try (Stream<String> lines = Files.lines(packed, StandardCharsets.UTF_8)) {
                    return lines.anyMatch(l -> l.endsWith(" " + ref) && l.matches("[0-9a-f]{40,64} .*"));
                }
            }
            return false;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * The git dir of a worktree: its {@code .git} folder, or where its {@code .git} file ({@code gitdir: <path>})
     * points; null when it has neither.
     */
    public static Path gitDirOf(Path worktree) throws IOException {
        Path dotGit = worktree.toAbsolutePath().normalize().resolve(".git");
        if (Files.isDirectory(dotGit)) {
            return dotGit;
        }
        if (!Files.isRegularFile(dotGit)) {
            return null;
        }
        String content = read(dotGit).strip();
        if (!content.startsWith("gitdir:")) {
            return null;
        }
        return dotGit.getParent()
                .resolve(content.substring("gitdir:".length()).strip())
                .normalize();
    }

    /** The common dir of a git dir: where its {@code commondir} file points, else the git dir itself. */
    public static Path commonDirOf(Path gitDir) throws IOException {
        Path file = gitDir.resolve("commondir");
        return Files.isRegularFile(file) ? gitDir.resolve(read(file).strip()).normalize() : gitDir;
    }

    /** The ref a HEAD file names, "" when it is detached (a commit id), null when it cannot be read. */
    private static String headRef(Path head) throws IOException {
        if (!Files.isRegularFile(head)) {
            return null;
        }
        String s = read(head).strip();
        if (s.startsWith(REF_PREFIX)) {
            return s.substring(REF_PREFIX.length()).strip();
        }
        return s.matches("[0-9a-f]{40}|[0-9a-f]{64}") ? "" : null;
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
