package dev.paddock.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.common.PaddockException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where Paddock keeps its state: --home, then PADDOCK_HOME, then ~/.paddock. */
class PaddockHomeTest {
    @TempDir
    Path tmp;

    private String savedUserHome;

    @BeforeEach
    void pointUserHomeAtTheTempDir() throws IOException {
        savedUserHome = System.getProperty("user.home");
        System.setProperty(
                "user.home", Files.createDirectories(tmp.resolve("user")).toString());
    }

    @AfterEach
    void restoreUserHome() {
        System.setProperty("user.home", savedUserHome);
    }

    @Test
    void theStoreOptionWinsOverItsVariableAndTheHomeStaysForTheRest() throws PaddockException {
        PaddockHome home = PaddockHome.resolve(
                tmp.resolve("h"),
                "jdbc:postgresql://db:5432/paddock?user=a&sslmode=require",
                Map.of(PaddockHome.STORE_ENV, "jdbc:postgresql://other/x?user=b&password=s"));

        assertThat(home.store()).isEqualTo("jdbc:postgresql://db:5432/paddock?user=a&sslmode=require");
        assertThat(home.dir()).isEqualTo(tmp.resolve("h"));
        assertThat(PaddockHome.resolve(tmp.resolve("h"), null, Map.of(PaddockHome.STORE_ENV, " jdbc:postgresql://o/x "))
                        .store())
                .isEqualTo("jdbc:postgresql://o/x");
        assertThat(PaddockHome.resolve(tmp.resolve("h"), null, Map.of()).store())
                .isNull();
    }

    @Test
    void aPasswordIsTakenFromTheVariableButNotFromTheOptionThatPsShows() throws PaddockException {
        assertThat(PaddockHome.resolve(
                                tmp.resolve("h"),
                                null,
                                Map.of(PaddockHome.STORE_ENV, "jdbc:postgresql://db/p?user=a&password=s"))
                        .store())
                .isEqualTo("jdbc:postgresql://db/p?user=a&password=s");
        for (String url : List.of("jdbc:postgresql://db/p?user=a&password=s", "jdbc:postgresql://db/p?PassWord=s")) {
            assertThatThrownBy(() -> PaddockHome.resolve(tmp.resolve("h"), url, Map.of()))
                    .isInstanceOf(dev.paddock.common.UsageException.class)
                    .hasMessageStartingWith("--store would show the password to every user of this machine")
                    .hasMessageContaining("~/.pgpass")
                    .hasMessageNotContaining("=s");
        }
    }

    @Test
    void driverParametersThatLoadAClassOrWriteAFileAreRefusedFromEitherSource() {
        for (String param : List.of(
                "socketFactory=org.example.Evil",
                "sslfactory=org.example.Evil",
                "sslhostnameverifier=x.Y",
                "sslpasswordcallback=x.Y",
                "authenticationPluginClassName=x.Y",
                "loggerFile=/tmp/pwned",
                "loggerLevel=TRACE")) {
            String name = param.substring(0, param.indexOf('='));
            String url = "jdbc:postgresql://db/p?user=a&" + param;
            assertThatThrownBy(() -> PaddockHome.resolve(tmp.resolve("h"), null, Map.of(PaddockHome.STORE_ENV, url)))
                    .isInstanceOf(dev.paddock.common.UsageException.class)
                    .hasMessageStartingWith("The store URL parameter " + name + " is not taken")
                    .hasMessageNotContaining(param.substring(param.indexOf('=') + 1));
            assertThatThrownBy(() -> PaddockHome.resolve(tmp.resolve("h"), url, Map.of()))
                    .isInstanceOf(dev.paddock.common.UsageException.class);
        }
    }

    @Test
    void aStoreThatIsNotAPostgresqlUrlIsAUsageErrorThatShowsNoPassword() {
        assertThatThrownBy(() -> PaddockHome.resolve(tmp.resolve("h"), "jdbc:h2:/tmp/x?password=secret", Map.of()))
                .isInstanceOf(dev.paddock.common.UsageException.class)
                .hasMessage("--store takes a PostgreSQL URL (jdbc:postgresql://HOST:PORT/DATABASE?user=NAME), not"
                        + " jdbc:h2:/tmp/x.");
        assertThatThrownBy(
                        () -> PaddockHome.resolve(tmp.resolve("h"), null, Map.of(PaddockHome.STORE_ENV, "mysql://x")))
                .isInstanceOf(dev.paddock.common.UsageException.class)
                .hasMessageStartingWith("PADDOCK_STORE takes a PostgreSQL URL");
        assertThatThrownBy(() -> PaddockHome.resolve(tmp.resolve("h"), "", Map.of()))
                .hasMessageEndingWith("not an empty one.");
    }

    @Test
    void theHomeOptionWinsOverTheEnvironmentVariable() throws PaddockException {
        PaddockHome home = PaddockHome.resolve(
                tmp.resolve("explicit"),
                Map.of(PaddockHome.ENV, tmp.resolve("env").toString()));

        assertThat(home.dir()).isEqualTo(tmp.resolve("explicit"));
        assertThat(tmp.resolve("env")).doesNotExist();
    }

    @Test
    void theEnvironmentVariableWinsOverTheUserHome() throws PaddockException {
        PaddockHome home = PaddockHome.resolve(
                null, Map.of(PaddockHome.ENV, tmp.resolve("env").toString()));

        assertThat(home.dir()).isEqualTo(tmp.resolve("env"));
        assertThat(tmp.resolve("user").resolve(".paddock")).doesNotExist();
    }

    @Test
    void withNeitherItIsDotPaddockInTheUserHome() throws PaddockException {
        PaddockHome home = PaddockHome.resolve(null, Map.of());

        assertThat(home.dir()).isEqualTo(tmp.resolve("user").resolve(".paddock"));
        assertThat(home.dir()).isDirectory();
    }

    @Test
    void aBlankEnvironmentVariableCountsAsUnset() throws PaddockException {
        PaddockHome home = PaddockHome.resolve(null, Map.of(PaddockHome.ENV, "  "));

        assertThat(home.dir()).isEqualTo(tmp.resolve("user").resolve(".paddock"));
    }

    @Test
    void aHomeCreatedByPaddockIsReadableByItsOwnerOnly() throws Exception {
        PaddockHome home = PaddockHome.resolve(tmp.resolve("fresh"), Map.of());
        assertThat(java.nio.file.Files.getPosixFilePermissions(home.dir()))
                .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
    }

    @Test
    void aMissingHomeIsCreatedWithItsLogDirectoryAndNamesItsFiles() throws PaddockException {
        Path dir = tmp.resolve("deep").resolve("er").resolve("home");

        PaddockHome home = PaddockHome.resolve(dir, Map.of());

        assertThat(home.dir()).isDirectory();
        assertThat(home.logDir()).isEqualTo(dir.resolve("logs")).isDirectory();
        assertThat(home.databaseBase()).isEqualTo(dir.resolve("paddock"));
        assertThat(home.tokenFile()).isEqualTo(dir.resolve("api-token"));
        assertThat(home.instanceFile()).isEqualTo(dir.resolve("instance.json"));
        assertThat(home.toString()).isEqualTo(dir.toString());
        assertThat(dir).isDirectoryNotContaining(p -> p.getFileName().toString().startsWith(".write-check"));
    }

    @Test
    void theHomeIsAbsoluteAndNormalised() throws PaddockException {
        PaddockHome home =
                PaddockHome.resolve(tmp.resolve("a").resolve("..").resolve("b").resolve("."), Map.of());

        assertThat(home.dir()).isEqualTo(tmp.resolve("b"));
        assertThat(home.dir().isAbsolute()).isTrue();
    }

    @Test
    void aHomeThatCannotBeCreatedIsRefusedNamingTheDirectoryAndHowToChooseAnother() throws IOException {
        // A directory under a regular file cannot be created, not even by root (chmod would not stop root).
        Path file = Files.writeString(tmp.resolve("plain-file"), "not a directory");
        Path dir = file.resolve("sub");

        assertThatThrownBy(() -> PaddockHome.resolve(dir, Map.of()))
                .isInstanceOf(PaddockException.class)
                .hasMessageStartingWith("Paddock home " + dir + " is not writable")
                .hasMessageContaining("--home DIR")
                .hasMessageContaining(PaddockHome.ENV);
    }

    @Test
    void anUnusableHomeFromTheEnvironmentIsRefusedToo() throws IOException {
        Path file = Files.writeString(tmp.resolve("plain-file"), "not a directory");

        assertThatThrownBy(() -> PaddockHome.resolve(
                        null, Map.of(PaddockHome.ENV, file.resolve("sub").toString())))
                .isInstanceOf(PaddockException.class)
                .hasMessageContaining(file.resolve("sub").toString())
                .hasMessageContaining("--home DIR");
    }

    @Test
    void aHomeThatIsARegularFileIsRefused() throws IOException {
        Path file = Files.writeString(tmp.resolve("plain-file"), "not a directory");

        assertThatThrownBy(() -> PaddockHome.resolve(file, Map.of()))
                .isInstanceOf(PaddockException.class)
                .hasMessageStartingWith("Paddock home " + file + " is not writable")
                .hasMessageContaining("--home DIR");
        assertThat(file).hasContent("not a directory");
    }
}
