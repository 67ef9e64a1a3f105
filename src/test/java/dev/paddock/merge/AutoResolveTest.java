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
    private static final String BASE = String.join(
            "\n",
            "package shop;",
            "",
            "import java.util.List;",
            "import java.util.Map;",
            "",
            "class A {",
            "    List<String> items;",
            "    Map<String, Integer> counts;",
            "",
            "    int size() {",
            "        return items.size();",
            "    }",
            "",
            "    int total() {",
            "        int t = 0;",
            "        for (int c : counts.values()) {",
            "            t += c;",
            "        }",
            "        return t;",
            "    }",
            "",
            "    int add(int a, int b) {",
            "        return a + b;",
            "    }",
            "}",
            "");

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
                        .replace("return items.size();", "return items == null ? 0 : items.size();")
                + theirsExtra;
        String tip = rig.branch("agent/a", PATH, theirs);
        rig.repo.commitFile(
                PATH,
                BASE.replace("import java.util.Map;\n", "import java.util.Map;\nimport java.util.Optional;\n"),
                "Base imports Optional");
        return tip;
    }

    private void configure(String autoResolve, String testCommand) throws Exception {
        rig.service.configure(rig.repo.dir(), null, testCommand, 60_000L, 3, autoResolve);
    }

    private static final String LOCK = "package-lock.json";
    private static final String LOCK_BASE =
            "{\n  \"name\": \"shop\",\n  \"version\": \"1.0.0\",\n" + "  \"lockfileVersion\": 3\n}\n";
    private static final String REGENERATE = "echo regenerated >> " + LOCK;

    /** Base and the agent's branch each change the lockfile's version line (a conflict); returns the branch tip. */
    private String lockfileConflict() {
        rig.repo.commitFile(LOCK, LOCK_BASE, "Add the lockfile");
        String tip = rig.branch("agent/a", LOCK, LOCK_BASE.replace("1.0.0", "1.1.0"));
        rig.repo.commitFile(LOCK, LOCK_BASE.replace("1.0.0", "2.0.0"), "Base bumps the version");
        return tip;
    }

    private Event conflictEvent() throws Exception {
        return rig.recent().stream()
                .filter(ev -> ev.kind().equals("merge.conflict"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aLockfileConflictWithApplyIsRegeneratedTestedAndMergedWithTwoParents() throws Exception {
        String tip = lockfileConflict();
        configure("apply", "touch " + testRan + " && grep -q regenerated " + LOCK);
        rig.service.regenerate(rig.repo.dir(), LOCK, REGENERATE);
        String before = rig.main();
        MergeEntry e = rig.enqueue("agent/a");

        rig.drain();

        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).as(after.attempt().result()).isEqualTo(MergeState.MERGED);
        assertThat(rig.repo
                        .git("rev-list", "--parents", "-n", "1", "main")
                        .strip()
                        .split(" "))
                .containsExactly(after.attempt().mergeCommit(), before, tip);
        assertThat(rig.repo.git("show", "main:" + LOCK))
                .as("ours' lockfile, regenerated, never a text merge")
                .isEqualTo(LOCK_BASE.replace("1.0.0", "2.0.0") + "regenerated\n");
        assertThat(testRan).as("the test command ran on the resolved merge").exists();
        assertThat(rig.store.conflicts(e.id()))
                .extracting(MergeStore.StoredConflict::path, MergeStore.StoredConflict::resolvedBy)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(LOCK, "paddock (auto: lockfile)"));
        assertThat(rig.recent())
                .anyMatch(ev -> ev.kind().equals("merge.resolved")
                        && ev.message().contains("regenerated with `" + REGENERATE + "`"));
        assertThat(conflictEvent().message()).contains("merged only if the tests pass (auto-resolve apply)");
        assertThat(rig.kinds()).contains("merge.testing", "merge.merged");
    }

    @Test
    void withApplyButNoTestCommandNothingIsAppliedAutomatically() throws Exception {
        lockfileConflict();
        configure("apply", "");
        rig.service.regenerate(rig.repo.dir(), LOCK, REGENERATE);
        String before = rig.main();
        MergeEntry e = rig.enqueue("agent/a");

        rig.drain();

        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.CONFLICT);
        assertThat(rig.main()).isEqualTo(before);
        assertThat(rig.store.conflicts(e.id()).get(0).resolved()).isFalse();
        assertThat(Files.readString(after.attempt().worktree().resolve(LOCK)))
                .as("nothing run, nothing written")
                .contains("<<<<<<<")
                .doesNotContain("regenerated");
        assertThat(conflictEvent().message()).contains("no test command is set");
    }

    @Test
    void aLockfileWithoutARegenerateCommandWaitsForAPerson() throws Exception {
        lockfileConflict();
        configure("apply", "touch " + testRan);
        MergeEntry e = rig.enqueue("agent/a");

        rig.drain();

        assertThat(rig.entry(e.id()).state()).isEqualTo(MergeState.CONFLICT);
        assertThat(testRan).doesNotExist();
        assertThat(rig.store.conflicts(e.id()).get(0).conflictClass()).isEqualTo("lockfile");
        assertThat(conflictEvent().message())
                .contains(LOCK + " is a lockfile or generated file and no regenerate"
                        + " command is set for it (paddock merge config --regenerate '" + LOCK + "=COMMAND')");
    }

    @Test
    void anImportOnlyConflictWithApplyWaitsForAPersonWithTheSuggestion() throws Exception {
        importConflict("");
        configure("apply", "touch " + testRan);
        String before = rig.main();
        MergeEntry e = rig.enqueue("agent/a");

        rig.drain();

        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.CONFLICT);
        assertThat(rig.main()).isEqualTo(before);
        assertThat(testRan).doesNotExist();
        assertThat(Files.readString(after.attempt().worktree().resolve(PATH))).contains("<<<<<<<");
        assertThat(conflictEvent().message())
                .contains("not resolved automatically: hunk 1 of " + PATH + " needs a person");
    }

    @Test
    void withProposeTheSameConflictWaitsForAPersonWithItsSuggestion() throws Exception {
        importConflict("");
        rig.service.configure(rig.repo.dir(), null, "touch " + testRan, 60_000L, 3, null);
        assertThat(rig.store.settings(rig.repoId).autoResolve())
                .as("the default")
                .isEqualTo(AutoResolveMode.PROPOSE);
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
        assertThat(hunk.get("proposed").isNull()).isTrue();
        assertThat(hunk.get("suggested").toString())
                .isEqualTo("[\"import java.util.Optional;\",\"import java.time.Instant;\"]");
        assertThat(hunk.get("confidence").asDouble()).isBetween(0.01, 0.99);
        assertThat(Files.readString(after.attempt().worktree().resolve(PATH)))
                .as("nothing applied")
                .contains("<<<<<<<");
        assertThat(rig.kinds()).doesNotContain("merge.resolved");
    }

    @Test
    void aFileWithOneSafeAndOneHumanHunkIsNotTouchedEvenWithApply() throws Exception {
        rig.branch(
                "agent/a",
                PATH,
                BASE.replace("import java.util.Map;\n", "import java.util.Map;\nimport java.time.Instant;\n")
                        .replace("return a + b;", "return b + a;"));
        rig.repo.commitFile(
                PATH,
                BASE.replace("import java.util.Map;\n", "import java.util.Map;\nimport java.util.Optional;\n")
                        .replace("return a + b;", "return Math.addExact(a, b);"),
                "imports and add on main");
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
                .as("an import block and a hunk for a person")
                .containsExactly("IMPORT_BLOCK", "HUMAN");
        assertThat(file.resolved()).isFalse();
        String inWorktree = Files.readString(after.attempt().worktree().resolve(PATH));
        assertThat(inWorktree)
                .as("not even the import hunk was applied")
                .contains("<<<<<<<")
                .doesNotContain("import java.time.Instant;\nimport java.util.Optional;");
        assertThat(rig.kinds()).doesNotContain("merge.resolved");
        Event conflict = rig.recent().stream()
                .filter(ev -> ev.kind().equals("merge.conflict"))
                .findFirst()
                .orElseThrow();
        assertThat(conflict.message()).contains("not resolved automatically: hunk 1 of " + PATH + " needs a person");
    }

    @Test
    void whenTheTestFailsAfterAnAutomaticResolutionTheEntryGoesBackToTheConflictQueue() throws Exception {
        lockfileConflict();
        configure("apply", "touch " + testRan + "; exit 1");
        rig.service.regenerate(rig.repo.dir(), LOCK, REGENERATE);
        String before = rig.main();
        MergeEntry e = rig.enqueue("agent/a");

        rig.drain();

        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.CONFLICT);
        assertThat(after.attempt().result()).contains("exit");
        assertThat(testRan).exists();
        assertThat(rig.main()).as("base untouched").isEqualTo(before);
        assertThat(after.attempt().worktree()).isDirectory();
        assertThat(Files.readString(after.attempt().worktree().resolve(LOCK)))
                .as("the resolution kept for a person")
                .isEqualTo(LOCK_BASE.replace("1.0.0", "2.0.0") + "regenerated\n");
        assertThat(rig.store.conflicts(e.id()).get(0).resolvedBy()).isEqualTo("paddock (auto: lockfile)");
        assertThat(rig.recent())
                .anyMatch(ev -> ev.kind().equals("merge.failed")
                        && ev.message().contains("could not be finished after its conflicts were resolved"));
    }

    @Test
    void aBadAutoResolveValueIsRefusedNamingTheAllowedOnesAndChangesNothing() throws Exception {
        configure("apply", "true");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> rig.service.configure(rig.repo.dir(), "rebase", "false", 5_000L, 1, "always"))
                .isInstanceOf(MergeException.class)
                .hasMessageContaining("\"always\"")
                .hasMessageContaining("propose")
                .hasMessageContaining("apply");
        MergeSettings s = rig.store.settings(rig.repoId);
        assertThat(s.autoResolve()).isEqualTo(AutoResolveMode.APPLY);
        assertThat(s.strategy()).isEqualTo(MergeStrategy.MERGE);
        assertThat(s.testCommand()).isEqualTo("true");
        List<Event> changes = rig.recent().stream()
                .filter(ev -> ev.kind().equals("setting.changed"))
                .toList();
        assertThat(changes)
                .extracting(Event::message)
                .anyMatch(m -> m.startsWith("Merge setting auto-resolve of ") && m.endsWith("propose → apply"));
    }

    @Test
    void aLockfileThatIsNotUtf8IsLeftToAPerson() throws Exception {
        java.nio.charset.Charset latin1 = java.nio.charset.StandardCharsets.ISO_8859_1;
        String base = LOCK_BASE.replace("shop", "caf\u00e9");
        Files.write(rig.repo.dir().resolve(LOCK), base.getBytes(latin1));
        dev.paddock.testing.TempRepo.commitAll(rig.repo.dir(), "Lockfile in Latin-1");
        rig.repo.git("branch", "agent/a", "main");
        Path wt = rig.repo.addWorktreeOnBranch(
                rig.repo.dir().resolve(".worktrees").resolve("agent-a"), "agent/a");
        Files.write(wt.resolve(LOCK), base.replace("1.0.0", "1.1.0").getBytes(latin1));
        dev.paddock.testing.TempRepo.commitAll(wt, "1.1.0 on agent/a");
        Files.write(rig.repo.dir().resolve(LOCK), base.replace("1.0.0", "2.0.0").getBytes(latin1));
        dev.paddock.testing.TempRepo.commitAll(rig.repo.dir(), "2.0.0 on main");
        configure("apply", "touch " + testRan);
        rig.service.regenerate(rig.repo.dir(), LOCK, REGENERATE);
        String before = rig.main();
        MergeEntry e = rig.enqueue("agent/a");

        rig.drain();

        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.CONFLICT);
        assertThat(rig.main()).isEqualTo(before);
        assertThat(testRan).doesNotExist();
        assertThat(rig.store.conflicts(e.id()).get(0).conflictClass()).isEqualTo("lockfile");
        assertThat(rig.recent())
                .anyMatch(
                        ev -> ev.kind().equals("merge.conflict") && ev.message().contains(LOCK + " is not UTF-8 text"));
        assertThat(Files.readAllBytes(after.attempt().worktree().resolve(LOCK)))
                .as("bytes untouched")
                .contains(0xE9);
    }

    @Test
    void regenerateCommandsAreStoredPerFileAndBadFilesAreRefused() throws Exception {
        rig.service.regenerate(rig.repo.dir(), "yarn.lock", "yarn install --mode update-lockfile");
        rig.service.regenerate(rig.repo.dir(), LOCK, REGENERATE);
        rig.service.regenerate(rig.repo.dir(), "yarn.lock", " ");

        assertThat(rig.service.regenerateCommands(rig.repo.dir()))
                .containsExactly(java.util.Map.entry(LOCK, REGENERATE));
        for (String bad : List.of("", "/etc/passwd", "../x.lock", "a/../../b.lock")) {
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> rig.service.regenerate(rig.repo.dir(), bad, "true"))
                    .as(bad)
                    .isInstanceOf(MergeException.class)
                    .hasMessageContaining("FILE=COMMAND");
        }
        assertThat(rig.recent())
                .anyMatch(ev -> ev.kind().equals("setting.changed")
                        && ev.message().contains("regenerate " + LOCK)
                        && ev.message().endsWith("→ " + REGENERATE));
    }
}
