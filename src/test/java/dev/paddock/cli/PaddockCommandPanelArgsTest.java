package dev.paddock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Paddock;
import dev.paddock.settings.PaddockHome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which arguments open the panel without picocli, and what the panel is then given. */
class PaddockCommandPanelArgsTest {
    @TempDir
    Path temp;

    private final List<Path> repos = new ArrayList<>();
    private final List<PaddockHome> homes = new ArrayList<>();
    private final PaddockCommand.PanelStarter recorder = (home, repo) -> {
        homes.add(home);
        repos.add(repo);
        return 0;
    };

    @Test
    void homeAndRepoInEitherFormOpenThePanelWithThosePaths() throws Exception {
        Path home = temp.resolve("home dir");
        Path repo = temp.resolve("Проекты/My Répo");
        assertThat(PaddockCommand.forPanelOnly(recorder, "--home", home.toString(), "--repo=" + repo)
                        .call())
                .isZero();
        assertThat(PaddockCommand.forPanelOnly(recorder, "--repo", repo.toString(), "--home=" + home)
                        .call())
                .isZero();
        assertThat(repos).containsExactly(repo, repo);
        assertThat(homes)
                .extracting(PaddockHome::dir)
                .containsOnly(home.toAbsolutePath().normalize());
    }

    @Test
    void aStoreInEitherFormOpensThePanelOnThatStore() throws Exception {
        Path home = temp.resolve("home");
        assertThat(PaddockCommand.forPanelOnly(recorder, "--store", "jdbc:postgresql://db/p", "--home", home.toString())
                        .call())
                .isZero();
        assertThat(PaddockCommand.forPanelOnly(recorder, "--store=jdbc:postgresql://db/q", "--home=" + home)
                        .call())
                .isZero();
        assertThat(homes)
                .extracting(PaddockHome::store)
                .containsExactly("jdbc:postgresql://db/p", "jdbc:postgresql://db/q");
    }

    @Test
    void aStoreThatIsNotPostgresqlIsBadUsageBeforeThePanelOpens() {
        PrintStream saved = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            assertThat(Paddock.runFull(new String[] {"--home", temp.resolve("h").toString(), "--store", "x"}))
                    .isEqualTo(2);
        } finally {
            System.setErr(saved);
        }
        assertThat(err.toString(StandardCharsets.UTF_8).strip())
                .isEqualTo("paddock: --store takes a PostgreSQL URL (jdbc:postgresql://HOST:PORT/DATABASE?user=NAME),"
                        + " not x.");
    }

    @Test
    void noArgumentsOpenThePanelOnTheCurrentDirectorysRepository() throws Exception {
        assertThat(PaddockCommand.forPanelOnly(recorder)).isNotNull();
    }

    @Test
    void anythingElseGoesToPicocli() {
        assertThat(PaddockCommand.forPanelOnly(recorder, "status")).isNull();
        assertThat(PaddockCommand.forPanelOnly(recorder, "--home", "h", "status", "--json"))
                .isNull();
        assertThat(PaddockCommand.forPanelOnly(recorder, "--help")).isNull();
        assertThat(PaddockCommand.forPanelOnly(recorder, "-V")).isNull();
        assertThat(PaddockCommand.forPanelOnly(recorder, "--repo"))
                .as("value missing")
                .isNull();
        assertThat(PaddockCommand.forPanelOnly(recorder, "--repo", "--help")).isNull();
        assertThat(PaddockCommand.forPanelOnly(recorder, "--repo", "a\0b"))
                .as("not a path here")
                .isNull();
    }

    @Test
    void aMissingValueIsStillReportedAsBadUsage() {
        PrintStream saved = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            assertThat(Paddock.run(new String[] {"--repo"})).isEqualTo(2);
        } finally {
            System.setErr(saved);
        }
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("Missing required parameter for option '--repo'");
    }
}
