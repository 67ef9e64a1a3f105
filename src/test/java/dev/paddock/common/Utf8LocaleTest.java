package dev.paddock.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Paddock started under the C locale still handles paths such as {@code Проекты/My Répo}. */
class Utf8LocaleTest {
    @TempDir
    Path temp;

    @Test
    void underTheCLocalePaddockRelaunchesItselfAndKeepsNonAsciiArguments() throws Exception {
        Path repo = temp.resolve("Проекты").resolve("My Répo");
        Files.createDirectories(repo);
        git(repo, "init", "-q", "-b", "main");
        Files.writeString(repo.resolve("a.txt"), "a\n");
        git(repo, "add", "a.txt");
        git(repo, "commit", "-q", "-m", "première");

        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "dev.paddock.Paddock", "--home",
                temp.resolve("home").toString(), "status", "--json", "--repo", repo.toString());
        pb.environment().remove("LC_ALL");
        pb.environment().remove("LC_CTYPE");
        pb.environment().put("LANG", "C");
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("\"path\" : \"" + repo + "\"").contains("première");
    }

    private static void git(Path dir, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("git", "-C", dir.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("git failed: " + out);
        }
    }
}
