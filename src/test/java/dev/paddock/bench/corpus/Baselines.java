package dev.paddock.bench.corpus;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The two baselines of the corpus, each given a hunk's own base, ours and theirs lines as three files: plain
 * {@code kdiff3 --auto} (headless: Qt's offscreen platform, its end-of-merge dialog turned off; when it cannot
 * solve every conflict it opens its window, which is taken as "left to a person" and closed), and {@code git merge
 * -X ignore-space-change} (one throw-away repository holding every hunk as a file; renames off). Each answers, per
 * hunk, its merged lines or null (left to a person).
 */
final class Baselines {
    private Baselines() {}

    /** One hunk's three sides. */
    record Sides(List<String> base, List<String> ours, List<String> theirs) {}

    /** kdiff3's answer per hunk (null: left to a person); several kdiff3 processes run at once. */
    static List<List<String>> kdiff3(List<Sides> hunks, Path work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<List<String>>> futures = new ArrayList<>();
            for (int i = 0; i < hunks.size(); i++) {
                Path dir = work.resolve("kdiff3").resolve(Integer.toString(i));
                Sides s = hunks.get(i);
                futures.add(pool.submit(() -> kdiff3One(s, dir)));
            }
            List<List<String>> out = new ArrayList<>();
            for (Future<List<String>> f : futures) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<String> kdiff3One(Sides s, Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        write(dir.resolve("base"), s.base());
        write(dir.resolve("ours"), s.ours());
        write(dir.resolve("theirs"), s.theirs());
        Path out = dir.resolve("out");
        Files.deleteIfExists(out);
        ProcessBuilder pb = new ProcessBuilder(
                        "kdiff3",
                        "--auto",
                        "--cs",
                        "ShowInfoDialogs=0",
                        "-o",
                        out.toString(),
                        dir.resolve("base").toString(),
                        dir.resolve("ours").toString(),
                        dir.resolve("theirs").toString())
                .redirectErrorStream(true);
        pb.environment().put("QT_QPA_PLATFORM", "offscreen");
        pb.environment().put("XDG_RUNTIME_DIR", dir.toString());
        Process p = pb.start();
        boolean window = false;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            String line;
            while ((line = r.readLine()) != null) {
                if (line.contains("propagateSizeHints") || System.nanoTime() > deadline) {
                    window = true; // its window opened: conflicts it could not solve
                    break;
                }
            }
        } finally {
            if (!p.waitFor(window ? 0 : 60, TimeUnit.SECONDS) || window) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor();
            }
        }
        if (window || p.exitValue() != 0 || !Files.exists(out)) {
            return null;
        }
        return CorpusTexts.split(Files.readString(out, StandardCharsets.UTF_8));
    }

    /** git's answer per hunk (null: left to a person), from one merge of every hunk as a file. */
    static List<List<String>> gitIgnoreSpaceChange(List<Sides> hunks, Path work)
            throws IOException, InterruptedException {
        Path repo = work.resolve("git");
        Files.createDirectories(repo);
        git(repo, "init", "-q", "-b", "base");
        git(repo, "config", "user.email", "bench@example.invalid");
        git(repo, "config", "user.name", "bench");
        git(repo, "config", "commit.gpgsign", "false");
        for (int i = 0; i < hunks.size(); i++) {
            write(repo.resolve(name(i)), hunks.get(i).base());
        }
        commit(repo, "base");
        git(repo, "checkout", "-q", "-b", "theirs");
        for (int i = 0; i < hunks.size(); i++) {
            write(repo.resolve(name(i)), hunks.get(i).theirs());
        }
        commit(repo, "theirs");
        git(repo, "checkout", "-q", "-b", "ours", "base");
        for (int i = 0; i < hunks.size(); i++) {
            write(repo.resolve(name(i)), hunks.get(i).ours());
        }
        commit(repo, "ours");
        run(repo, true, "git", "merge", "-q", "--no-edit", "-X", "ignore-space-change", "-X", "no-renames", "theirs");
        Set<String> conflicted = new HashSet<>(List.of(run(repo, false, "git", "diff", "--name-only", "--diff-filter=U")
                .split("\n")));
        List<List<String>> out = new ArrayList<>();
        for (int i = 0; i < hunks.size(); i++) {
            Path f = repo.resolve(name(i));
            out.add(
                    conflicted.contains(name(i)) || !Files.exists(f)
                            ? null
                            : CorpusTexts.split(new String(Files.readAllBytes(f), StandardCharsets.UTF_8)));
        }
        return out;
    }

    private static String name(int i) {
        return String.format("h%05d.txt", i);
    }

    private static void commit(Path repo, String message) throws IOException, InterruptedException {
        git(repo, "add", "-A");
        git(repo, "commit", "-q", "--allow-empty", "-m", message);
    }

    private static void git(Path repo, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("git"));
        cmd.addAll(List.of(args));
        run(repo, false, cmd.toArray(String[]::new));
    }

    private static String run(Path dir, boolean mayFail, String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0 && !mayFail) {
            throw new IOException(String.join(" ", cmd) + " failed: " + out);
        }
        return out;
    }

    private static void write(Path file, List<String> lines) throws IOException {
        StringBuilder s = new StringBuilder();
        lines.forEach(l -> s.append(l).append('\n'));
        Files.writeString(file, s.toString(), StandardCharsets.UTF_8);
    }
}
