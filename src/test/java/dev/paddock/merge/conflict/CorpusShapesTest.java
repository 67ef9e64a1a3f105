package dev.paddock.merge.conflict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.merge.conflict.HunkClassifier.Judgement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The shapes of wrong "safe" proposals seen when replaying real merges, each on a real hunk of the conflict corpus
 * (src/test/resources/conflict-corpus): the few lines of the hunk are kept here, with the repository, the merge
 * commit, the path and the project's license. What the person who made the merge committed is said in each test.
 */
class CorpusShapesTest {

    /*
     * mockito/mockito, merge 8fd4b19ff7df80471dfa54d3dcddb21898751506, src/main/java/org/mockito/Mockito.java,
     * hunk 0 (MIT License). Ours deleted an import, theirs added two next to it. The union used to bring the deleted
     * import back as a safe proposal; now the deletion stays deleted and the block is only a suggestion (the person
     * kept the import: imports are decided by code outside the block).
     */
    @Test
    void anImportOneSideDeletedStaysDeletedAndTheBlockIsOnlySuggested() {
        List<String> base = List.of("import org.mockito.internal.InternalMockHandler;");
        List<String> ours = List.of();
        List<String> theirs = List.of("import org.mockito.exceptions.misusing.PotentialStubbingProblem;",
                "import org.mockito.exceptions.misusing.UnnecessaryStubbingException;",
                "import org.mockito.internal.InternalMockHandler;");

        Judgement j = HunkClassifier.classify("src/main/java/org/mockito/Mockito.java", base, ours, theirs);

        assertThat(j.hunkClass()).isEqualTo(HunkClass.IMPORT_BLOCK);
        assertThat(j.proposed()).isNull();
        assertThat(j.suggested()).containsExactly("import org.mockito.exceptions.misusing.PotentialStubbingProblem;",
                "import org.mockito.exceptions.misusing.UnnecessaryStubbingException;");
    }

    /*
     * projectlombok/lombok, merge f43a63b1d988a703dddbc61c47076d616bb3d639, src/core/lombok/eclipse/EclipseAugments.java,
     * hunk 0 (MIT License). Both sides inserted imports at one place. The union used to re-sort them; the person kept
     * ours' import, then theirs', in their order, which is now the suggestion.
     */
    @Test
    void importsAreNotResortedButKeptInTheSidesOrder() {
        List<String> ours = List.of("import java.util.Map;");
        List<String> theirs = List.of("import java.util.List;", "import java.util.concurrent.ConcurrentMap;");

        Judgement j = HunkClassifier.classify("src/core/lombok/eclipse/EclipseAugments.java", List.of(), ours, theirs);

        assertThat(j.suggested()).containsExactly("import java.util.Map;", "import java.util.List;",
                "import java.util.concurrent.ConcurrentMap;");
        assertThat(j.hunkClass().isSafe()).isFalse();
    }

    /*
     * psf/requests, merge a889b62c5025ed064d4058f27cb1cc62df78f2e8, requests/sessions.py, hunk 0 (Apache License 2.0).
     * Both sides edited the same "from .compat import" line. The union used to keep both lines (the module imported
     * twice); now a person combines them, and the suggestion holds one of them, never both. The person kept ours.
     */
    @Test
    void anImportLineBothSidesEditedIsNeverKeptTwice() {
        List<String> base = List.of("from .compat import cookielib, OrderedDict, urljoin, urlparse");
        List<String> ours = List.of("from .compat import cookielib, OrderedDict, urljoin, urlparse, is_py3, str");
        List<String> theirs = List.of("from .compat import cookielib, is_py3, OrderedDict, urljoin, urlparse");

        Judgement j = HunkClassifier.classify("requests/sessions.py", base, ours, theirs);

        assertThat(j.hunkClass()).isEqualTo(HunkClass.IMPORT_BLOCK);
        assertThat(j.proposed()).isNull();
        assertThat(j.suggested()).containsExactlyElementsOf(ours);
        assertThat(j.why()).contains("both sides added an import of .compat");
    }

    /*
     * pallets/click, merge 1ca1cea0f034f370bb6d95cfc9096031d017125a, docs/changes.md, hunk 0 (BSD 3-Clause License).
     * Ours deleted a line, theirs replaced it with a blank one: the sides differ only in whitespace, and nothing (no
     * reformatting of the file, no style the lines break) says which to keep. It used to be resolved to ours as a
     * safe proposal whichever side was right; now a person decides, with ours suggested (the person's choice here).
     */
    @Test
    void aWhitespaceOnlyHunkThatNothingDecidesGoesToAPerson() {
        List<String> base = List.of("```{eval-rst}");
        List<String> ours = List.of();
        List<String> theirs = List.of("");
        FileContext file = FileContext.of("docs/changes.md", List.of("# Changes", "", "```{eval-rst}"),
                List.of("# Changes", ""), List.of("# Changes", "", ""));

        Judgement j = HunkClassifier.classify(file, base, ours, theirs, List.of());

        assertThat(j.hunkClass()).isEqualTo(HunkClass.HUMAN);
        assertThat(j.proposed()).isNull();
        assertThat(j.suggested()).isEmpty();
        assertThat(j.why()).contains("differ only in whitespace");
    }

    /*
     * prometheus/prometheus, merge b902c3630351dd6bbe747795fb6ce521c7623d22, web/ui/package-lock.json, hunk 0
     * (Apache License 2.0). Each side changed the version line of the lockfile. A line-level merge of a lockfile
     * used to be proposed (one side's name line with the other's version line); a lockfile is now never merged as
     * text: one side is taken whole and the file regenerated.
     */
    @Test
    void aLockfileIsRegeneratedNeverMergedAsText() {
        List<String> base = List.of("  \"version\": \"0.312.0-rc.0\",");
        List<String> ours = List.of("  \"version\": \"0.311.3\",");
        List<String> theirs = List.of("  \"version\": \"0.312.0\",");

        Judgement j = HunkClassifier.classify("web/ui/package-lock.json", base, ours, theirs);

        assertThat(j.hunkClass()).isEqualTo(HunkClass.LOCKFILE);
        assertThat(j.proposed()).isNull();
        assertThat(j.suggested()).isNull();
        assertThat(j.why()).contains("regenerate").contains("npm install --package-lock-only");
    }

    /*
     * expressjs/express, merge e9f9aaeebd13d0ca57e59828a96eb88cb61888bd, appveyor.yml, hunk 0 (MIT License). Theirs
     * added a comment above an "if" whose branches ours rewrote. The edits touch, and the old proposal glued theirs'
     * comment to ours' code; the person took theirs whole. Edits with no unchanged line between them are now a
     * person's decision.
     */
    @Test
    void aCommentOfOneSideIsNotGluedToTheCodeOfTheOther() {
        List<String> base = List.of("      if ([int]$env:nodejs_version.split(\".\")[0] -lt 4) {",
                "        npm install --silent --save-dev mocha@3.5.3",
                "      } elseif ([int]$env:nodejs_version.split(\".\")[0] -lt 6) {");
        List<String> ours = List.of("      if ([int]$env:nodejs_version.split(\".\")[0] -lt 6) {");
        List<String> theirs = List.of("      # - use 9.x for Node.js < 14",
                "      if ([int]$env:nodejs_version.split(\".\")[0] -lt 4) {",
                "        npm install --silent --save-dev mocha@3.5.3",
                "      } elseif ([int]$env:nodejs_version.split(\".\")[0] -lt 6) {");

        Judgement j = HunkClassifier.classify("appveyor.yml", base, ours, theirs);

        assertThat(j.hunkClass()).isEqualTo(HunkClass.HUMAN);
        assertThat(j.proposed()).isNull();
    }

    /*
     * webpack/webpack, merge 272b9f2ac2c7314f98aef7fb45cd8290d620dbad, test/__snapshots__/StatsTestCases.basictest.js.snap,
     * hunk 4 (MIT License). Theirs left the line as in base and ours' change was proposed as one side equal to base;
     * the person kept base's line: a test snapshot is written by the test runner, not merged.
     */
    @Test
    void aTestSnapshotIsAGeneratedFile() {
        FileContext file = FileContext.of("test/__snapshots__/StatsTestCases.basictest.js.snap", List.of(), List.of(),
                List.of());

        Judgement j = HunkClassifier.classify(file, List.of("asset 52.mjs 358 bytes [emitted] [javascript module]"),
                List.of("asset 52.mjs 356 bytes [emitted] [javascript module]"),
                List.of("asset 52.mjs 358 bytes [emitted] [javascript module]"), List.of());

        assertThat(j.hunkClass()).isEqualTo(HunkClass.LOCKFILE);
    }

    /*
     * pallets/flask, merge daca74d93a0edc458e618136de7d14803f06bc28, src/flask/ctx.py, hunk 1 (BSD 3-Clause License). Theirs
     * left the lines as in base: ours' change is the proposal, safe and applied automatically; the person took it.
     */
    @Test
    void oneSideEqualToBaseIsSafeAndAppliesAutomatically() {
        List<String> base = List.of("            environ=self.request.environ,", "            request=self.request,");
        List<String> ours = List.of("            request=self._request,");

        Judgement j = HunkClassifier.classify("src/flask/ctx.py", base, ours, base);

        assertThat(j.hunkClass()).isEqualTo(HunkClass.ONE_SIDE_EQUALS_BASE);
        assertThat(j.hunkClass().appliesAutomatically()).isTrue();
        assertThat(j.proposed()).containsExactlyElementsOf(ours);
        assertThat(j.confidence()).isGreaterThan(0.9);
    }
}
