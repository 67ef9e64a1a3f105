package dev.paddock.worktree;

import dev.paddock.common.Words;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.util.FS;

/**
 * What the submodules of a worktree hold that {@code git status} of the worktree itself does not list, so that
 * their work counts as work everywhere (the dirty state, the removal plan).
 *
 * <p>Git sees a submodule through its gitlink only. Files written in the folder of a submodule that is not
 * initialised (no {@code .git} in it) are invisible to git: {@code git status} and {@code git add -A} skip the
 * folder, and {@code git worktree remove} deletes them. In an initialised submodule, git status of the
 * superproject says only {@code M lib}; the files are listed by git status inside it. And the submodule's
 * repository of a linked worktree lives in that worktree's admin directory ({@code <common>/worktrees/<name>/
 * modules/<submodule name>}, git 2.39; the main worktree's in {@code <common>/modules/<name>}): removing the
 * worktree deletes it, with every commit made in it that no remote has.
 *
 * <p>Submodules are found by the gitlinks (mode 160000) of the worktree's index, read in-process with JGit (cached
 * per index file size and time), with {@code git ls-files --stage} where JGit cannot read the index. Nested
 * submodules are followed up to {@value #MAX_DEPTH} levels.
 */
public final class Submodules {
    /** Levels of nested submodules followed. */
    static final int MAX_DEPTH = 8;
    /** Files listed at most per uninitialised submodule folder; the rest are counted in one line. */
    static final int FILES_MAX = 1000;
    /** Commits listed at most per submodule. */
    static final int COMMITS_MAX = 200;

    private static final int CACHE_MAX = 1024;
    /**
     * Given to every git run inside a submodule (and to a status that recurses into them): a submodule's config
     * lives in the worktree's admin directory, which the namespace and container tiers let the agent write, and
     * these keys would make Paddock's own git run a command of the agent's choosing outside its sandbox.
     */
    static final List<String> NO_COMMANDS = List.of("-c", "core.fsmonitor=false", "-c", "log.showSignature=false");

    private final GitCli git;
    private final Map<Path, CachedLinks> links = new ConcurrentHashMap<>();

    private record CachedLinks(long size, FileTime modified, List<String> paths) {}

    public Submodules(GitCli git) {
        this.git = git;
    }

    /**
     * What a worktree's submodules hold.
     *
     * @param paths status lines ({@code "XY path"}, paths relative to the worktree) of what would be lost inside
     *     submodules: what {@code git status} lists inside an initialised one, and every file of an uninitialised
     *     one's folder as {@code "?? lib/file"} (up to {@value #FILES_MAX} per folder, then one line
     *     {@code "?? lib/ (N more files)"})
     * @param commits commits that only this worktree's submodule repositories hold (reachable from their HEAD or
     *     branches, not from any remote-tracking branch), as {@code "lib: abc1234 subject"}
     * @param problems submodules whose git could not be read, as {@code "lib: reason"} (their files are listed in
     *     {@code paths} as untracked)
     */
    public record Work(List<String> paths, List<String> commits, List<String> problems) {
        public static final Work NONE = new Work(List.of(), List.of(), List.of());

        public boolean isEmpty() {
            return paths.isEmpty() && commits.isEmpty();
        }
    }

    /**
     * The submodule paths (gitlinks of the index), relative to {@code worktree}, in index order; empty when it has
     * none or no index.
     *
     * @throws GitException when neither JGit nor git can read the index
     */
    public List<String> paths(Path worktree) throws GitException {
        Path index;
        try {
            Path gitDir = WorktreeHeads.gitDirOf(worktree);
            if (gitDir == null) {
                return List.of();
            }
            index = gitDir.resolve("index");
            if (!Files.isRegularFile(index)) {
                return List.of();
            }
            BasicFileAttributes a = Files.readAttributes(index, BasicFileAttributes.class);
            CachedLinks cached = links.get(index);
            if (cached != null && cached.size() == a.size() && cached.modified().equals(a.lastModifiedTime())) {
                return cached.paths();
            }
            List<String> found = readGitlinks(worktree, index);
            if (links.size() > CACHE_MAX) {
                links.clear();
            }
            links.put(index, new CachedLinks(a.size(), a.lastModifiedTime(), found));
            return found;
        } catch (IOException e) {
            throw new GitException("Cannot read the index of " + worktree + ": " + e.getMessage(), e);
        }
    }

    private List<String> readGitlinks(Path worktree, Path index) throws GitException {
        try {
            DirCache dc = DirCache.read(index.toFile(), FS.DETECTED);
            List<String> out = new ArrayList<>();
            for (int i = 0; i < dc.getEntryCount(); i++) {
                DirCacheEntry e = dc.getEntry(i);
                if (e.getFileMode() == FileMode.GITLINK && e.getStage() == 0) {
                    out.add(e.getPathString());
                }
            }
            return List.copyOf(out);
        } catch (IOException | RuntimeException e) {
            // JGit may not know an index extension this git wrote: git itself always answers.
            String z = git.runOk(worktree, "--no-optional-locks", "ls-files", "--stage", "-z");
            List<String> out = new ArrayList<>();
            for (String entry : z.split("\0")) {
                int tab = entry.indexOf('\t');
                if (entry.startsWith("160000 ")
                        && tab > 0
                        && entry.substring(0, tab).endsWith(" 0")) {
                    out.add(entry.substring(tab + 1));
                }
            }
            return List.copyOf(out);
        }
    }

    /**
     * Counts the changed paths inside a worktree's submodules that {@code git status} of the worktree does not
     * count: the files in uninitialised submodule folders (initialised ones show in that status already, as one
     * changed path each). Cheap: one index read (cached) and a walk of the uninitialised folders.
     */
    public int uncountedFiles(Path worktree) throws GitException {
        int n = 0;
        for (String p : paths(worktree)) {
            Path folder = worktree.resolve(p).normalize();
            if (!folder.startsWith(worktree) || folder.equals(worktree)) {
                continue;
            }
            if (Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)
                    && !Files.exists(folder.resolve(".git"), LinkOption.NOFOLLOW_LINKS)) {
                n += countFiles(folder);
            }
        }
        return n;
    }

    /**
     * Everything the worktree's submodules hold that removing the worktree would lose (see {@link Work}).
     *
     * @throws GitException when the worktree's index cannot be read
     */
    public Work work(Path worktree) throws GitException {
        List<String> paths = new ArrayList<>();
        List<String> commits = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        collect(worktree, "", 0, paths, commits, problems);
        return paths.isEmpty() && commits.isEmpty() && problems.isEmpty()
                ? Work.NONE
                : new Work(List.copyOf(paths), List.copyOf(commits), List.copyOf(problems));
    }

    private void collect(
            Path tree, String prefix, int depth, List<String> paths, List<String> commits, List<String> problems)
            throws GitException {
        if (depth >= MAX_DEPTH) {
            return;
        }
        for (String p : paths(tree)) {
            Path folder = tree.resolve(p).normalize();
            if (!folder.startsWith(tree) || folder.equals(tree)) {
                continue; // git never writes such a gitlink; a hand-made index might
            }
            String shown = prefix + p;
            if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
                continue; // a deleted submodule folder: git status of the superproject lists it (" D lib")
            }
            if (!Files.exists(folder.resolve(".git"), LinkOption.NOFOLLOW_LINKS)) {
                listFiles(folder, shown, paths);
                continue;
            }
            GitCli.Result st = git.run(
                    folder,
                    withNoCommands(
                            "--no-optional-locks",
                            "status",
                            "--porcelain=v1",
                            "-z",
                            "--untracked-files=all",
                            "--ignore-submodules=none"),
                    GitCli.DEFAULT_TIMEOUT);
            GitCli.Result log = st.ok()
                    ? git.run(
                            folder,
                            withNoCommands(
                                    "log",
                                    "--no-show-signature",
                                    "--format=%h %s",
                                    "--max-count=" + (COMMITS_MAX + 1),
                                    "HEAD",
                                    "--branches",
                                    "--not",
                                    "--remotes",
                                    "--"),
                            GitCli.DEFAULT_TIMEOUT)
                    : st;
            if (!st.ok() || !log.ok()) {
                problems.add(shown + ": " + (st.ok() ? log : st).errorLine());
                listFiles(folder, shown, paths); // cannot ask its git: every file counts
                continue;
            }
            paths.addAll(statusLines(st.stdout(), shown + "/"));
            List<String> own = log.stdout().lines().filter(l -> !l.isBlank()).toList();
            own.stream().limit(COMMITS_MAX).forEach(c -> commits.add(shown + ": " + c));
            if (own.size() > COMMITS_MAX) {
                commits.add(shown + ": … and more commits that no remote of it has");
            }
            collect(folder, shown + "/", depth + 1, paths, commits, problems);
        }
    }

    /** {@link #NO_COMMANDS} followed by {@code args}. */
    static List<String> withNoCommands(String... args) {
        List<String> out = new ArrayList<>(NO_COMMANDS);
        out.addAll(List.of(args));
        return out;
    }

    /** {@code git status --porcelain=v1 -z} entries as {@code "XY prefix/path"} lines (a rename's source dropped). */
    static List<String> statusLines(String z, String prefix) {
        List<String> out = new ArrayList<>();
        String[] tokens = z.split("\0");
        for (int i = 0; i < tokens.length; i++) {
            String t = tokens[i];
            if (t.length() < 4) {
                continue;
            }
            out.add(t.substring(0, 3) + prefix + t.substring(3));
            if (t.charAt(0) == 'R' || t.charAt(0) == 'C' || t.charAt(1) == 'R' || t.charAt(1) == 'C') {
                i++;
            }
        }
        return out;
    }

    private static void listFiles(Path folder, String shown, List<String> out) throws GitException {
        List<String> files = new ArrayList<>();
        int[] total = {0};
        walk(folder, f -> {
            if (total[0]++ < FILES_MAX) {
                files.add(f);
            }
        });
        files.sort(null);
        files.forEach(f -> out.add("?? " + shown + "/" + f));
        if (total[0] > FILES_MAX) {
            out.add("?? " + shown + "/ (" + Words.count(total[0] - FILES_MAX, "more file", "more files") + ")");
        }
    }

    private static int countFiles(Path folder) throws GitException {
        int[] n = {0};
        walk(folder, f -> n[0]++);
        return n[0];
    }

    /** Every file (and link, not followed) under {@code folder}, relative to it with {@code /}. */
    private static void walk(Path folder, java.util.function.Consumer<String> file) throws GitException {
        try {
            Files.walkFileTree(folder, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) {
                    if (!f.getFileName().toString().equals(".git")) { // a submodule's link to its repository
                        file.accept(folder.relativize(f).toString().replace('\\', '/'));
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path f, IOException e) {
                    file.accept(folder.relativize(f).toString().replace('\\', '/'));
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new GitException("Cannot list the files in " + folder + ": " + e.getMessage(), e);
        }
    }
}
