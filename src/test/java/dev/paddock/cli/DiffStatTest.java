package dev.paddock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.diff.ChangeKind;
import dev.paddock.diff.FileChange;
import dev.paddock.diff.SandboxDiff;
import java.util.List;
import org.junit.jupiter.api.Test;

class DiffStatTest {
    /** An agent names the files: a name reaches the terminal quoted, never as escape codes or a line of its own. */
    @Test
    void namesWithControlCharactersAreQuotedAsGitQuotesThem() {
        List<FileChange> files = List.of(
                new FileChange("evil\u001b[2J\u001b[31mRED.txt", null, ChangeKind.ADDED, 1, 0, false, 2),
                new FileChange("new\nline.txt", null, ChangeKind.ADDED, 1, 0, false, 2),
                new FileChange("b/tab\there.txt", "a/tab\there.txt", ChangeKind.RENAMED, 0, 0, false, 2),
                new FileChange("src/{x}/plain.txt", "lib/{x}/plain.txt", ChangeKind.RENAMED, 0, 0, false, 2));
        SandboxDiff d = new SandboxDiff("s-1", "0".repeat(40), "the worktree", files, List.of(), 2, 0, null);

        String out = DiffStat.render(d, 100);

        assertThat(out).doesNotContain("\u001b").doesNotContain("\t");
        assertThat(out.lines().count()).as(out).isEqualTo(5);
        assertThat(out)
                .startsWith(" \"evil\\033[2J\\033[31mRED.txt\" ")
                .contains("\"new\\nline.txt\"")
                .contains("\"a/tab\\there.txt\" => \"b/tab\\there.txt\"")
                .contains("{lib => src}/{x}/plain.txt");
    }
}
