package dev.paddock.ui.diff;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.diff.ChangeKind;
import dev.paddock.diff.FileChange;
import java.util.List;
import org.junit.jupiter.api.Test;

@org.junit.jupiter.api.extension.ExtendWith(org.testfx.framework.junit5.ApplicationExtension.class)
class FileTreeOrderTest { // the tree is a control: JavaFX starts first
    @Test
    void filesComeInTheTreesOrderFoldersByNameBeforeAFoldersOwnFiles() {
        List<String> gitOrder =
                List.of("README.md", "requirements-dev.txt", "src/b/two.py", "src/a.py", "src/a/one.py", "tests/t.py");

        List<String> ordered = FileTree.inTreeOrder(
                        gitOrder.stream().map(FileTreeOrderTest::file).toList())
                .stream()
                .map(FileChange::path)
                .toList();

        assertThat(ordered)
                .containsExactly(
                        "src/a/one.py", "src/b/two.py", "src/a.py", "tests/t.py", "README.md", "requirements-dev.txt");
    }

    private static FileChange file(String path) {
        return new FileChange(path, null, ChangeKind.MODIFIED, 1, 1, false, 10);
    }
}
