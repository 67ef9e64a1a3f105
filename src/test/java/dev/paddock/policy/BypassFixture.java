package dev.paddock.policy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway world for running bypass commands under the real {@code /bin/bash}: a repository {@code repo/}
 * (two commits, the second one committing {@code .env}; {@code build/}, a Makefile, a package.json whose test
 * script is {@code true}; symbolic links {@code notes -> .env} and {@code g -> .git}, as a checkout or an
 * archive could leave them; Claude Code's settings {@code .claude/settings.json}, a link {@code cfg -> .claude} and
 * a harmless one {@code d -> build/inner}), a patch {@code cfg.diff} that changes those settings, a folder
 * {@code paddock/} holding an allow-all {@code policy.json},
 * a {@code home/} holding Paddock's home {@code .paddock/api-token}, and what an attacker would have planted beside
 * it: a home
 * {@code evil/} whose git configuration, {@code .bashrc} and {@code .bash_profile} run {@code touch ../m}, a
 * repository {@code other/} whose configuration does the same (core.fsmonitor), a repository planted inside
 * the worktree ({@code repo/nested/.git}), a start-up file {@code rc}, a shell {@code evilsh}, a directory
 * {@code evilbin/} with a fake {@code ls}, a time zone file {@code zone} (UTC+9, named XYZ), a git exec-path {@code xp/}, a node module, a makefile and an
 * archive holding {@code .git/hooks/pre-commit}. Every planted program creates the marker {@code m} next to
 * {@code repo/} (relative paths: programs run in {@code repo/} or {@code other/}).
 *
 * <p>The template is built once; {@link #copy} gives each case its own copy. Runs are hermetic: their own
 * HOME, no system git configuration, a fixed PATH, no inherited environment.
 */
final class BypassFixture {
    static final String SECRET = "SECRET=hunter2";
    /** What Paddock's home ({@code home/.paddock}) holds in {@code api-token}. */
    static final String TOKEN = "paddock-token-0123";

    private static final String TOUCH = "#!/bin/sh\ntouch ../m\n";

    private final Path template;

    private BypassFixture(Path template) {
        this.template = template;
    }

    /** Builds the template under {@code dir}. */
    static BypassFixture build(Path dir) throws IOException, InterruptedException {
        Path t = Files.createDirectories(dir.resolve("template"));
        Files.createDirectories(t.resolve("home"));
        Path evil = Files.createDirectories(t.resolve("evil"));
        String fsmonitor = "[core]\n\tfsmonitor = \"touch ../m; false\"\n";
        write(evil.resolve(".gitconfig"), fsmonitor);
        write(Files.createDirectories(evil.resolve("git")).resolve("config"), fsmonitor);
        write(evil.resolve(".bashrc"), "touch ../m\n");
        write(evil.resolve(".bash_profile"), "touch ../m\n");
        write(t.resolve("rc"), "touch ../m\n");
        executable(t.resolve("evilsh"), TOUCH);
        executable(t.resolve("runner"), "#!/bin/sh\nexec \"$@\"\n");
        executable(Files.createDirectories(t.resolve("evilbin")).resolve("ls"), TOUCH);
        executable(Files.createDirectories(t.resolve("xp")).resolve("git-remote-https"), TOUCH);
        Path np = Files.createDirectories(t.resolve("np"));
        write(np.resolve("x.js"), "require('fs').writeFileSync('../m', '')\n");
        write(
                np.resolve("package.json"),
                "{\"name\": \"np\", \"version\": \"1.0.0\", \"scripts\": {\"test\": \"touch ../m\"}}\n");
        write(t.resolve("evil.mk"), "test:\n\ttouch ../m\n");
        Files.write(t.resolve("zone"), zone());

        Path other = t.resolve("other");
        git(t, "init", "-q", "--template=", "other");
        Files.writeString(other.resolve(".git/config"), fsmonitor, StandardOpenOption.APPEND);
        write(other.resolve("f"), "x\n");

        Path repo = t.resolve("repo");
        git(t, "init", "-q", "--template=", "repo");
        Files.createDirectories(repo.resolve(".git/hooks"));
        write(
                repo.resolve("package.json"),
                "{\"name\": \"r\", \"version\": \"1.0.0\", \"scripts\": {\"test\": \"true\"}}\n");
        write(repo.resolve("Makefile"), "test:\n\ttrue\n");
        write(Files.createDirectories(repo.resolve("build")).resolve("out.txt"), "built\n");
        git(repo, "add", "package.json", "Makefile");
        git(repo, "commit", "-q", "-m", "one");
        write(repo.resolve(".env"), SECRET + "\n");
        git(repo, "add", "-f", ".env");
        git(repo, "commit", "-q", "-m", "two: commits a secret");
        Files.createSymbolicLink(repo.resolve("notes"), Path.of(".env"));
        Files.createSymbolicLink(repo.resolve("g"), Path.of(".git"));
        write(Files.createDirectories(repo.resolve(".claude")).resolve("settings.json"), "{}\n");
        Files.createSymbolicLink(repo.resolve("cfg"), Path.of(".claude"));
        Files.createDirectories(repo.resolve("build/inner"));
        Files.createSymbolicLink(repo.resolve("d"), Path.of("build/inner"));
        write(
                t.resolve("cfg.diff"),
                "--- a/.claude/settings.json\n+++ b/.claude/settings.json\n@@ -1 +1 @@\n-{}\n+{\"pwned\": true}\n");
        write(
                Files.createDirectories(t.resolve("paddock")).resolve("policy.json"),
                "{\"permissions\": {\"allow\": [\"Bash\"]}}\n");
        write(Files.createDirectories(t.resolve("home/.paddock")).resolve("api-token"), TOKEN + "\n");
        Path nested = repo.resolve("nested");
        git(repo, "init", "-q", "--template=", "nested");
        Files.writeString(
                nested.resolve(".git/config"), fsmonitor.replace("../m", "../../m"), StandardOpenOption.APPEND);

        Path stage = Files.createDirectories(dir.resolve("stage/.git/hooks"));
        executable(stage.resolve("pre-commit"), TOUCH);
        run(dir.resolve("stage"), List.of("tar", "-cf", t.resolve("hooks.tar").toString(), ".git/hooks/pre-commit"));
        return new BypassFixture(t);
    }

    /** A time zone file (TZif, version 1) of one zone, UTC+9 named XYZ: what a planted zone file shows. */
    private static byte[] zone() {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(44 + 6 + 4);
        b.put("TZif".getBytes(StandardCharsets.US_ASCII)).put(new byte[16]);
        b.putInt(0).putInt(0).putInt(0).putInt(0).putInt(1).putInt(4); // one type, four bytes of names
        b.putInt(9 * 3600).put((byte) 0).put((byte) 0);
        b.put("XYZ\0".getBytes(StandardCharsets.US_ASCII));
        return b.array();
    }

    /** A fresh copy of the template in {@code dir} (one {@code cp -a}); answers it. */
    Path copy(Path dir) throws IOException, InterruptedException {
        run(dir, List.of("cp", "-a", template + "/.", dir.toString()));
        return dir;
    }

    /** What a run printed. */
    record Result(int exit, String out, String err) {}

    /** Runs {@code command} with {@code /bin/bash -c} in {@code base/repo}, hermetically. */
    static Result bash(Path base, String command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("/bin/bash", "-c", command)
                .directory(base.resolve("repo").toFile());
        Map<String, String> env = pb.environment();
        env.clear();
        env.put("HOME", base.resolve("home").toString());
        env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
        env.put("LANG", "C.UTF-8");
        env.put("GIT_CONFIG_NOSYSTEM", "1");
        env.put("GIT_AUTHOR_NAME", "a");
        env.put("GIT_AUTHOR_EMAIL", "a@example.com");
        env.put("GIT_COMMITTER_NAME", "a");
        env.put("GIT_COMMITTER_EMAIL", "a@example.com");
        env.put("NO_UPDATE_NOTIFIER", "1");
        env.put("NPM_CONFIG_UPDATE_NOTIFIER", "false");
        env.put("NPM_CONFIG_FUND", "false");
        env.put("NPM_CONFIG_AUDIT", "false");
        Path out = Files.createTempFile(base, "out", ".txt");
        Path err = Files.createTempFile(base, "err", ".txt");
        pb.redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("`" + command + "` did not end within 30 s");
        }
        return new Result(
                p.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    private static void git(Path dir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of("git"));
        cmd.addAll(List.of(args));
        run(dir, cmd);
    }

    private static void run(Path dir, List<String> cmd) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("GIT_CONFIG_NOSYSTEM", "1");
        pb.environment().put("HOME", dir.toString());
        pb.environment().put("GIT_AUTHOR_NAME", "a");
        pb.environment().put("GIT_AUTHOR_EMAIL", "a@example.com");
        pb.environment().put("GIT_COMMITTER_NAME", "a");
        pb.environment().put("GIT_COMMITTER_EMAIL", "a@example.com");
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException(cmd + " failed: " + output);
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void executable(Path file, String text) throws IOException {
        write(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
