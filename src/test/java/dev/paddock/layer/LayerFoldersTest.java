package dev.paddock.layer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which folders a repository may share, and where a run sees them. */
class LayerFoldersTest {
    @Test
    void foldersAreWrittenInOneFormWithoutRepeats() throws Exception {
        assertThat(LayerFolders.check(List.of(" ./node_modules/ ", "web//node_modules", "~/.m2", "node_modules")))
                .containsExactly("node_modules", "web/node_modules", "~/.m2");
    }

    @Test
    void foldersThatLeaveTheWorktreeOrBelongToGitOrPaddockAreRefused() {
        for (String bad : List.of(
                "",
                " ",
                "/etc",
                "../up",
                "a/../../b",
                ".",
                "./",
                "~/",
                "~/..",
                ".git",
                ".git/hooks",
                ".paddock",
                ".worktrees",
                "./.worktrees/.shared")) {
            assertThatThrownBy(() -> LayerFolders.check(bad)).as(bad).isInstanceOf(LayerException.class);
        }
    }

    @Test
    void namesOverlayfsCannotTakeAreRefused() {
        for (String bad : List.of("a,b", "a:b", "a\\b", "a\nb", "it's")) {
            assertThatThrownBy(() -> LayerFolders.check(bad))
                    .as(bad)
                    .isInstanceOf(LayerException.class)
                    .hasMessageContaining("comma, colon, quote, backslash or control character");
        }
    }

    @Test
    void aFolderInsideAnotherSharedOneIsRefused() {
        assertThatThrownBy(() -> LayerFolders.check(List.of("node_modules", "node_modules/.cache")))
                .isInstanceOf(LayerException.class)
                .hasMessageContaining("lie one in the other");
        assertThatThrownBy(() -> LayerFolders.check(
                        List.of("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q")))
                .hasMessageContaining("at most 16");
    }

    @Test
    void aRunSeesWorktreeFoldersInItsWorktreeAndHomeFoldersInItsPrivateHome() {
        Path wt = Path.of("/repo/.worktrees/s-1/agent/s-1");
        assertThat(LayerFolders.target("web/node_modules", wt))
                .isEqualTo("/repo/.worktrees/s-1/agent/s-1/web/node_modules");
        assertThat(LayerFolders.target("~/.m2", wt)).isEqualTo("/tmp/home/.m2");
        assertThat(LayerFolders.fileName("~/.cache/pip")).isEqualTo("%7E%2F.cache%2Fpip");
    }
}
