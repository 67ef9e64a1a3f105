package dev.paddock.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.common.PaddockException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The API's bearer token and its owner-only file. */
class ApiTokenTest {
    @TempDir
    Path tmp;

    private Path file() {
        return tmp.resolve("api-token");
    }

    private String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void aNewTokenFileIsReadableAndWritableByItsOwnerOnly() throws Exception {
        ApiToken token = ApiToken.loadOrCreate(file());

        assertThat(mode(file())).isEqualTo("rw-------");
        assertThat(token.value()).matches("[A-Za-z0-9_-]{43}"); // 32 random bytes, base64url without padding
        assertThat(Files.readString(file())).isEqualTo(token.value() + "\n");
    }

    @Test
    void loadingAgainGivesTheSameToken() throws Exception {
        String first = ApiToken.loadOrCreate(file()).value();

        assertThat(ApiToken.loadOrCreate(file()).value()).isEqualTo(first);
        assertThat(ApiToken.read(file()).value()).isEqualTo(first);
    }

    @Test
    void twoInstallsGetDifferentTokens() throws Exception {
        String a = ApiToken.loadOrCreate(tmp.resolve("a")).value();
        String b = ApiToken.loadOrCreate(tmp.resolve("b")).value();

        assertThat(a).isNotEqualTo(b);
    }

    @Test
    void aLoosenedTokenFileIsTightenedAgainAndKeepsItsToken() throws Exception {
        String before = ApiToken.loadOrCreate(file()).value();
        Files.setPosixFilePermissions(file(), PosixFilePermissions.fromString("rw-r--rw-"));

        String after = ApiToken.loadOrCreate(file()).value();

        assertThat(mode(file())).isEqualTo("rw-------");
        assertThat(after).isEqualTo(before);
    }

    @Test
    void aTokenWrittenByHandIsUsedAsIs() throws Exception {
        Files.writeString(file(), "  hand-made-token \n");

        assertThat(ApiToken.loadOrCreate(file()).value()).isEqualTo("hand-made-token");
        assertThat(mode(file())).isEqualTo("rw-------");
    }

    @Test
    void onlyTheExactTokenMatches() throws Exception {
        ApiToken token = ApiToken.loadOrCreate(file());
        String v = token.value();

        assertThat(token.matches(v)).isTrue();
        assertThat(token.matches(null)).isFalse();
        assertThat(token.matches("")).isFalse();
        assertThat(token.matches(v.substring(1))).isFalse();
        assertThat(token.matches(v + "x")).isFalse();
        assertThat(token.matches(v.toUpperCase(java.util.Locale.ROOT)))
                .isEqualTo(v.equals(v.toUpperCase(java.util.Locale.ROOT)));
    }

    @Test
    void anEmptyTokenFileIsRefusedWithAHint() throws Exception {
        Files.writeString(file(), "\n");

        assertThatThrownBy(() -> ApiToken.read(file()))
                .isInstanceOf(PaddockException.class)
                .hasMessage("The API token file " + file() + " is empty; delete it and restart Paddock.");
    }

    @Test
    void aMissingTokenFileIsNamedInTheError() {
        assertThatThrownBy(() -> ApiToken.read(file()))
                .isInstanceOf(PaddockException.class)
                .hasMessageStartingWith("Cannot read the API token file " + file());
    }

    @Test
    void aTokenFileThatCannotBeCreatedIsNamedInTheError() throws Exception {
        Path notADir = Files.writeString(tmp.resolve("plain"), "x");

        assertThatThrownBy(() -> ApiToken.loadOrCreate(notADir.resolve("api-token")))
                .isInstanceOf(PaddockException.class)
                .hasMessageContaining(notADir.resolve("api-token").toString());
    }
}
