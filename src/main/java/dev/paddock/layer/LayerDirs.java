package dev.paddock.layer;

import dev.paddock.common.Trees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;

/**
 * Where a repository's shared layers and each sandbox's own layers live. Under {@code <repo>/.worktrees/.shared/}:
 * one folder per generation ({@code gen-3/}, never written once built: overlayfs forbids changing a lower layer while
 * it is mounted), {@code current} (a link to the newest complete one) and, while a refresh runs, {@code build-3/}.
 * Under a sandbox's {@code <repo>/.worktrees/<id>/.layers/}: {@code generation} (the one it was pinned to at its
 * first start: a refresh never changes a sandbox's lower layer under it) and one folder per shared folder holding its
 * {@code upper/}, {@code work/} and {@code merged/}. Both lie outside every sandbox's writable mounts.
 */
public final class LayerDirs {
    /** The shared layers' folder under {@code .worktrees/} (never a sandbox: ids do not start with a dot). */
    public static final String SHARED = ".shared";

    /** A sandbox's layers' folder in its own folder (never a branch's: git refuses names starting with a dot). */
    public static final String OWN = ".layers";

    private static final String COMPLETE = ".complete";
    private static final String GENERATION = "generation";

    private LayerDirs() {}

    static Path shared(Path mainWorktree) {
        return mainWorktree.resolve(".worktrees").resolve(SHARED);
    }

    static Path generation(Path mainWorktree, int n) {
        return shared(mainWorktree).resolve("gen-" + n);
    }

    static Path build(Path mainWorktree, int n) {
        return shared(mainWorktree).resolve("build-" + n);
    }

    static Path log(Path mainWorktree) {
        return shared(mainWorktree).resolve("refresh.log");
    }

    /** The newest complete generation, if one was built. */
    static OptionalInt current(Path mainWorktree) {
        try {
            Path target = Files.readSymbolicLink(shared(mainWorktree).resolve("current"));
            OptionalInt n = number(target.getFileName().toString(), "gen-");
            return n.isPresent()
                            && Files.exists(
                                    generation(mainWorktree, n.getAsInt()).resolve(COMPLETE))
                    ? n
                    : OptionalInt.empty();
        } catch (IOException e) {
            return OptionalInt.empty();
        }
    }

    /** Marks generation {@code n} complete and makes it the current one (one atomic rename). */
    static void publish(Path mainWorktree, int n) throws IOException {
        Path gen = generation(mainWorktree, n);
        Files.writeString(gen.resolve(COMPLETE), "", StandardCharsets.UTF_8);
        Path tmp = shared(mainWorktree).resolve(".current-" + n);
        Files.deleteIfExists(tmp);
        Files.createSymbolicLink(tmp, gen.getFileName());
        Files.move(tmp, shared(mainWorktree).resolve("current"), StandardCopyOption.ATOMIC_MOVE);
    }

    /** No generation is current any more (the repository shares nothing): each is reclaimed once no sandbox uses it. */
    static void unpublish(Path mainWorktree) throws IOException {
        Files.deleteIfExists(shared(mainWorktree).resolve("current"));
    }

    /** The number a new generation takes: one more than any generation or build folder there is. */
    static int next(Path mainWorktree) throws IOException {
        int max = 0;
        for (String name : names(shared(mainWorktree))) {
            max = Math.max(
                    max, number(name, "gen-").orElse(number(name, "build-").orElse(0)));
        }
        return max + 1;
    }

    /** A sandbox's own layers' folder. */
    static Path own(Path sandboxDir) {
        return sandboxDir.resolve(OWN);
    }

    /** The generation the sandbox was pinned to, if it was. */
    static OptionalInt pinned(Path sandboxDir) {
        try {
            return number(
                    Files.readString(own(sandboxDir).resolve(GENERATION), StandardCharsets.UTF_8)
                            .strip(),
                    "");
        } catch (IOException e) {
            return OptionalInt.empty();
        }
    }

    /** Pins the sandbox to generation {@code n}. */
    static void pin(Path sandboxDir, int n) throws IOException {
        Files.createDirectories(own(sandboxDir));
        Path tmp = own(sandboxDir).resolve(".generation.tmp");
        Files.writeString(tmp, n + "\n", StandardCharsets.UTF_8);
        Files.move(tmp, own(sandboxDir).resolve(GENERATION), StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Deletes the generations no sandbox folder under {@code .worktrees/} is pinned to, except the current one, and
     * what an interrupted refresh left ({@code build-*}, a generation never completed).
     *
     * @return the folders deleted
     */
    static List<Path> reclaim(Path mainWorktree, boolean buildsToo) throws IOException {
        OptionalInt current = current(mainWorktree);
        List<Integer> used = new ArrayList<>();
        current.ifPresent(used::add);
        for (String name : names(mainWorktree.resolve(".worktrees"))) {
            if (!name.startsWith(".")) {
                pinned(mainWorktree.resolve(".worktrees").resolve(name)).ifPresent(used::add);
            }
        }
        List<Path> deleted = new ArrayList<>();
        for (String name : names(shared(mainWorktree))) {
            Path p = shared(mainWorktree).resolve(name);
            OptionalInt gen = number(name, "gen-");
            boolean stale = gen.isPresent() && !used.contains(gen.getAsInt());
            boolean build = buildsToo && number(name, "build-").isPresent();
            if (stale || build) {
                Trees.delete(p);
                deleted.add(p);
            }
        }
        return deleted;
    }

    static List<String> names(Path dir) throws IOException {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static OptionalInt number(String name, String prefix) {
        if (!name.startsWith(prefix)) {
            return OptionalInt.empty();
        }
        String digits = name.substring(prefix.length());
        return digits.matches("[0-9]{1,9}") ? OptionalInt.of(Integer.parseInt(digits)) : OptionalInt.empty();
    }

    /** Files under {@code dir} (links counted, not followed); for reports. */
    static long countFiles(Path dir) throws IOException {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return 0;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))
                    .count();
        }
    }

    static Optional<Path> existing(Path p) {
        return Files.exists(p, LinkOption.NOFOLLOW_LINKS) ? Optional.of(p) : Optional.empty();
    }
}
