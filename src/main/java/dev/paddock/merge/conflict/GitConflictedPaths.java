package dev.paddock.merge.conflict;

import dev.paddock.common.Processes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The paths git's own merge leaves conflicted: {@code git merge-tree --write-tree --name-only -z --no-messages}
 * (git 2.38+). Used for the files whose text JGit's merger does not merge ({@link TextMergeLimits}: lockfiles and
 * very large files, where JGit's diff goes quadratic). git writes the objects of its result tree into a throw-away
 * object directory that reads the repository's objects as an alternate, so the repository does not change.
 */
final class GitConflictedPaths {
    private static final long TIMEOUT_MINUTES = 10;

    private GitConflictedPaths() {}

    /**
     * The conflicted paths of merging {@code theirs} into {@code ours}, or empty when git could not say (not
     * installed, older than 2.38, or failed): the caller then keeps the files conflicted.
     *
     * @param gitDir     the repository's git directory
     * @param objectsDir its object directory (the common one for a linked worktree)
     */
    static Optional<Set<String>> of(Path gitDir, Path objectsDir, String ours, String theirs) {
        Path scratch = null;
        try {
            scratch = Files.createTempDirectory("paddock-merge-tree");
            ProcessBuilder pb = new ProcessBuilder(
                            "git",
                            "--git-dir=" + gitDir,
                            "merge-tree",
                            "--write-tree",
                            "--name-only",
                            "-z",
                            "--no-messages",
                            ours,
                            theirs)
                    .redirectError(ProcessBuilder.Redirect.DISCARD);
            Processes.withoutPaddockSecrets(pb);
            pb.environment().put("GIT_OBJECT_DIRECTORY", scratch.toString());
            pb.environment()
                    .put(
                            "GIT_ALTERNATE_OBJECT_DIRECTORIES",
                            objectsDir.toAbsolutePath().toString());
            Process p = pb.start();
            p.getOutputStream().close();
            byte[] out = readAll(p.getInputStream());
            if (!p.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                return Optional.empty();
            }
            int code = p.exitValue();
            if (code != 0 && code != 1) {
                return Optional.empty();
            }
            return Optional.of(parse(new String(out, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } finally {
            delete(scratch);
        }
    }

    /** The paths of {@code -z --name-only} output: the tree id, then one path per NUL until an empty field. */
    static Set<String> parse(String out) {
        Set<String> paths = new HashSet<>();
        String[] fields = out.split("\0", -1);
        for (int i = 1; i < fields.length && !fields[i].isEmpty(); i++) {
            paths.add(fields[i]);
        }
        return paths;
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        in.transferTo(buf);
        return buf.toByteArray();
    }

    private static void delete(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a left-over temporary folder loses nothing
        }
    }
}
