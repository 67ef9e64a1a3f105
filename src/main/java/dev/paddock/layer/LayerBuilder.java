package dev.paddock.layer;

import dev.paddock.common.PrivateFiles;
import dev.paddock.common.Processes;
import dev.paddock.common.Trees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Builds a new generation of a repository's shared layer: with a setup command, in a fresh detached checkout of the
 * base branch ({@code build-N}, a linked worktree removed afterwards) where the command runs in a namespace sandbox
 * (bubblewrap, with the network; its checkout writable, the rest of the system read-only, its home
 * {@code build-N/.home}): the base branch holds what agents merged, or moved there, so its scripts never run on the
 * host. Without one, by copying the folders from the main checkout (and the user's home). Each folder is then moved into {@code gen-N/}, which is
 * published as current only when every folder is there. Output goes to {@code .shared/refresh.log}.
 */
final class LayerBuilder {
    private static final String HOME = ".home";

    private final Duration timeout;
    private final dev.paddock.isolation.IsolationRuntime sandbox;

    /** @param sandbox the namespace tier's runtime, which runs setup commands */
    LayerBuilder(Duration timeout, dev.paddock.isolation.IsolationRuntime sandbox) {
        this.timeout = timeout;
        this.sandbox = sandbox;
    }

    /** A generation built. */
    record Built(int generation, long files, Duration took) {}

    Built build(Path main, String baseBranch, LayerConfig config, Consumer<String> progress) throws LayerException {
        Instant start = Instant.now();
        Path shared = LayerDirs.shared(main);
        Path log = LayerDirs.log(main);
        int n;
        Path gen;
        Path build;
        try {
            Files.createDirectories(shared);
            n = LayerDirs.next(main);
            gen = LayerDirs.generation(main, n);
            build = LayerDirs.build(main, n);
            Files.createDirectories(gen);
            PrivateFiles.append(log, "=== " + Instant.now() + " generation " + n + "\n");
        } catch (IOException e) {
            throw new LayerException("Cannot prepare " + shared + ": " + e.getMessage(), e);
        }
        try {
            Path from;
            Path home;
            if (config.setupCommand() != null) {
                progress.accept("Checking out " + baseBranch + " for the setup command…");
                run(
                        List.of(
                                "git",
                                "-C",
                                main.toString(),
                                "worktree",
                                "add",
                                "--detach",
                                build.toString(),
                                baseBranch),
                        main,
                        Map.of(),
                        log,
                        "checking out " + baseBranch);
                home = build.resolve(HOME);
                Files.createDirectories(home);
                progress.accept("Running " + config.setupCommand() + " in a namespace sandbox…");
                runSandboxed(build, home, config.setupCommand(), log, n);
                from = build;
            } else {
                from = main;
                home = Path.of(System.getProperty("user.home"));
            }
            long files = 0;
            for (String folder : config.folders()) {
                Path root = LayerFolders.inHome(folder) ? home : from;
                String rel = LayerFolders.inHome(folder) ? folder.substring(2) : folder;
                Path src = root.resolve(rel);
                Path dst = gen.resolve(LayerFolders.fileName(folder));
                // A link the repository tracks would take a folder from elsewhere (the home is the user's own).
                java.util.Optional<Path> link =
                        LayerFolders.inHome(folder) ? java.util.Optional.empty() : LayerFolders.notAFolder(root, rel);
                if (link.isPresent()) {
                    throw new LayerException(link.get() + " is a link or a file, not a folder, so " + folder
                            + " is not shared from it; nothing was changed.");
                }
                if (!Files.isDirectory(src, LinkOption.NOFOLLOW_LINKS)) {
                    throw new LayerException((config.setupCommand() == null
                                    ? "There is no folder " + src + " to share"
                                    : "The setup command made no folder " + folder)
                            + "; nothing was changed (see " + log + ").");
                }
                progress.accept((from == main ? "Copying " : "Moving ") + folder + "…");
                if (from == main) {
                    run(
                            List.of("cp", "-a", "--reflink=auto", "--", src.toString(), dst.toString()),
                            main,
                            Map.of(),
                            log,
                            "copying " + folder);
                } else {
                    Files.move(src, dst);
                }
                files += LayerDirs.countFiles(dst);
            }
            LayerDirs.publish(main, n);
            progress.accept("Generation " + n + " is the shared layer now (" + files(files) + ").");
            return new Built(n, files, Duration.between(start, Instant.now()));
        } catch (IOException e) {
            throw new LayerException("Cannot build the shared layer: " + e.getMessage(), e);
        } finally {
            removeBuild(main, build, log);
            if (LayerDirs.current(main).orElse(-1) != n) {
                try {
                    Trees.delete(gen);
                } catch (IOException e) {
                    note(log, "could not delete the unfinished " + gen + ": " + e.getMessage());
                }
            }
        }
    }

    /** Runs the setup command in the namespace tier, in the checkout {@code build}, with {@code home} as its home. */
    private void runSandboxed(Path build, Path home, String command, Path log, int n) throws LayerException {
        java.util.Optional<String> why = sandbox.unavailable();
        if (why.isPresent()) {
            throw new LayerException("A setup command runs in a namespace sandbox, which cannot run here: " + why.get()
                    + " Nothing was changed.");
        }
        dev.paddock.isolation.RunSpec spec = new dev.paddock.isolation.RunSpec(
                dev.paddock.isolation.RunSpec.Kind.TASK,
                new dev.paddock.isolation.RunId(
                        "layers-" + n,
                        "paddock-layers-" + n,
                        Map.of(),
                        null,
                        log,
                        new dev.paddock.isolation.RunId.Marker("PADDOCK_LAYER_BUILD", build + ":" + System.nanoTime())),
                build,
                "HOME=" + "'" + home.toString().replace("'", "'\\''") + "'" + "; export HOME; " + command,
                "setup of the shared layer: " + command,
                dev.paddock.isolation.GitWrites.OBJECTS,
                Map.of(),
                Map.of(),
                null,
                true,
                null);
        dev.paddock.isolation.RunEnd end;
        try {
            end = sandbox.runToEnd(spec, timeout, Duration.ofSeconds(3), () -> false, ref -> {});
        } catch (dev.paddock.common.PaddockException e) {
            throw new LayerException("Cannot run the setup command: " + e.getMessage() + " Nothing was changed.", e);
        }
        if (end.timedOut()) {
            throw new LayerException("The setup command did not finish within " + timeout.toMinutes()
                    + " min and was stopped; the current generation stays (its output is in " + log + ").");
        }
        if (end.exitCode() == null || end.exitCode() != 0) {
            throw new LayerException("The setup command failed (exit " + end.exitCode() + "): " + tail(log)
                    + ". The current generation stays (all of the output is in " + log + ").");
        }
    }

    private void removeBuild(Path main, Path build, Path log) {
        if (!Files.exists(build, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            run(
                    List.of("git", "-C", main.toString(), "worktree", "remove", "--force", build.toString()),
                    main,
                    Map.of(),
                    log,
                    "removing the checkout");
        } catch (LayerException e) {
            note(log, e.getMessage());
        }
        try {
            Trees.delete(build);
            run(List.of("git", "-C", main.toString(), "worktree", "prune"), main, Map.of(), log, "pruning");
        } catch (IOException | LayerException e) {
            note(log, "could not delete " + build + ": " + e.getMessage());
        }
    }

    private void run(List<String> cmd, Path dir, Map<String, String> env, Path log, String what) throws LayerException {
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd)
                    .directory(dir.toFile())
                    .redirectInput(Processes.NO_INPUT)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            pb.environment().putAll(env);
            Processes.withoutPaddockSecrets(pb);
            Process p = pb.start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new LayerException(capital(what) + " did not finish within " + timeout.toMinutes()
                        + " min and was stopped; the current generation stays (see " + log + ").");
            }
            if (p.exitValue() != 0) {
                throw new LayerException(capital(what) + " failed (exit " + p.exitValue() + "): " + tail(log)
                        + ". The current generation stays (all of the output is in " + log + ").");
            }
        } catch (IOException e) {
            throw new LayerException("Cannot run " + what + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LayerException("Interrupted while " + what + ".", e);
        }
    }

    /** "1 file", "3 files". */
    static String files(long n) {
        return n == 1 ? "1 file" : n + " files";
    }

    private static String capital(String what) {
        return what.isEmpty() ? what : Character.toUpperCase(what.charAt(0)) + what.substring(1);
    }

    /** The log's last line with words in it that the command wrote. */
    private static String tail(Path log) {
        try {
            List<String> lines = new ArrayList<>(Files.readAllLines(log, StandardCharsets.UTF_8));
            for (int i = lines.size() - 1; i >= 0; i--) {
                if (!lines.get(i).isBlank() && !lines.get(i).startsWith("=== ")) { // not the runtime's own lines
                    return lines.get(i).strip();
                }
            }
        } catch (IOException e) {
            return "";
        }
        return "";
    }

    private static void note(Path log, String line) {
        try {
            PrivateFiles.append(log, line + "\n");
        } catch (IOException ignored) {
            // The log is for people; the build's outcome does not depend on it.
        }
    }
}
