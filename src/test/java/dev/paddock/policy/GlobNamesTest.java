package dev.paddock.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a glob could name, as bash with every option an agent may turn on would match it. */
class GlobNamesTest {
    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0} ~ {1} (dotglob {2}): {3}")
    @CsvSource(
            delimiter = '|',
            value = {
                ".cla?de|.claude|false|true",
                ".c*|.claude|false|true",
                ".cl[a]ude|.claude|false|true",
                ".cl[!x]ude|.claude|false|true",
                ".cl[^a]ude|.claude|false|true", // the ^ may have been quoted: then it is no negation
                ".CLAUD?|.claude|false|true", // nocaseglob may be on, and some file systems ignore case
                ".cla{u,x}de|.claude|false|true",
                ".cla{x,y}de|.claude|false|true", // a quoted comma or brace would change the words: any text
                ".@(claude)|.claude|false|true", // an extended glob is taken to match anything
                "*|.claude|false|false", // a leading dot is matched only by a dot, unless dotglob is on
                "*|.claude|true|true",
                "?claude|.claude|true|true",
                "[.]claude|.claude|false|false",
                ".clau[[:alpha:]]e|.claude|false|true", // a named class holds brackets of its own
                ".cl[a\uff3dx]ude|.claude|false|true", // a fullwidth ] is no closing bracket
                ".cl\\aude|.claude|false|true",
                "*.md|.claude|true|false",
                "{}|.claude|true|false", // no brace expansion: find's {} stays as it is
                "{1..3}|.claude|true|true",
                "hom?|home|false|true",
                "hom?|homes|false|false",
                ".pad*.|.paddock|false|true", // trailing dots are dropped, as Windows volumes do
            })
    void matchesAsBashCould(String glob, String name, boolean dotglob, boolean matches) {
        assertThat(GlobNames.mayMatch(glob, name, dotglob)).isEqualTo(matches);
    }

    @Test
    void aGlobPartLongerThanAnyNameIsTakenToMatchAnything() {
        assertThat(GlobNames.mayMatch("a[".repeat(100_000), ".claude", false)).isTrue();
    }

    @Test
    void aGlobPathReachesADirectoryItCouldNameOrHold() {
        Path home = Path.of("/home/u/.paddock");
        assertThat(GlobNames.reach("/home/u/.pad*/api-token", home, false)).isEqualTo(GlobNames.Reach.INSIDE);
        assertThat(GlobNames.reach("/home/?", home, false)).isEqualTo(GlobNames.Reach.HOLDER);
        assertThat(GlobNames.reach("/home/u/*", home, false)).isEqualTo(GlobNames.Reach.NONE);
        assertThat(GlobNames.reach("/home/u/*", home, true)).isEqualTo(GlobNames.Reach.INSIDE);
        assertThat(GlobNames.reach("/home/**/x", home, false)).isEqualTo(GlobNames.Reach.HOLDER);
        assertThat(GlobNames.reach("/srv/*/api-token", home, true)).isEqualTo(GlobNames.Reach.NONE);
    }

    @Test
    void dotDotAfterAGlobIsToldApart() {
        assertThat(GlobNames.dotDotAfterPattern("lnk*/../api-token")).isTrue();
        assertThat(GlobNames.dotDotAfterPattern("../x/*.md")).isFalse();
    }

    @Test
    void expandsOnTheDiskFollowingLinksAndKeepsANewLastName() throws IOException {
        Files.createDirectories(tmp.resolve(".claude"));
        Files.createDirectories(tmp.resolve("src"));
        Files.createSymbolicLink(tmp.resolve("cfg"), Path.of(".claude"));
        String root = tmp.toRealPath().toString();
        assertThat(GlobNames.expand(root + "/*/settings.json", false))
                .containsExactlyInAnyOrder(Path.of(root, "src/settings.json"), Path.of(root, "cfg/settings.json"));
        assertThat(GlobNames.expand(root + "/*/settings.json", true)).contains(Path.of(root, ".claude/settings.json"));
        assertThat(GlobNames.expand(root + "/nothing*/x", true)).isEmpty();
    }
}
