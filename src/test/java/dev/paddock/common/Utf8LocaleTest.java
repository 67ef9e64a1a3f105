package dev.paddock.common;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.testing.TempRepo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
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
        TempRepo.initEmpty(repo).commitFile("a.txt", "a\n", "première");

        String out = paddockUnderTheCLocale(temp, "status", "--json", "--repo", repo.toString());

        assertThat(out).contains("\"path\" : \"" + repo + "\"").contains("première");
    }

    @Test
    void underTheCLocaleItAlsoWorksFromInsideANonAsciiFolderWithNoArgumentsNamingIt() throws Exception {
        Path repo = temp.resolve("Проекты").resolve("Dépôt");
        TempRepo.initEmpty(repo).commitFile("a.txt", "a\n", "первый");

        String out = paddockUnderTheCLocale(repo, "status", "--json");

        assertThat(out).contains("\"path\" : \"" + repo.toRealPath() + "\"").contains("первый");
    }

    @Test
    void theRelaunchScriptQuotesEveryWordAndKeepsItsBytes() {
        byte[] cmdline = "java\0-jar\0/tmp/Проекты/p.jar\0it's\0\0last\0".getBytes(StandardCharsets.UTF_8);

        String script = new String(Utf8Locale.script(cmdline), StandardCharsets.UTF_8);

        assertThat(script).isEqualTo("rm -f \"$0\"\nexec 'java' '-jar' '/tmp/Проекты/p.jar' 'it'\\''s' '' 'last'\n");
    }

    /** Runs {@code paddock --home <temp>/home args...} in {@code dir} under LANG=C; asserts exit 0. */
    private String paddockUnderTheCLocale(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "dev.paddock.Paddock",
                "--home",
                temp.resolve("home").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().remove("LC_ALL");
        pb.environment().remove("LC_CTYPE");
        pb.environment().put("LANG", "C");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }
}
