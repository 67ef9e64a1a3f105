package dev.paddock.publish;

import dev.paddock.common.Processes;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The GitHub CLI ({@code gh}), found on a {@code PATH} and run non-interactively (no prompts, no update notice, no
 * colours) with an argument list, never a shell string. Its own sign-in is used; Paddock sees no token.
 */
public final class GhCli {
    /** What a person is told when gh is not on the PATH. */
    public static final String MISSING = "gh is not installed: install the GitHub CLI and run gh auth login";
    /** What a person is told when gh is there but not signed in. */
    public static final String SIGNED_OUT = "gh is not signed in: run gh auth login";
    /** How long one gh command may take. */
    public static final Duration TIMEOUT = Duration.ofMinutes(2);

    private final String path;
    private final Duration timeout;

    /**
     * @param path the {@code PATH} gh is looked for on (and run with)
     * @param timeout how long one gh command may take before it is killed
     */
    public GhCli(String path, Duration timeout) {
        this.path = path == null ? "" : path;
        this.timeout = timeout;
    }

    /** The gh program on the PATH, if any. */
    public Optional<Path> locate() {
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isBlank()) {
                continue;
            }
            Path p = Path.of(dir, "gh");
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /**
     * gh, installed and signed in ({@code gh auth status} exits 0).
     *
     * @throws PublishException UNAVAILABLE saying what is missing: {@link #MISSING} or {@link #SIGNED_OUT}
     */
    public Path requireReady(Path dir) throws PublishException {
        Path gh = locate().orElseThrow(() -> new PublishException(PublishException.Kind.UNAVAILABLE, MISSING));
        if (run(gh, dir, List.of("auth", "status")).exitCode() != 0) {
            throw new PublishException(PublishException.Kind.UNAVAILABLE, SIGNED_OUT);
        }
        return gh;
    }

    /**
     * Runs {@code gh pr create ARGS} in {@code dir}.
     *
     * @return the pull request's URL (the last line gh prints)
     * @throws PublishException UNAVAILABLE when gh is missing or signed out, FAILED with gh's message
     */
    public String createPullRequest(Path dir, List<String> args) throws PublishException {
        Path gh = requireReady(dir);
        List<String> all = new ArrayList<>(List.of("pr", "create"));
        all.addAll(args);
        Output out = run(gh, dir, all);
        if (out.exitCode() != 0) {
            String says = out.stderr().strip().isEmpty()
                    ? out.stdout().strip()
                    : out.stderr().strip();
            throw new PublishException(
                    PublishException.Kind.FAILED,
                    "gh pr create failed: " + (says.isEmpty() ? "gh exited with " + out.exitCode() : says));
        }
        List<String> lines = out.stdout()
                .lines()
                .map(String::strip)
                .filter(l -> !l.isEmpty())
                .toList();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }

    /** What a gh command printed. */
    record Output(int exitCode, String stdout, String stderr) {}

    private Output run(Path gh, Path dir, List<String> args) throws PublishException {
        List<String> cmd = new ArrayList<>();
        cmd.add(gh.toString());
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectInput(Processes.NO_INPUT);
        Processes.withoutPaddockSecrets(pb);
        pb.environment().put("PATH", path);
        pb.environment().put("GH_PROMPT_DISABLED", "1");
        pb.environment().put("GH_NO_UPDATE_NOTIFIER", "1");
        pb.environment().put("NO_COLOR", "1");
        pb.environment().put("GIT_TERMINAL_PROMPT", "0");
        Path outFile = null;
        Path errFile = null;
        try {
            outFile = Files.createTempFile("paddock-gh", ".out");
            errFile = Files.createTempFile("paddock-gh", ".err");
            pb.redirectOutput(outFile.toFile()).redirectError(errFile.toFile());
            Process p = pb.start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new PublishException(
                        PublishException.Kind.FAILED,
                        "gh " + args.get(0) + " took longer than " + timeout.toSeconds() + " s and was stopped");
            }
            return new Output(
                    p.exitValue(),
                    Files.readString(outFile, StandardCharsets.UTF_8),
                    Files.readString(errFile, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new PublishException(PublishException.Kind.FAILED, "Cannot run gh: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PublishException(PublishException.Kind.FAILED, "Interrupted while running gh", e);
        } finally {
            delete(outFile);
            delete(errFile);
        }
    }

    private static void delete(Path p) {
        if (p != null) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException ignored) {
                // a temporary file left in the temporary folder
            }
        }
    }
}
