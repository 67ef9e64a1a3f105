package dev.paddock.merge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.events.Event;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Safe conflicts resolved by the queue itself (repository setting auto-resolve): real repositories, a real H2
 * store, the real classifier and test commands.
 */
class AutoResolveTest {
    private static final String PATH = "src/A.java";
    private static final String BASE = String.join("\n", "package shop;", "", "import java.util.List;",
            "import java.util.Map;", "", "class A {", "    List<String> items;", "    Map<String, Integer> counts;", "",
            "    int size() {", "        return items.size();", "    }", "", "    int total() {", "        int t = 0;",
            "        for (int c : counts.values()) {", "            t += c;", "        }", "        return t;", "    }",
            "", "    int add(int a, int b) {", "        return a + b;", "    }", "}", "");

    @TempDir
    Path tmp;
    MergeRig rig;
    Path testRan;

    @BeforeEach
    void setUp() throws Exception {
        rig = MergeRig.classified(tmp);
        rig.repo.commitFile(PATH, BASE, "Add A");
        testRan = tmp.resolve("test-ran");
    }

    @AfterEach
    void tearDown() {
        rig.close();
    }

    /**
     * Base gains {@code java.util.Optional}, the agent's branch {@code java.time.Instant} at the same place (a
     * conflict git cannot merge) plus a clean edit further down; returns the branch tip.
     */
    private String importConflict(String theirsExtra) {
        String theirs = BASE.replace("import java.util.Map;\n", "import java.util.Map;\nimport java.time.Instant;\n")
                .replace("return items.size();", "return items == null ? 0 : items.size();") + theirsExtra;
        String tip = rig.branch("agent/a", PATH, theirs);
        rig.repo.commitFile(PATH, BASE.replace("import java.util.Map;\n",
                "import java.util.Map;\nimport java.util.Optional;\n"), "Base imports Optional");
        return tip;
    }

    private void configure(String autoResolve, String testCommand) throws Exception {
        rig.service.configure(rig.repo.dir(), null, testCommand, 60_000L, 3, autoResolve);
    }

    @Test
    void anImportOnlyConflictWithApplyIsResolvedTestedAndMergedWithTwoParents() throws Exception {
        String tip = importConflict("");
        configure("apply", "touch " + testRan + " && grep -q 'import java.time.Instant;' " + PATH
                + " && grep -q 'import java.util.Optional;' " + PATH);
        String before = rig.main();
        MergeEntry e = rig.enqueue("agent/a");

        rig.drain();

        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).as(after.result()).isEqualTo(MergeState.MERGED);
        assertThat(rig.main()).isEqualTo(after.mergeCommit());
        assertThat(rig.repo.git("rev-list", "--parents", "-n", "1", "main").strip().split(" "))
                .containsExactly(after.mergeCommit(), before, tip);
        String merged = rig.repo.git("show", "main:" + PATH);
        assertThat(merged).as("the union of the imports, sorted, and the branch's clean edit kept").isEqualTo(BASE
                .replace("import java.util.Map;\n", "import java.util.Map;\nimport java.time.Instant;\nimport java.util.Optional;\n")
                .replace("return items.size();", "return items == null ? 0 : items.size();"));
        assertThat(testRan).as("the test command ran on the resolved merge").exists();
        List<MergeStore.StoredConflict> files = rig.store.conflicts(e.id());
        assertThat(files).extracting(MergeStore.StoredConflict::path, MergeStore.StoredConflict::resolvedBy)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(PATH, "paddock (auto: import_block)"));
        assertThat(rig.recent()).anyMatch(ev -> ev.kind().equals("merge.resolved")
                && ev.message().startsWith("paddock resolved automatically: import-block union in " + PATH));
        assertThat(rig.recent()).anyMatch(ev -> ev.kind().equals("merge.conflict")
                && ev.message().contains("resolved automatically (auto-resolve apply)"));
        assertThat(rig.kinds()).contains("merge.testing", "merge.merged");
        assertThat(MergeGit.worktreeOf(rig.repo.dir(), e.id())).doesNotExist();
    }

    @Test
    void withProposeTheSameConflictWaitsForAPersonWithItsProposal() throws Exception {
        importConflict("");
        rig.service.configure(rig.repo.dir(), null, "touch " + testRan, 60_000L, 3, null);
        assertThat(rig.store.settings(rig.repoId).autoResolve()).as("the default").isEqualTo(AutoResolveMode.PROPOSE);
        String before = rig.main();
        MergeEntry e = rig.enqueue("agent/a");

        rig.drain();

        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.CONFLICT);
        assertThat(rig.main()).as("base untouched").isEqualTo(before);
        assertThat(testRan).as("nothing was tested").doesNotExist();
        MergeStore.StoredConflict file = rig.store.conflicts(e.id()).get(0);
        assertThat(file.resolved()).isFalse();
        assertThat(file.conflictClass()).isEqualTo("import_block");
        JsonNode hunk = Json.mapper().readTree(file.hunksJson()).get(0);
        assertThat(hunk.get("proposed").toString()).isEqualTo("[\"import java.time.Instant;\",\"import java.util.Optional;\"]");
        assertThat(Files.readString(after.worktree().resolve(PATH))).as("nothing applied").contains("<<<<<<<");
        assertThat(rig.kinds()).doesNotContain("merge.resolved");
    }

    @Test
    void aFileWithOneSafeAndOneHumanHunkIsNotTouchedEvenWithApply() throws Exception {
        rig.branch("agent/a", PATH, BASE.replace("import java.util.Map;\n",
                "import java.util.Map;\nimport java.time.Instant;\n").replace("return a + b;", "return b + a;"));
        rig.repo.commitFile(PATH, BASE.replace("import java.util.Map;\n", "import java.util.Map;\nimport java.util.Optional;\n")
                .replace("return a + b;", "return Math.addExact(a, b);"), "imports and add on main");
        configure("apply", "touch " + testRan);
        String before = rig.main();
        MergeEntry e = rig.enqueue("agent/a");

        rig.drain();

        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.CONFLICT);
        assertThat(rig.main()).isEqualTo(before);
        assertThat(testRan).doesNotExist();
        MergeStore.StoredConflict file = rig.store.conflicts(e.id()).get(0);
        assertThat(file.conflictClass()).isEqualTo("human");
        assertThat(Json.mapper().readTree(file.hunksJson()).findValuesAsText("hunkClass"))
                .as("one safe hunk and one for a person").containsExactly("IMPORT_BLOCK", "HUMAN");
        assertThat(file.resolved()).isFalse();
        String inWorktree = Files.readString(after.worktree().resolve(PATH));
        assertThat(inWorktree).as("not even the safe hunk was applied").contains("<<<<<<<")
                .doesNotContain("import java.time.Instant;\nimport java.util.Optional;");
        assertThat(rig.kinds()).doesNotContain("merge.resolved");
        Event conflict = rig.recent().stream().filter(ev -> ev.kind().equals("merge.conflict")).findFirst().orElseThrow();
        assertThat(conflict.message()).contains("not resolved automatically: hunk 2 of " + PATH + " needs a person");
    }

    @Test
    void whenTheTestFailsAfterAnAutomaticResolutionTheEntryGoesBackToTheConflictQueue() throws Exception {
        importConflict("");
        configure("apply", "touch " + testRan + "; exit 1");
        String before = rig.main();
        MergeEntry e = rig.enqueue("agent/a");

        rig.drain();

        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.CONFLICT);
        assertThat(after.result()).contains("exit");
        assertThat(testRan).exists();
        assertThat(rig.main()).as("base untouched").isEqualTo(before);
        assertThat(after.worktree()).isDirectory();
        assertThat(Files.readString(after.worktree().resolve(PATH))).as("the resolution kept for a person")
                .contains("import java.time.Instant;\nimport java.util.Optional;\n").doesNotContain("<<<<<<<");
        assertThat(rig.store.conflicts(e.id()).get(0).resolvedBy()).isEqualTo("paddock (auto: import_block)");
        assertThat(rig.recent()).anyMatch(ev -> ev.kind().equals("merge.failed")
                && ev.message().contains("could not be finished after its conflicts were resolved"));
    }

    @Test
    void aBadAutoResolveValueIsRefusedNamingTheAllowedOnesAndChangesNothing() throws Exception {
        configure("apply", "true");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> rig.service.configure(rig.repo.dir(), "rebase",
                        "false", 5_000L, 1, "always"))
                .isInstanceOf(MergeException.class).hasMessageContaining("\"always\"")
                .hasMessageContaining("propose").hasMessageContaining("apply");
        MergeSettings s = rig.store.settings(rig.repoId);
        assertThat(s.autoResolve()).isEqualTo(AutoResolveMode.APPLY);
        assertThat(s.strategy()).isEqualTo(MergeStrategy.MERGE);
        assertThat(s.testCommand()).isEqualTo("true");
        List<Event> changes = rig.recent().stream().filter(ev -> ev.kind().equals("setting.changed")).toList();
        assertThat(changes).extracting(Event::message).anyMatch(m -> m.startsWith("Merge setting auto-resolve of ")
                && m.endsWith("propose → apply"));
    }

    @Test
    void aSafeConflictInAFileThatIsNotUtf8IsLeftToAPerson() throws Exception {
        java.nio.charset.Charset latin1 = java.nio.charset.StandardCharsets.ISO_8859_1;
        String base = "// D\u00e9j\u00e0 vu\n" + BASE;
        rig.repo.commitFile(PATH, "", "placeholder");
        Files.write(rig.repo.dir().resolve(PATH), base.getBytes(latin1));
        dev.paddock.testing.TempRepo.commitAll(rig.repo.dir(), "A in Latin-1");
        rig.repo.git("branch", "agent/a", "main");
        Path wt = rig.repo.addWorktreeOnBranch(rig.repo.dir().resolve(".worktrees").resolve("agent-a"), "agent/a");
        Files.write(wt.resolve(PATH), base.replace("import java.util.Map;\n", "import java.util.Map;\nimport java.time.Instant;\n")
                .getBytes(latin1));
        dev.paddock.testing.TempRepo.commitAll(wt, "Instant on agent/a");
        Files.write(rig.repo.dir().resolve(PATH), base.replace("import java.util.Map;\n",
                "import java.util.Map;\nimport java.util.Optional;\n").getBytes(latin1));
        dev.paddock.testing.TempRepo.commitAll(rig.repo.dir(), "Optional on main");
        configure("apply", "touch " + testRan);
        String before = rig.main();
        MergeEntry e = rig.enqueue("agent/a");

        rig.drain();

        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.CONFLICT);
        assertThat(rig.main()).isEqualTo(before);
        assertThat(testRan).doesNotExist();
        assertThat(rig.store.conflicts(e.id()).get(0).conflictClass()).as("safe, but not written as UTF-8")
                .isEqualTo("import_block");
        assertThat(rig.recent()).anyMatch(ev -> ev.kind().equals("merge.conflict")
                && ev.message().contains(PATH + " is not UTF-8 text"));
        assertThat(Files.readAllBytes(after.worktree().resolve(PATH))).as("bytes untouched").contains(0xE9);
    }
}
