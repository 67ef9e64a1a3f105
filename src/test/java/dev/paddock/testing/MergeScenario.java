package dev.paddock.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A real repository with a merge to make: a base commit on {@code main}, then ours (a commit on {@code main})
 * and theirs (a commit on branch {@code agent}, started at base), each side writing or deleting files.
 * {@code main} stays checked out. {@link #state()} captures everything a read-only operation must leave as
 * it was (refs, index bytes, working tree, {@code git status}, the object store's files).
 *
 * <pre>{@code
 * MergeScenario m = MergeScenario.in(tmp)
 *         .file("App.java", "base text", "ours text", "theirs text")   // null text = file absent on that side
 *         .build();
 * classifier.classify(m.dir(), "main", "agent");
 * }</pre>
 */
public final class MergeScenario {
    /** Branch of theirs. */
    public static final String THEIRS = "agent";

    private final TempRepo repo;
    private final Map<String, byte[][]> files = new LinkedHashMap<>();

    private MergeScenario(TempRepo repo) {
        this.repo = repo;
    }

    /** A repository in {@code dir/repo} with its initial commit. */
    public static MergeScenario in(Path dir) {
        return new MergeScenario(TempRepo.init(dir.resolve("repo")));
    }

    /** A scenario over an existing repository (for {@link #state()} of a history built by hand). */
    public static MergeScenario of(TempRepo repo) {
        return new MergeScenario(repo);
    }

    /** A text file (UTF-8) in base, ours and theirs; null where the side has no such file. */
    public MergeScenario file(String path, String base, String ours, String theirs) {
        return bytes(path, utf8(base), utf8(ours), utf8(theirs));
    }

    /** A file given as bytes in base, ours and theirs; null where the side has no such file. */
    public MergeScenario bytes(String path, byte[] base, byte[] ours, byte[] theirs) {
        files.put(path, new byte[][] {base, ours, theirs});
        return this;
    }

    /** Commits base, ours (on main) and theirs (on agent); main stays checked out. */
    public MergeScenario build() {
        writeSide(0);
        repo.commitAll("Base");
        repo.branch(THEIRS);
        writeSide(1);
        repo.commitAll("Ours");
        repo.git("checkout", "--quiet", THEIRS);
        writeSide(2);
        repo.commitAll("Theirs");
        repo.git("checkout", "--quiet", "main");
        return this;
    }

    /** The repository's main worktree. */
    public Path dir() {
        return repo.dir();
    }

    public TempRepo repo() {
        return repo;
    }

    /** The paths git itself leaves conflicted when merging agent into main ({@code git merge-tree}), sorted. */
    public String gitConflicts() {
        TempRepo.Result r =
                TempRepo.run(repo.dir(), "merge-tree", "--write-tree", "--name-only", "--no-messages", "main", THEIRS);
        String[] lines = r.stdout().split("\n");
        return String.join("\n", Arrays.asList(lines).subList(1, lines.length)).strip();
    }

    private void writeSide(int side) {
        for (Map.Entry<String, byte[][]> f : files.entrySet()) {
            Path p = repo.dir().resolve(f.getKey());
            byte[] content = f.getValue()[side];
            try {
                if (content == null) {
                    Files.deleteIfExists(p);
                } else {
                    Files.createDirectories(p.getParent());
                    Files.write(p, content);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static byte[] utf8(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * What must not change: refs and HEAD, the index file's bytes, every working-tree file (path → content
     * digest), {@code git status --porcelain}, and the list of files under {@code .git/objects}.
     */
    public record State(
            String refs,
            String head,
            String indexDigest,
            Map<String, String> workTree,
            String status,
            String objectFiles) {}

    /** The repository's state now. */
    public State state() {
        Path git = repo.dir().resolve(".git");
        try {
            Map<String, String> tree = new TreeMap<>();
            try (Stream<Path> walk = Files.walk(repo.dir())) {
                for (Path p : walk.filter(Files::isRegularFile)
                        .filter(p -> !p.startsWith(git))
                        .toList()) {
                    tree.put(repo.dir().relativize(p).toString(), digest(Files.readAllBytes(p)));
                }
            }
            StringBuilder objects = new StringBuilder();
            try (Stream<Path> walk = Files.walk(git.resolve("objects"))) {
                walk.filter(Files::isRegularFile)
                        .map(p -> git.relativize(p).toString())
                        .sorted()
                        .forEach(p -> objects.append(p).append('\n'));
            }
            return new State(
                    repo.git("for-each-ref"),
                    Files.readString(git.resolve("HEAD")) + repo.head(),
                    digest(Files.readAllBytes(git.resolve("index"))),
                    tree,
                    repo.git("--no-optional-locks", "status", "--porcelain", "--untracked-files=all"),
                    objects.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String digest(byte[] bytes) {
        try {
            return java.util.HexFormat.of()
                    .formatHex(
                            java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
