package dev.paddock.merge.conflict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.testing.MergeScenario;
import dev.paddock.testing.TempRepo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ConflictClassifier} on real repositories built with the git CLI, checked against git's own merge. */
class ConflictClassifierTest {
    @TempDir
    Path tmp;

    private final ConflictClassifier classifier = new ConflictClassifier();

    private static String lines(String... lines) {
        return String.join("\n", lines) + "\n";
    }

    private ConflictReport classify(MergeScenario m) throws Exception {
        return classifier.classify(m.dir(), "main", MergeScenario.THEIRS);
    }

    private static ConflictHunk onlyHunk(ConflictReport r) {
        assertThat(r.files()).hasSize(1);
        assertThat(r.files().get(0).hunks()).hasSize(1);
        return r.files().get(0).hunks().get(0);
    }

    private static final String CALC_BASE = lines(
            "class Calc {",
            "    int add(int a, int b) {",
            "        int sum = a + b;",
            "        return sum;",
            "    }",
            "",
            "    int twice(int x) {",
            "        return 2 * x;",
            "    }",
            "}");

    @Test
    void sameLineEditedOnBothSidesGoesToAHuman() throws Exception {
        MergeScenario m = MergeScenario.in(tmp)
                .file(
                        "Calc.java",
                        CALC_BASE,
                        CALC_BASE.replace("int sum = a + b;", "int sum = a + b + 0;"),
                        CALC_BASE.replace("int sum = a + b;", "int sum = b + a;"))
                .build();

        ConflictReport r = classify(m);

        assertThat(m.gitConflicts()).isEqualTo("Calc.java");
        assertThat(r.ours()).isEqualTo(m.repo().head());
        assertThat(r.theirs()).isEqualTo(TempRepo.revParse(m.dir(), MergeScenario.THEIRS));
        assertThat(r.base()).isEqualTo(TempRepo.revParse(m.dir(), "main~1"));
        ConflictFile f = r.files().get(0);
        assertThat(f.path()).isEqualTo("Calc.java");
        assertThat(f.kind()).isEqualTo(FileConflictKind.CONTENT);
        ConflictHunk h = onlyHunk(r);
        assertThat(h.hunkClass()).isEqualTo(HunkClass.HUMAN);
        assertThat(h.proposed()).isNull();
        assertThat(h.base()).isEqualTo(new LineRange(2, 3));
        assertThat(h.ours()).isEqualTo(new LineRange(2, 3));
        assertThat(h.theirs()).isEqualTo(new LineRange(2, 3));
        assertThat(h.baseLines()).containsExactly("        int sum = a + b;");
        assertThat(h.oursLines()).containsExactly("        int sum = a + b + 0;");
        assertThat(h.theirsLines()).containsExactly("        int sum = b + a;");
        assertThat(h.why()).contains("same lines differently");
        assertThat(f.needsHuman()).isTrue();
        assertThat(r.allSafe()).isFalse();
    }

    @Test
    void whitespaceOnlyDifferenceWithNothingToDecideIsAPersonsWithOursSuggested() throws Exception {
        MergeScenario m = MergeScenario.in(tmp)
                .file(
                        "Calc.java",
                        CALC_BASE,
                        CALC_BASE.replace("        return 2 * x;", "\t\treturn 2 * x;"),
                        CALC_BASE.replace("        return 2 * x;", "        return 2  *  x;   "))
                .build();

        ConflictHunk h = onlyHunk(classify(m));

        assertThat(m.gitConflicts()).isEqualTo("Calc.java");
        assertThat(h.hunkClass()).isEqualTo(HunkClass.HUMAN);
        assertThat(h.proposed()).isNull();
        assertThat(h.suggested()).containsExactly("\t\treturn 2 * x;");
        assertThat(h.why()).contains("differ only in whitespace");
    }

    @Test
    void importOnlyConflictInAJavaFileSuggestsOursThenTheirsWithoutResorting() throws Exception {
        String base =
                lines("package shop;", "", "import java.util.List;", "import java.util.Map;", "", "class Cart {", "}");
        MergeScenario m = MergeScenario.in(tmp)
                .file(
                        "src/Cart.java",
                        base,
                        base.replace("import java.util.Map;", "import java.util.Map;\nimport java.util.Optional;"),
                        base.replace(
                                "import java.util.Map;",
                                "import java.util.Map;\nimport java.time.Instant;" + "\nimport java.util.ArrayList;"))
                .build();

        ConflictReport r = classify(m);
        ConflictHunk h = onlyHunk(r);

        assertThat(m.gitConflicts()).isEqualTo("src/Cart.java");
        assertThat(h.hunkClass()).isEqualTo(HunkClass.IMPORT_BLOCK);
        assertThat(h.proposed()).isNull();
        assertThat(h.suggested())
                .containsExactly(
                        "import java.util.Optional;", "import java.time.Instant;", "import java.util.ArrayList;");
        assertThat(r.allSafe()).isFalse();
    }

    @Test
    void editsToAdjacentLinesThatGitLeavesConflictedAreAPersonsWithBothSuggested() throws Exception {
        MergeScenario m = MergeScenario.in(tmp)
                .file(
                        "Calc.java",
                        CALC_BASE,
                        CALC_BASE.replace("int sum = a + b;", "int sum = Math.addExact(a, b);"),
                        CALC_BASE.replace("return sum;", "return sum; // never negative here"))
                .build();

        ConflictReport r = classify(m);
        ConflictHunk h = onlyHunk(r);

        assertThat(m.gitConflicts()).isEqualTo("Calc.java"); // git, too, leaves adjacent edits in one conflict
        assertThat(h.hunkClass()).as(h.why()).isEqualTo(HunkClass.HUMAN);
        assertThat(h.proposed()).isNull();
        assertThat(h.suggested())
                .containsExactly(
                        "        int sum = Math.addExact(a, b);", "        return sum; // never negative here");
        assertThat(ResolvedText.resolve(
                        r.files().get(0),
                        java.util.Map.of(
                                0,
                                dev.paddock.merge.conflict.HunkChoice.of(
                                        dev.paddock.merge.conflict.HunkChoice.Take.PROPOSED))))
                .isEqualTo(CALC_BASE
                        .replace("int sum = a + b;", "int sum = Math.addExact(a, b);")
                        .replace("return sum;", "return sum; // never negative here"));
    }

    @Test
    void editsToDifferentFunctionsMergeCleanlyAndGiveAnEmptyReport() throws Exception {
        MergeScenario m = MergeScenario.in(tmp)
                .file(
                        "Calc.java",
                        CALC_BASE,
                        CALC_BASE.replace("int sum = a + b;", "int sum = Math.addExact(a, b);"),
                        CALC_BASE.replace("return 2 * x;", "return x << 1;"))
                .build();

        ConflictReport r = classify(m);

        assertThat(m.gitConflicts()).isEmpty();
        assertThat(r.isClean()).isTrue();
        assertThat(r.files()).isEmpty();
        assertThat(r.allSafe()).isTrue();
    }

    @Test
    void aSignatureChangeGoesToAHumanEvenWhenTheEditsDoNotOverlap() throws Exception {
        MergeScenario m = MergeScenario.in(tmp)
                .file(
                        "Calc.java",
                        CALC_BASE,
                        CALC_BASE.replace("int add(int a, int b) {", "long add(long a, long b) {"),
                        CALC_BASE.replace("int sum = a + b;", "int sum = b + a;"))
                .build();

        ConflictHunk h = onlyHunk(classify(m));

        assertThat(m.gitConflicts()).isEqualTo("Calc.java");
        assertThat(h.hunkClass()).isEqualTo(HunkClass.HUMAN);
        assertThat(h.proposed()).isNull();
        assertThat(h.why())
                .contains("neighbouring lines")
                .contains("method signature")
                .contains("long add(long a, long b)");
    }

    @Test
    void aLockUnlockPairGoesToAHuman() throws Exception {
        String base = lines(
                "def withdraw(account, amount):",
                "    balance = account.balance",
                "    account.balance = balance - amount",
                "    audit(account)");
        MergeScenario m = MergeScenario.in(tmp)
                .file(
                        "bank.py",
                        base,
                        base.replace(
                                        "    balance = account.balance",
                                        "    account.lock.acquire()\n    balance = account.balance")
                                + "    account.lock.release()\n",
                        base.replace("    balance = account.balance", "    balance = account.balance_cents"))
                .build();

        ConflictHunk h = onlyHunk(classify(m));

        assertThat(m.gitConflicts()).isEqualTo("bank.py");
        assertThat(h.hunkClass()).isEqualTo(HunkClass.HUMAN);
        assertThat(h.why()).contains("lock/release").contains("account.lock.acquire()");
    }

    @Test
    void deleteModifyGoesToAHuman() throws Exception {
        MergeScenario m = MergeScenario.in(tmp)
                .file("Calc.java", CALC_BASE, null, CALC_BASE.replace("return sum;", "return sum + 0;"))
                .build();

        ConflictReport r = classify(m);

        assertThat(m.gitConflicts()).isEqualTo("Calc.java");
        ConflictFile f = r.files().get(0);
        assertThat(f.kind()).isEqualTo(FileConflictKind.DELETE_MODIFY);
        assertThat(f.oursText()).isNull();
        assertThat(f.baseText()).isEqualTo(CALC_BASE);
        assertThat(f.theirsText()).contains("return sum + 0;");
        assertThat(f.hunks()).isEmpty();
        assertThat(f.needsHuman()).isTrue();
    }

    @Test
    void renameRenameGoesToAHuman() throws Exception {
        MergeScenario m = MergeScenario.in(tmp)
                .file("Calc.java", CALC_BASE, null, null)
                .file("math/Calc.java", null, CALC_BASE, null)
                .file("util/Calc.java", null, null, CALC_BASE)
                .build();

        ConflictReport r = classify(m);

        assertThat(m.gitConflicts()).contains("Calc.java"); // git reports the rename/rename; JGit alone merges it
        assertThat(r.files()).hasSize(1);
        ConflictFile f = r.files().get(0);
        assertThat(f.kind()).isEqualTo(FileConflictKind.RENAME_RENAME);
        assertThat(f.path()).isEqualTo("math/Calc.java");
        assertThat(f.needsHuman()).isTrue();
    }

    @Test
    void aRenameOnOneSideAndAnEditOnTheOtherMergeAsGitDoes() throws Exception {
        MergeScenario m = MergeScenario.in(tmp)
                .file("Calc.java", CALC_BASE, null, CALC_BASE.replace("return 2 * x;", "return x << 1;"))
                .file("math/Calc.java", null, CALC_BASE, null)
                .build();

        assertThat(m.gitConflicts()).isEmpty();
        assertThat(classify(m).files()).isEmpty();
    }

    @Test
    void aRenameOnOneSideAndAConflictingEditOnTheOtherIsAContentConflictAtTheNewPath() throws Exception {
        MergeScenario m = MergeScenario.in(tmp)
                .file("Calc.java", CALC_BASE, null, CALC_BASE.replace("return sum;", "return sum + 1;"))
                .file("math/Calc.java", null, CALC_BASE.replace("return sum;", "return sum - 1;"), null)
                .build();

        ConflictReport r = classify(m);

        assertThat(m.gitConflicts()).isEqualTo("math/Calc.java");
        assertThat(r.files()).extracting(ConflictFile::path).containsExactly("math/Calc.java");
        assertThat(onlyHunk(r).oursLines()).containsExactly("        return sum - 1;");
        assertThat(onlyHunk(r).theirsLines()).containsExactly("        return sum + 1;");
    }

    @Test
    void aBinaryFileChangedOnBothSidesGoesToAHuman() throws Exception {
        MergeScenario m = MergeScenario.in(tmp)
                .bytes(
                        "logo.png",
                        new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 1, 2},
                        new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 1, 3},
                        new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 1, 4})
                .build();

        ConflictReport r = classify(m);

        assertThat(m.gitConflicts()).isEqualTo("logo.png");
        ConflictFile f = r.files().get(0);
        assertThat(f.kind()).isEqualTo(FileConflictKind.BINARY);
        assertThat(f.oursText()).isNull();
        assertThat(f.hunks()).isEmpty();
        assertThat(f.needsHuman()).isTrue();
    }

    @Test
    void addAddConflictHasHunksAgainstAnEmptyBase() throws Exception {
        MergeScenario m = MergeScenario.in(tmp)
                .file("NOTES.md", null, lines("# Notes", "ours"), lines("# Notes", "theirs"))
                .build();

        ConflictReport r = classify(m);

        assertThat(m.gitConflicts()).isEqualTo("NOTES.md");
        ConflictFile f = r.files().get(0);
        assertThat(f.kind()).isEqualTo(FileConflictKind.ADD_ADD);
        assertThat(f.baseText()).isNull();
        ConflictHunk h = onlyHunk(r);
        assertThat(h.base().length()).isZero();
        assertThat(h.oursLines()).containsExactly("ours");
        assertThat(h.theirsLines()).containsExactly("theirs");
        assertThat(h.hunkClass()).isEqualTo(HunkClass.HUMAN);
    }

    @Test
    void nonAsciiPathsAndCrlfFilesWork() throws Exception {
        String base = "Grüße\r\nzeile zwei\r\nende\r\n";
        MergeScenario m = MergeScenario.in(tmp)
                .file(
                        "docs/übersicht é.txt",
                        base,
                        base.replace("zeile zwei", "Zeile 2"),
                        base.replace("zeile zwei", "ligne deux"))
                .build();

        ConflictReport r = classify(m);

        assertThat(r.files()).extracting(ConflictFile::path).containsExactly("docs/übersicht é.txt");
        ConflictHunk h = onlyHunk(r);
        assertThat(h.oursLines()).containsExactly("Zeile 2");
        assertThat(h.theirsLines()).containsExactly("ligne deux");
        assertThat(h.baseLines()).containsExactly("zeile zwei");
        String merged = ResolvedText.resolve(r.files().get(0), Map.of(0, HunkChoice.of(HunkChoice.Take.THEIRS)));
        assertThat(merged).isEqualTo("Grüße\r\nligne deux\r\nende\r\n");
    }

    @Test
    void manyHunksInOneFileComeInOrderWithTheirRanges() throws Exception {
        StringBuilder base = new StringBuilder();
        StringBuilder ours = new StringBuilder();
        StringBuilder theirs = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            base.append("line ").append(i).append('\n');
            ours.append(i % 10 == 5 ? "ours " + i : "line " + i).append('\n');
            theirs.append(i % 10 == 5 ? "theirs " + i : "line " + i).append('\n');
        }
        MergeScenario m = MergeScenario.in(tmp)
                .file("a.txt", base.toString(), ours.toString(), theirs.toString())
                .build();

        List<ConflictHunk> hunks = classify(m).files().get(0).hunks();

        assertThat(hunks).extracting(ConflictHunk::index).containsExactly(0, 1, 2);
        assertThat(hunks)
                .extracting(ConflictHunk::ours)
                .containsExactly(new LineRange(5, 6), new LineRange(15, 16), new LineRange(25, 26));
        assertThat(hunks.get(2).theirsLines()).containsExactly("theirs 25");
    }

    @Test
    void classifyingNeverChangesTheRepository() throws Exception {
        MergeScenario m = MergeScenario.in(tmp)
                .file(
                        "Calc.java",
                        CALC_BASE,
                        CALC_BASE.replace("return sum;", "return -sum;"),
                        CALC_BASE.replace("return sum;", "return sum * 1;"))
                .file("clean.txt", "a\n", "a\nb\n", "c\na\n")
                .file("gone.txt", "x\n", null, "y\n")
                .build();
        TempRepo.write(m.dir(), "untracked.txt", "mine");
        TempRepo.write(m.dir(), "Calc.java", "uncommitted edit\n");
        MergeScenario.State before = m.state();

        ConflictReport r = classify(m);

        assertThat(r.files()).extracting(ConflictFile::path).containsExactly("Calc.java", "gone.txt");
        assertThat(m.state()).isEqualTo(before);
    }

    @Test
    void aCrissCrossHistoryUsesAVirtualBaseAndWritesNoObject() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        repo.commitFile("f.txt", lines("1", "2", "3", "4", "5", "6", "7"), "Base");
        repo.branch("agent");
        repo.commitFile("f.txt", lines("1", "2a", "3", "4", "5", "6", "7"), "A1");
        repo.git("checkout", "--quiet", "agent");
        repo.commitFile("f.txt", lines("1", "2", "3", "4", "5", "6b", "7"), "B1");
        String b1 = repo.head();
        repo.git("merge", "--quiet", "--no-edit", "main");
        repo.commitFile("f.txt", lines("1", "2a", "3", "4 theirs", "5", "6b", "7"), "B2");
        repo.git("checkout", "--quiet", "main");
        repo.git("merge", "--quiet", "--no-edit", b1);
        repo.commitFile("f.txt", lines("1", "2a", "3", "4 ours", "5", "6b", "7"), "A2");
        MergeScenario.State before = stateOf(repo);

        ConflictReport r = classifier.classify(repo.dir(), "main", "agent");

        ConflictHunk h = onlyHunk(r);
        assertThat(h.baseLines()).containsExactly("4");
        assertThat(h.oursLines()).containsExactly("4 ours");
        assertThat(h.theirsLines()).containsExactly("4 theirs");
        assertThat(stateOf(repo)).isEqualTo(before);
    }

    private static MergeScenario.State stateOf(TempRepo repo) {
        return MergeScenario.of(repo).state();
    }

    @Test
    void unknownRevisionsAndNonRepositoriesAreBadInput() throws Exception {
        MergeScenario m =
                MergeScenario.in(tmp).file("a.txt", "a\n", "b\n", "c\n").build();

        assertThatThrownBy(() -> classifier.classify(m.dir(), "main", "no-such-branch"))
                .isInstanceOf(ConflictClassifyException.class)
                .hasMessageContaining("unknown revision \"no-such-branch\" for theirs")
                .matches(e -> ((ConflictClassifyException) e).isBadInput());
        assertThatThrownBy(() -> classifier.classify(m.dir(), "0123456789abcdef0123456789abcdef01234567", "agent"))
                .hasMessageContaining("for ours");
        assertThatThrownBy(() -> classifier.classify(m.dir(), "main:a.txt", "agent"))
                .isInstanceOf(ConflictClassifyException.class);
        Path plain = java.nio.file.Files.createDirectories(tmp.resolve("plain"));
        assertThatThrownBy(() -> classifier.classify(plain, "main", "agent"))
                .hasMessageContaining("is not a git repository")
                .matches(e -> ((ConflictClassifyException) e).isBadInput());
        assertThatThrownBy(() -> classifier.classify(tmp.resolve("missing"), "main", "agent"))
                .hasMessageContaining("is not a git repository");
    }

    @Test
    void worksInALinkedWorktreeAndWithCommitIds() throws Exception {
        MergeScenario m =
                MergeScenario.in(tmp).file("a.txt", "a\n", "b\n", "c\n").build();
        Path wt = m.repo().addDetachedWorktree(tmp.resolve("wt"));

        ConflictReport r = classifier.classify(
                wt, m.repo().head(), TempRepo.revParse(m.dir(), "agent").substring(0, 12));

        assertThat(r.files()).extracting(ConflictFile::path).containsExactly("a.txt");
        assertThat(new String(r.files().get(0).oursText().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8))
                .isEqualTo("b\n");
    }

    @Test
    void worksOnABareRepositoryAndOnAFastForward() throws Exception {
        MergeScenario m =
                MergeScenario.in(tmp).file("a.txt", "a\n", "b\n", "c\n").build();
        Path bare = tmp.resolve("bare.git");
        TempRepo.git(tmp, "clone", "--quiet", "--bare", m.dir().toString(), bare.toString());

        ConflictReport conflicted = classifier.classify(bare, "main", "agent");
        ConflictReport fastForward = classifier.classify(bare, "main~1", "main");

        assertThat(conflicted.files()).extracting(ConflictFile::path).containsExactly("a.txt");
        assertThat(fastForward.isClean()).isTrue();
        assertThat(fastForward.base()).isEqualTo(TempRepo.revParse(m.dir(), "main~1"));
    }

    @Test
    void parametersOfASignatureSpreadOverLinesGoToAHuman() throws Exception {
        String base = lines(
                "class Shop {",
                "    int pay(",
                "            int amount,",
                "            int fee,",
                "            String currency) {",
                "        return amount + fee;",
                "    }",
                "}");
        MergeScenario m = MergeScenario.in(tmp)
                .file(
                        "Shop.java",
                        base,
                        base.replace("int amount,", "long amount,"),
                        base.replace("int fee,", "long fee,"))
                .build();

        ConflictHunk h = onlyHunk(classify(m));

        assertThat(m.gitConflicts()).isEqualTo("Shop.java");
        assertThat(h.hunkClass()).isEqualTo(HunkClass.HUMAN);
        assertThat(h.why()).contains("parameters of a method signature (`int pay(`)");
    }

    /**
     * Both sides append the same line at the end of the file and ours one more (psf/requests' AUTHORS.rst in merge
     * 613f61d77c0ddc185054fcbb114c07ce3f2f4cb8 has this shape): JGit places the hunk's base range past base's last
     * line; the report keeps it inside the file, so the merged text can be written.
     */
    @Test
    void aHunkAfterALineBothSidesAppendedStaysInsideTheBaseFile() throws Exception {
        MergeScenario m = MergeScenario.in(tmp)
                .file("AUTHORS.rst", "- Ann\n- Bob\n", "- Ann\n- Bob\n- Eve\n- Kim\n", "- Ann\n- Bob\n- Eve\n")
                .build();

        ConflictReport r = classify(m);

        assertThat(r.files()).hasSize(1);
        ConflictFile f = r.files().get(0);
        for (ConflictHunk h : f.hunks()) {
            assertThat(h.base().end())
                    .as("base range %s of a 2-line base", h.base())
                    .isLessThanOrEqualTo(2);
        }
        assertThat(ResolvedText.resolve(f, java.util.Map.of(0, HunkChoice.of(HunkChoice.Take.OURS))))
                .isEqualTo("- Ann\n- Bob\n- Eve\n- Kim\n");
    }
}
