package dev.paddock.merge.conflict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.merge.conflict.HunkClassifier.Judgement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link HunkClassifier} and its rules ({@link RiskyLines}, {@link ImportLines}) on hunk lines. */
class HunkClassifierTest {
    private static Judgement classify(String path, List<String> base, List<String> ours, List<String> theirs) {
        return HunkClassifier.classify(path, base, ours, theirs);
    }

    @Test
    void identicalChangeOnBothSidesProposesIt() {
        Judgement j = classify("a.txt", List.of("x = 1"), List.of("x = 2", "y = 3"), List.of("x = 2", "y = 3"));

        assertThat(j.hunkClass()).isEqualTo(HunkClass.IDENTICAL);
        assertThat(j.proposed()).containsExactly("x = 2", "y = 3");
    }

    @Test
    void oneSideEqualToBaseTakesTheOtherSide() {
        Judgement theirsWins = classify("a.txt", List.of("a", "b"), List.of("a", "b"), List.of("a", "c"));
        Judgement oursWins = classify("a.txt", List.of("a", "b"), List.of("z"), List.of("a", "b"));

        assertThat(theirsWins.hunkClass()).isEqualTo(HunkClass.ONE_SIDE_EQUALS_BASE);
        assertThat(theirsWins.proposed()).containsExactly("a", "c");
        assertThat(oursWins.hunkClass()).isEqualTo(HunkClass.ONE_SIDE_EQUALS_BASE);
        assertThat(oursWins.proposed()).containsExactly("z");
    }

    @Test
    void whitespaceAndLineBreaksOnlyWithNothingToDecideAreLeftToAPersonSuggestingOurs() {
        Judgement j = classify(
                "Shop.java",
                List.of("total = price * qty;"),
                List.of("total = price", "        * qty;"),
                List.of("total  =  price * qty;  "));

        assertThat(j.hunkClass()).isEqualTo(HunkClass.HUMAN);
        assertThat(j.proposed()).isNull();
        assertThat(j.suggested()).containsExactly("total = price", "        * qty;");
        assertThat(j.why()).contains("differ only in whitespace").contains("Suggested: ours");
        assertThat(j.confidence()).isBetween(0.0, 0.9);
    }

    @Test
    void whitespaceOnlyTakesTheSideThatReformattedTheWholeFile() {
        List<String> tabs = java.util.stream.IntStream.range(0, 12)
                .mapToObj(i -> "\tx" + i + "();")
                .toList();
        List<String> spaces = tabs.stream().map(l -> l.replace("\t", "    ")).toList();
        FileContext file = FileContext.of("Shop.java", tabs, tabs, spaces);

        Judgement j = HunkClassifier.classify(
                file, List.of("\tpay();"), List.of("\tpay(1);"), List.of("    pay(1);"), List.of());

        assertThat(j.hunkClass()).isEqualTo(HunkClass.WHITESPACE_ONLY);
        assertThat(j.proposed()).containsExactly("    pay(1);");
        assertThat(j.why()).contains("theirs reformatted the whole file");
    }

    @Test
    void whitespaceOnlyTakesTheSideThatFitsTheFilesStyle() {
        List<String> spaces = java.util.stream.IntStream.range(0, 12)
                .mapToObj(i -> "    x" + i + "();")
                .toList();
        FileContext file = FileContext.of("Shop.java", spaces, spaces, spaces);

        Judgement j = HunkClassifier.classify(
                file, List.of("    pay();"), List.of("\tpay(1);"), List.of("    pay(1);"), List.of());

        assertThat(j.hunkClass()).isEqualTo(HunkClass.WHITESPACE_ONLY);
        assertThat(j.proposed()).containsExactly("    pay(1);");
        assertThat(j.why()).contains("only theirs' lines follow the file's indentation");
    }

    @Test
    void indentationIsNotWhitespaceOnlyWherePythonReadsIt() {
        Judgement j = classify(
                "shop.py",
                List.of("if x:", "    pay()"),
                List.of("if x:", "  pay()", "log()"),
                List.of("if x:", "pay()", "log()"));

        assertThat(j.hunkClass()).isEqualTo(HunkClass.HUMAN);
    }

    @Test
    void importMergeKeepsDeletionsDeletedAndTheBlocksOrderAndIsOnlySuggested() {
        List<String> base = List.of("import java.util.List;", "import java.util.Map;");
        List<String> ours = List.of("import java.util.List;", "import java.util.Set;");
        List<String> theirs = List.of("import java.util.List;", "import java.util.Map;", "import java.io.File;");

        Judgement j = classify("A.java", base, ours, theirs);

        assertThat(j.hunkClass()).isEqualTo(HunkClass.IMPORT_BLOCK);
        assertThat(j.hunkClass().isSafe()).isFalse();
        assertThat(j.proposed()).isNull();
        assertThat(j.suggested())
                .containsExactly("import java.util.List;", "import java.io.File;", "import java.util.Set;");
    }

    @Test
    void importsBothSidesInsertedAtOnePlaceKeepOursThenTheirsWithTheirGroups() {
        List<String> ours = List.of("import java.util.List;", "", "import org.slf4j.Logger;");
        List<String> theirs = List.of("import java.util.Map;", "", "import org.junit.Test;");

        Judgement j = classify("A.java", List.of(), ours, theirs);

        assertThat(j.suggested())
                .containsExactly(
                        "import java.util.List;",
                        "",
                        "import org.slf4j.Logger;",
                        "import java.util.Map;",
                        "",
                        "import org.junit.Test;");
    }

    @Test
    void importStylesOfOtherLanguagesAreRecognised() {
        assertThat(classify(
                                "m.py",
                                List.of("import os"),
                                List.of("import os", "import sys"),
                                List.of("import os", "from pathlib import Path"))
                        .suggested())
                .containsExactly("import os", "from pathlib import Path", "import sys");
        assertThat(classify("a.ts", List.of(), List.of("import { a } from './a';"), List.of("import b from \"./b\";"))
                        .hunkClass())
                .isEqualTo(HunkClass.IMPORT_BLOCK);
        assertThat(classify("a.c", List.of(), List.of("#include <stdio.h>"), List.of("#include \"shop.h\""))
                        .hunkClass())
                .isEqualTo(HunkClass.IMPORT_BLOCK);
        assertThat(classify(
                                "a.go",
                                List.of("\t\"fmt\""),
                                List.of("\t\"fmt\"", "\t\"os\""),
                                List.of("\t\"fmt\"", "\tlog \"github.com/x/log\""))
                        .hunkClass())
                .isEqualTo(HunkClass.IMPORT_BLOCK);
        assertThat(classify("a.rs", List.of(), List.of("use std::io;"), List.of("use crate::shop::{Cart, Item};"))
                        .hunkClass())
                .isEqualTo(HunkClass.IMPORT_BLOCK);
        assertThat(classify("A.cs", List.of(), List.of("using System.IO;"), List.of("using System.Linq;"))
                        .hunkClass())
                .isEqualTo(HunkClass.IMPORT_BLOCK);
        // A quoted string outside a Go file is not an import.
        assertThat(classify("a.txt", List.of(), List.of("\"a\""), List.of("\"b\""))
                        .hunkClass())
                .isEqualTo(HunkClass.HUMAN);
    }

    @Test
    void editsWithAnUnchangedLineBetweenThemAreBothApplied() {
        List<String> base = List.of("a", "b", "c", "d", "e");
        Judgement j = classify("a.txt", base, List.of("a", "B", "c", "d", "e"), List.of("a", "b", "c", "D", "e", "f"));

        assertThat(j.hunkClass()).isEqualTo(HunkClass.NON_OVERLAPPING);
        assertThat(j.proposed()).containsExactly("a", "B", "c", "D", "e", "f");
    }

    @Test
    void aChangeBothSidesMadeIsKeptOnceBesideEachSidesOwnSeparatedChanges() {
        List<String> base = List.of("a", "b", "c", "d", "e", "f", "g");
        Judgement j = classify(
                "a.txt", base, List.of("a", "B", "c", "d", "E", "f", "g"), List.of("a", "B", "c", "d", "e", "f", "G"));

        assertThat(j.hunkClass()).isEqualTo(HunkClass.NON_OVERLAPPING);
        assertThat(j.proposed()).containsExactly("a", "B", "c", "d", "E", "f", "G");
        assertThat(j.why()).contains("identically, kept once");
        assertThat(j.confidence()).isGreaterThan(0.5).isLessThan(1.0);
    }

    @Test
    void aSharedChangeNextToTheOtherSidesOwnChangeIsAPersonsDecision() {
        List<String> base = List.of("a", "b", "c", "d");
        Judgement j = classify("a.txt", base, List.of("a", "B", "c", "D"), List.of("a", "B", "C", "d"));

        assertThat(j.hunkClass()).isEqualTo(HunkClass.HUMAN);
        assertThat(j.proposed()).isNull();
    }

    @Test
    void aSharedChangeBesideOverlappingOwnChangesIsAPersonsDecision() {
        List<String> base = List.of("a", "k", "b", "c");
        Judgement j = classify("a.txt", base, List.of("A", "k", "Y"), List.of("A", "k", "b", "Z"));

        assertThat(j.hunkClass()).isEqualTo(HunkClass.HUMAN);
        assertThat(j.suggested()).containsExactly("A", "k", "Y");
    }

    @Test
    void aLineBothSidesAddedAtDifferentPlacesIsNeverWrittenTwice() {
        List<String> base = List.of("a", "b", "c", "d", "e");
        List<String> ours = List.of("a", "import x;", "b", "c", "d", "e");
        Judgement j = classify("a.txt", base, ours, List.of("a", "b", "c", "d", "import x;", "e"));

        assertThat(j.hunkClass()).isEqualTo(HunkClass.HUMAN);
        assertThat(j.proposed()).isNull();
        assertThat(j.suggested()).containsExactly("a", "import x;", "b", "c", "d", "import x;", "e");
        assertThat(j.why()).contains("more often than either side has it");
    }

    @Test
    void editsOfNeighbouringLinesAreLeftToAPersonWithBothSuggested() {
        List<String> base = List.of("a", "b", "c", "d");
        Judgement j = classify("a.txt", base, List.of("a", "B", "c", "d"), List.of("a", "b", "C", "d", "e"));

        assertThat(j.hunkClass()).isEqualTo(HunkClass.HUMAN);
        assertThat(j.proposed()).isNull();
        assertThat(j.suggested()).containsExactly("a", "B", "C", "d", "e");
        assertThat(j.why()).contains("neighbouring lines");
    }

    @Test
    void insertionsAtTheSamePlaceOverlap() {
        Judgement j = classify("a.txt", List.of("a", "b"), List.of("a", "x", "b"), List.of("a", "y", "b"));

        assertThat(j.hunkClass()).isEqualTo(HunkClass.HUMAN);
        assertThat(j.why()).startsWith("Both sides changed the same lines differently. Suggested: ours");
        assertThat(j.suggested()).containsExactly("a", "x", "b");
    }

    @Test
    void aLoneInsertionNextToTheOtherSidesChangeIsOnlySuggested() {
        Judgement j = classify("a.txt", List.of(), List.of("x"), List.of());

        assertThat(j.hunkClass()).isEqualTo(HunkClass.HUMAN);
        assertThat(j.suggested()).containsExactly("x");
    }

    @Test
    void aLockInAnOtherwiseIdenticalChangeGoesToAHuman() {
        Judgement j = classify(
                "A.java",
                List.of("count++;"),
                List.of("lock.lock();", "count++;"),
                List.of("lock.lock();", "count++;"));

        assertThat(j.hunkClass()).isEqualTo(HunkClass.HUMAN);
        assertThat(j.why()).startsWith("Would be identical, but it touches a lock/release pair (`lock.lock();`)");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "public static int add(int a, int b) {",
                "private List<String> names() {",
                "Foo(int x) {",
                "public Foo(int x) {",
                "def total(self, items):",
                "async def fetch(url):",
                "func (s *Shop) Pay(amount int) error {",
                "func main() {",
                "pub fn parse(input: &str) -> Result<Ast> {",
                "fn main() {",
                "function pay(amount) {",
                "export async function load() {",
                "const pay = (amount) => {",
                "export const f = async x => x",
                "fun pay(amount: Int): Boolean {",
                "override fun toString(): String =",
                "static void *worker(void *arg)",
                "int main(int argc, char **argv)",
                "public async Task<int> PayAsync(int amount)",
                "def pay",
                "private async load(id: string) {"
            })
    void signaturesAreRisky(String line) {
        assertThat(RiskyLines.reason("    " + line))
                .as(line)
                .hasValueSatisfying(r -> assertThat(r).contains("signature"));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "return add(a, b);",
                "int x = add(a, b);",
                "System.out.println(x);",
                "if (x > 0) {",
                "} else if (y) {",
                "for (int i = 0; i < n; i++) {",
                "while (running()) {",
                "foo.bar(baz);",
                "new Thread(r).start();",
                "throw new IllegalStateException(\"x\");",
                "x = compute(y)",
                "print(total)",
                "// int add(int a, int b) {",
                "} catch (IOException e) {",
                "assert valid(x);",
                "import java.util.List;",
                "total += price * qty;"
            })
    void callsAndStatementsAreNotSignatures(String line) {
        assertThat(RiskyLines.reason("    " + line)).as(line).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "lock.lock();",
                "lock.unlock();",
                "mu.Lock()",
                "defer mu.Unlock()",
                "sem.acquire();",
                "sem.release()",
                "synchronized (this) {",
                "with self._lock:",
                "with lock:",
                "pthread_mutex_lock(&m);",
                "std::lock_guard<std::mutex> g(m);",
                "lock (sync) {",
                "Monitor.Enter(obj);",
                "rw.RLock()"
            })
    void lockAndReleaseCallsAreRisky(String line) {
        assertThat(RiskyLines.reason("    " + line))
                .as(line)
                .hasValueSatisfying(r -> assertThat(r).contains("lock"));
    }

    @Test
    void anOpenParameterListAboveMakesAHunkRiskyButACallDoesNot() {
        assertThat(RiskyLines.openSignature(List.of("}", "", "public int pay(int amount,")))
                .isPresent();
        assertThat(RiskyLines.openSignature(List.of("def pay(", "        amount,")))
                .isPresent();
        assertThat(RiskyLines.openSignature(List.of("    total = pay(amount,"))).isEmpty();
        assertThat(RiskyLines.openSignature(List.of("int pay(int a) {", "    int x = 1;")))
                .isEmpty();
        assertThat(RiskyLines.openSignature(List.of())).isEmpty();
    }
}
