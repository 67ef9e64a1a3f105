package dev.paddock.diff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.sandbox.SandboxNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A sandbox's whole change against its base, checked against git's own diff of the same states. */
class DiffServiceTest {
    @TempDir
    Path tmp;

    DiffRig rig;

    @BeforeEach
    void open() throws Exception {
        rig = DiffRig.open(tmp, "diff-001", repo -> {
            repo.write(".gitignore", "*.log\n");
            repo.write("src/Main.java", javaFile("return 100;"));
            repo.write("gone.txt", "to be deleted\n");
            repo.write("ws.txt", "one two\nthree four\n");
            for (int i = 0; i < 5; i++) {
                repo.write("lib/part" + i + ".txt", "part " + i + "\n" + "of the library\n".repeat(10));
            }
            repo.write("bin.dat", "\0\1\2 binary\n");
            repo.write("docs/\u00e4 \"quoted\".txt", "a name git quotes\n");
        });
    }

    @AfterEach
    void close() {
        rig.close();
    }

    @Test
    void theWholeChangeIsGitsDiffOfTheBaseAgainstTheWorktreeWithUntrackedFiles() throws Exception {
        makeChanges();

        String patch = rig.diffs().patch("diff-001", DiffOptions.whole());

        assertThat(similarityAside(patch)).isEqualTo(similarityAside(rig.gitDiff()));
        assertThat(patch)
                .contains(
                        "rename from lib/part0.txt",
                        "Binary files a/bin.dat and b/bin.dat differ",
                        "rename to \"doc/\\303\\244 \\\"quoted\\\".txt\"");
        SandboxDiff d = rig.diffs().diff("diff-001", DiffOptions.whole());
        assertThat(d.baseCommit()).isEqualTo(rig.base());
        assertThat(d.files().stream().map(FileChange::path))
                .containsExactlyElementsOf(
                        List.of(rig.gitDiff("--name-only", "-z").split("\0")));
        Map<String, String> numstat = numstat(rig.gitDiff("--numstat", "-z"));
        for (FileChange f : d.files()) {
            String counts = f.binary() ? "-\t-" : f.added() + "\t" + f.deleted();
            assertThat(counts).as(f.path()).isEqualTo(numstat.get(f.path()));
        }
        assertThat(d.totalAdded())
                .isEqualTo(d.files().stream().mapToInt(FileChange::added).sum());
    }

    @Test
    void renamesBinariesUntrackedAndIgnoredFilesAreToldApart() throws Exception {
        makeChanges();

        Map<String, FileChange> files =
                byPath(rig.diffs().diff("diff-001", DiffOptions.whole()).files());

        assertThat(files.get("moved/part1.txt").kind()).isEqualTo(ChangeKind.RENAMED);
        assertThat(files.get("moved/part1.txt").oldPath()).isEqualTo("lib/part1.txt");
        assertThat(files.get("moved/part3.txt").kind()).isEqualTo(ChangeKind.RENAMED);
        assertThat(files.get("moved/part3.txt").added()).isEqualTo(1); // renamed and changed, uncommitted
        assertThat(files.get("bin.dat").binary()).isTrue();
        assertThat(files.get("bin.dat").newSize()).isEqualTo(Files.size(rig.wt.resolve("bin.dat")));
        assertThat(files.get("notes/new.txt").kind()).isEqualTo(ChangeKind.ADDED); // untracked
        assertThat(files.get("gone.txt").kind()).isEqualTo(ChangeKind.DELETED);
        assertThat(files.get("gone.txt").oldPath()).isNull();
        assertThat(files.get("src/Main.java").kind()).isEqualTo(ChangeKind.MODIFIED);
        assertThat(files).doesNotContainKey("debug.log");
        assertThat(rig.git("status", "--porcelain")).contains("?? notes/"); // the real index is untouched
    }

    @Test
    void aFilesHunksCarryLineNumbersAndTheHeaderGitWrites() throws Exception {
        makeChanges();

        FilePatch p = rig.diffs().file("diff-001", "src/Main.java", DiffOptions.whole());

        assertThat(p.tooLarge()).isFalse();
        assertThat(p.file().added()).isEqualTo(3);
        assertThat(p.hunks()).hasSize(2);
        Hunk first = p.hunks().get(0);
        assertThat(rig.gitDiff("--", "src/Main.java"))
                .contains(first.header() + "\n", p.hunks().get(1).header() + "\n");
        assertThat(p.hunks().get(1).header()).endsWith("@@ public class Main {");
        DiffLine added = first.lines().stream()
                .filter(l -> l.kind() == DiffLine.Kind.ADDED)
                .findFirst()
                .orElseThrow();
        assertThat(added.text()).isEqualTo("import java.util.List;");
        assertThat(added.oldLine()).isZero();
        assertThat(Files.readAllLines(rig.wt.resolve("src/Main.java")).get(added.newLine() - 1))
                .isEqualTo(added.text());
        DiffLine deleted = p.hunks().get(1).lines().stream()
                .filter(l -> l.kind() == DiffLine.Kind.DELETED)
                .findFirst()
                .orElseThrow();
        assertThat(deleted.text()).isEqualTo("        return 100;");
        assertThat(javaFile("return 100;").split("\n")[deleted.oldLine() - 1]).isEqualTo(deleted.text());
        assertThat(rig.diffs().file("diff-001", "bin.dat", DiffOptions.whole()).hunks())
                .isEmpty();
    }

    @Test
    void aFileOverTheLimitGetsItsCountsButNoHunks() throws Exception {
        String line = "a line of a generated file, long enough to fill megabytes quickly\n";
        int lines = (int) (DiffService.MAX_TEXT_BYTES / line.length()) + 1_000;
        rig.write("generated.txt", line.repeat(lines));

        FileChange listed = byPath(
                        rig.diffs().diff("diff-001", DiffOptions.whole()).files())
                .get("generated.txt");
        FilePatch p = rig.diffs().file("diff-001", "generated.txt", DiffOptions.whole());

        assertThat(listed.added()).isEqualTo(lines);
        assertThat(listed.newSize()).isGreaterThan(DiffService.MAX_TEXT_BYTES);
        assertThat(p.tooLarge()).isTrue();
        assertThat(p.hunks()).isEmpty();
        assertThat(p.file()).isEqualTo(listed);
    }

    @Test
    void ignoringWhitespaceLeavesOutFilesWhoseOnlyChangeIsWhitespace() throws Exception {
        rig.write("ws.txt", "one   two\n\tthree four  \n");
        rig.write("src/Main.java", javaFile("return 100;").replace("class Main {", "class  Main {") + "// end\n");

        SandboxDiff counted = rig.diffs().diff("diff-001", DiffOptions.whole());
        SandboxDiff ignored = rig.diffs().diff("diff-001", new DiffOptions(true, null));

        assertThat(byPath(counted.files()).get("ws.txt").added()).isEqualTo(2);
        assertThat(byPath(counted.files()).get("src/Main.java").added()).isEqualTo(2);
        assertThat(byPath(ignored.files())).doesNotContainKey("ws.txt");
        assertThat(byPath(ignored.files()).get("src/Main.java").added()).isEqualTo(1);
        assertThat(rig.diffs().patch("diff-001", new DiffOptions(true, null)))
                .doesNotContain("ws.txt")
                .contains("+// end");
    }

    @Test
    void oneCommitIsShownAgainstItsParentAndTheBranchsCommitsAreListed() throws Exception {
        rig.write("src/Main.java", javaFile("return 2;"));
        String first = rig.commit("Return two");
        rig.git("mv", "lib", "moved");
        String second = rig.commit("Move the library");
        rig.write("notes.txt", "uncommitted\n");

        SandboxDiff one = rig.diffs().diff("diff-001", new DiffOptions(false, first));
        SandboxDiff moved = rig.diffs().diff("diff-001", new DiffOptions(false, second.substring(0, 10)));
        SandboxDiff head = rig.diffs().diff("diff-001", new DiffOptions(false, "HEAD"));
        SandboxDiff before = rig.diffs().diff("diff-001", new DiffOptions(false, "HEAD~1"));

        assertThat(one.files()).extracting(FileChange::path).containsExactly("src/Main.java");
        assertThat(head.baseCommit()).as("HEAD is the sandbox's").isEqualTo(first);
        assertThat(before.files()).extracting(FileChange::path).containsExactly("src/Main.java");
        assertThat(one.baseCommit()).isEqualTo(rig.base());
        assertThat(moved.baseCommit()).isEqualTo(first);
        assertThat(moved.files()).hasSize(5).allMatch(f -> f.kind() == ChangeKind.RENAMED);
        assertThat(one.commits()).extracting(CommitSummary::id).containsExactly(second, first);
        assertThat(one.commits().get(0).subject()).isEqualTo("Move the library");
        assertThat(rig.diffs().patch("diff-001", new DiffOptions(false, first)))
                .isEqualTo(rig.git("diff", "-M", first + "^", first));
    }

    @Test
    void aFileAskedWithItsListsSnapshotShowsTheStateTheListShowed() throws Exception {
        rig.write("src/Main.java", javaFile("return 1;"));
        SandboxDiff listed = rig.diffs().diff("diff-001", DiffOptions.whole());
        rig.write("src/Main.java", javaFile("return 2;"));

        DiffOptions atList = DiffOptions.whole().at(listed.snapshot());
        FilePatch then = rig.diffs().file("diff-001", "src/Main.java", atList);
        FilePatch now = rig.diffs().file("diff-001", "src/Main.java", DiffOptions.whole());

        assertThat(listed.snapshot()).matches("[0-9a-f]{40}");
        assertThat(texts(then, DiffLine.Kind.ADDED)).containsExactly("        return 1;");
        assertThat(texts(now, DiffLine.Kind.ADDED)).containsExactly("        return 2;");
        assertThat(then.file()).isEqualTo(byPath(listed.files()).get("src/Main.java"));
        // Diffed once: the list's reading is kept, and asked again it is the same answer.
        assertThat(rig.diffs().file("diff-001", "src/Main.java", atList)).isSameAs(then);
        assertThat(rig.diffs().patch("diff-001", atList))
                .contains("+        return 1;")
                .doesNotContain("return 2;");

        String blob = rig.git("rev-parse", rig.base() + ":src/Main.java").strip();
        for (String missing : List.of("0".repeat(40), blob)) {
            assertThatThrownBy(() -> rig.diffs()
                            .file(
                                    "diff-001",
                                    "src/Main.java",
                                    DiffOptions.whole().at(missing)))
                    .as(missing)
                    .isInstanceOf(DiffNotFoundException.class)
                    .hasMessageContaining("read its list of files again");
        }
        assertThatThrownBy(() -> rig.diffs()
                        .file("diff-001", "src/Main.java", DiffOptions.whole().at("HEAD")))
                .isInstanceOf(DiffException.class)
                .isNotInstanceOf(DiffNotFoundException.class)
                .hasMessageContaining("40 hex digits");
    }

    @Test
    void aFileThatBecameALinkIsOneFileItsOldLinesDeletedAndTheLinksTargetAdded() throws Exception {
        Files.delete(rig.wt.resolve("gone.txt"));
        Files.createSymbolicLink(rig.wt.resolve("gone.txt"), Path.of("/etc/hostname"));

        SandboxDiff d = rig.diffs().diff("diff-001", DiffOptions.whole());
        FilePatch p =
                rig.diffs().file("diff-001", "gone.txt", DiffOptions.whole().at(d.snapshot()));

        assertThat(d.files()).filteredOn(f -> f.path().equals("gone.txt")).hasSize(1);
        FileChange f = byPath(d.files()).get("gone.txt");
        assertThat(f.kind()).isEqualTo(ChangeKind.TYPE_CHANGED);
        assertThat(f.added() + "\t" + f.deleted()).isEqualTo("1\t1");
        assertThat(texts(p, DiffLine.Kind.DELETED)).containsExactly("to be deleted");
        assertThat(texts(p, DiffLine.Kind.ADDED)).containsExactly("/etc/hostname"); // the link's target, not the file
        assertThat(rig.diffs().patch("diff-001", DiffOptions.whole())).isEqualTo(rig.gitDiff());
    }

    @Test
    void errorsSayWhatIsWrong() throws Exception {
        rig.write("a.txt", "a\n");
        String other = rig.repo.commitFile("main-only.txt", "x\n", "On main, not the sandbox's");

        assertThatThrownBy(() -> rig.diffs().diff("nope-001", DiffOptions.whole()))
                .isInstanceOf(SandboxNotFoundException.class);
        assertThatThrownBy(() -> rig.diffs().diff("diff-001", new DiffOptions(false, rig.base())))
                .isInstanceOf(DiffException.class)
                .hasMessageContaining("not on the branch of sandbox diff-001");
        assertThatThrownBy(() -> rig.diffs().diff("diff-001", new DiffOptions(false, other)))
                .isInstanceOf(DiffException.class)
                .hasMessageContaining("not on the branch");
        assertThatThrownBy(() -> rig.diffs().diff("diff-001", new DiffOptions(false, "--all")))
                .isInstanceOf(DiffException.class)
                .hasMessageContaining("No commit --all");
        for (String bad : List.of("../repo/a.txt", "/etc/passwd", "src/../../x", "")) {
            assertThatThrownBy(() -> rig.diffs().file("diff-001", bad, DiffOptions.whole()))
                    .as(bad)
                    .isInstanceOf(DiffException.class)
                    .isNotInstanceOf(DiffNotFoundException.class);
        }
        assertThatThrownBy(() -> rig.diffs().file("diff-001", "ws.txt", DiffOptions.whole()))
                .isInstanceOf(DiffNotFoundException.class)
                .hasMessageContaining("does not touch ws.txt");
        dev.paddock.testing.TempRepo.deleteTree(rig.wt);
        assertThatThrownBy(() -> rig.diffs().diff("diff-001", DiffOptions.whole()))
                .isInstanceOf(DiffNotFoundException.class)
                .hasMessageContaining("The worktree of sandbox diff-001 is gone");
        Files.createDirectories(rig.wt); // a folder inside the main worktree, no worktree of its own
        assertThatThrownBy(() -> rig.diffs().diff("diff-001", DiffOptions.whole()))
                .isInstanceOf(DiffNotFoundException.class)
                .hasMessageContaining("is not a git worktree any more");
    }

    /**
     * Two commits and uncommitted work: a modified file, a folder moved (one file changed after), a deleted file, a
     * changed binary, an untracked file and an ignored one.
     */
    private void makeChanges() throws Exception {
        rig.write(
                "src/Main.java",
                javaFile("return 100;").replace("package demo;\n", "package demo;\n\nimport java.util.List;\n"));
        rig.commit("Import List");
        rig.git("mv", "lib", "moved");
        rig.git("mv", "docs", "doc");
        rig.commit("Move lib");
        rig.write("moved/part3.txt", "part 3\n" + "of the library\n".repeat(10) + "changed after the move\n");
        rig.write(
                "src/Main.java",
                Files.readString(rig.wt.resolve("src/Main.java")).replace("return 100;", "return 42;"));
        Files.delete(rig.wt.resolve("gone.txt"));
        rig.writeBytes("bin.dat", new byte[] {0, 1, 2, 3, 'x', '\n'});
        rig.write("notes/new.txt", "an untracked file\n");
        rig.write("debug.log", "ignored\n");
    }

    /** A Java file long enough that an import and a change at its end are two hunks. */
    static String javaFile(String returning) {
        StringBuilder b = new StringBuilder("package demo;\n\npublic class Main {\n");
        for (int i = 0; i < 12; i++) {
            b.append("    static int f")
                    .append(i)
                    .append("() {\n        return ")
                    .append(i)
                    .append(";\n    }\n");
        }
        return b.append("    int value() {\n        ")
                .append(returning)
                .append("\n    }\n}\n")
                .toString();
    }

    /**
     * A patch with its renames' similarity percentages left out: JGit weighs a 1% share of the names' likeness into
     * the score of an inexact rename, so it may say 86% where git says 87%. Everything else is compared.
     */
    static String similarityAside(String patch) {
        return patch.replaceAll("(?m)^similarity index \\d+%$", "similarity index N%");
    }

    private static List<String> texts(FilePatch p, DiffLine.Kind kind) {
        return p.hunks().stream()
                .flatMap(h -> h.lines().stream())
                .filter(l -> l.kind() == kind)
                .map(DiffLine::text)
                .toList();
    }

    private static Map<String, FileChange> byPath(List<FileChange> files) {
        return files.stream().collect(Collectors.toMap(FileChange::path, Function.identity()));
    }

    /** {@code git diff --numstat -z} by new path: "A\tD\tPATH" or, for a rename, "A\tD\t", OLD, NEW. */
    private static Map<String, String> numstat(String z) {
        Map<String, String> out = new java.util.HashMap<>();
        String[] t = z.split("\0");
        for (int i = 0; i < t.length; i++) {
            String[] f = t[i].split("\t", 3);
            String path = f[2].isEmpty() ? t[i += 2] : f[2];
            out.put(path, f[0] + "\t" + f[1]);
        }
        return out;
    }
}
