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
        List<String> theirs = List.of(
                "import org.mockito.exceptions.misusing.PotentialStubbingProblem;",
                "import org.mockito.exceptions.misusing.UnnecessaryStubbingException;",
                "import org.mockito.internal.InternalMockHandler;");

        Judgement j = HunkClassifier.classify("src/main/java/org/mockito/Mockito.java", base, ours, theirs);

        assertThat(j.hunkClass()).isEqualTo(HunkClass.IMPORT_BLOCK);
        assertThat(j.proposed()).isNull();
        assertThat(j.suggested())
                .containsExactly(
                        "import org.mockito.exceptions.misusing.PotentialStubbingProblem;",
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

        assertThat(j.suggested())
                .containsExactly(
                        "import java.util.Map;",
                        "import java.util.List;",
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
        FileContext file = FileContext.of(
                "docs/changes.md",
                List.of("# Changes", "", "```{eval-rst}"),
                List.of("# Changes", ""),
                List.of("# Changes", "", ""));

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
        List<String> base = List.of(
                "      if ([int]$env:nodejs_version.split(\".\")[0] -lt 4) {",
                "        npm install --silent --save-dev mocha@3.5.3",
                "      } elseif ([int]$env:nodejs_version.split(\".\")[0] -lt 6) {");
        List<String> ours = List.of("      if ([int]$env:nodejs_version.split(\".\")[0] -lt 6) {");
        List<String> theirs = List.of(
                "      # - use 9.x for Node.js < 14",
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
        FileContext file =
                FileContext.of("test/__snapshots__/StatsTestCases.basictest.js.snap", List.of(), List.of(), List.of());

        Judgement j = HunkClassifier.classify(
                file,
                List.of("asset 52.mjs 358 bytes [emitted] [javascript module]"),
                List.of("asset 52.mjs 356 bytes [emitted] [javascript module]"),
                List.of("asset 52.mjs 358 bytes [emitted] [javascript module]"),
                List.of());

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

    /*
     * spring-projects/spring-session, merge 8f25c620ec96e1599128a63d90d1fc52577d90ea, gradle/libs.versions.toml,
     * hunk 0 (corpus row spring-projects+spring-session@8f25c620ec96:gradle/libs.versions.toml#0; Apache License
     * 2.0). Ours bumped one version line, theirs the next one: a line-level merge would take both bumps, as kdiff3
     * does, but the person kept ours' lines (theirs' bump was not wanted on this branch). Edits of neighbouring lines
     * stay a person's decision, with both bumps only suggested (such suggestions matched 26 of 50 corpus hunks).
     */
    @Test
    void neighbouringVersionBumpsOfTheTwoSidesAreOnlySuggested() {
        List<String> base = List.of(
                "org-junit-junit-bom = \"org.junit:junit-bom:5.12.1\"",
                "org-mariadb-jdbc-mariadb-java-client = \"org.mariadb.jdbc:mariadb-java-client:3.5.7\"");
        List<String> ours = List.of("org-junit-junit-bom = \"org.junit:junit-bom:6.0.0\"", base.get(1));
        List<String> theirs = List.of(
                base.get(0), "org-mariadb-jdbc-mariadb-java-client = \"org.mariadb.jdbc:mariadb-java-client:3.5.8\"");

        Judgement j = HunkClassifier.classify("gradle/libs.versions.toml", base, ours, theirs);

        assertThat(j.hunkClass()).isEqualTo(HunkClass.HUMAN);
        assertThat(j.proposed()).isNull();
        assertThat(j.suggested()).containsExactly(ours.get(0), theirs.get(1));
        assertThat(j.why()).contains("neighbouring lines");
        assertThat(j.confidence()).isLessThan(0.6);
    }

    /*
     * mockito/mockito, merge a41555013e1f19a7f95e364b6abbc027aeaff5da, src/main/java/org/mockito/AdditionalAnswers.java,
     * hunk 0 (corpus row mockito+mockito@a41555013e1f:src/main/java/org/mockito/AdditionalAnswers.java#0; MIT
     * License). Both sides added the same method; JGit's merge leaves ours' two extra javadoc lines as a hunk with
     * no base line and nothing from theirs. Taking the insertion (what kdiff3 and git do) is wrong: the person kept
     * only the "@since" line. A lone insertion next to the other side's change is only suggested.
     */
    @Test
    void aLoneInsertionInsideLinesBothSidesAddedIsOnlySuggested() {
        List<String> ours = List.of("     *", "     * @since 2.8.44");

        Judgement j =
                HunkClassifier.classify("src/main/java/org/mockito/AdditionalAnswers.java", List.of(), ours, List.of());

        assertThat(j.hunkClass()).isEqualTo(HunkClass.HUMAN);
        assertThat(j.proposed()).isNull();
        assertThat(j.suggested()).containsExactlyElementsOf(ours);
        assertThat(j.why()).contains("Only ours inserts lines");
    }

    /*
     * projectlombok/lombok, merge 4dc5c32d6b47264b5c8abb6fdf24077eec5aa7e7,
     * src/core/lombok/javac/handlers/HandleBuilder.java, hunk 1 (corpus row
     * projectlombok+lombok@4dc5c32d6b47:src/core/lombok/javac/handlers/HandleBuilder.java#1; MIT License). Ours only
     * emptied two whitespace-only lines, theirs changed the code line between them. Taking the side that changed the
     * text (git -X ignore-space-change) loses ours' whitespace, which the person kept: they merged the two line by
     * line. Neither side's whitespace is proven right, so a person decides.
     */
    @Test
    void oneSideChangingOnlyWhitespaceNextToTheOthersChangeIsAPersonsDecision() {
        String code = "\t\tString setterName = fluent ? fieldNode.getName() : HandlerUtil.buildAccessorName(\"set\","
                + " fieldNode.getName());";
        String changed =
                "\t\tString setterName = fluent ? paramName.toString() : HandlerUtil.buildAccessorName(\"set\","
                        + " paramName.toString());";
        List<String> base = List.of("\t\t", code, "\t\t");
        List<String> ours = List.of("", code, "");
        List<String> theirs = List.of("\t\t", changed, "\t\t");

        Judgement j = HunkClassifier.classify("src/core/lombok/javac/handlers/HandleBuilder.java", base, ours, theirs);

        assertThat(j.hunkClass()).isEqualTo(HunkClass.HUMAN);
        assertThat(j.proposed()).isNull();
        assertThat(j.why()).contains("Ours only changed whitespace");
    }
}
