package dev.paddock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.cli.StatusCommandTest.Run;
import dev.paddock.testing.MergeScenario;
import dev.paddock.testing.TempRepo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code paddock conflicts classify}, run in-process through {@code Paddock.run} on real repositories. */
class ConflictsCommandTest {
    @TempDir
    Path tmp;

    private static final String JAVA_BASE = String.join(
            "\n",
            "package shop;",
            "",
            "import java.util.List;",
            "",
            "class Cart {",
            "    int total() {",
            "        return 0;",
            "    }",
            "}",
            "");

    private MergeScenario scenario() {
        return MergeScenario.in(tmp)
                .file(
                        "src/Cart.java",
                        JAVA_BASE,
                        JAVA_BASE
                                .replace("import java.util.List;", "import java.util.List;\nimport java.util.Map;")
                                .replace("return 0;", "return 1;"),
                        JAVA_BASE
                                .replace("import java.util.List;", "import java.util.List;\nimport java.io.File;")
                                .replace("return 0;", "return 2;"))
                .file("old.txt", "x\n", null, "y\n")
                .file("same.txt", "a\n", "a\nb\n", "a\nb\n")
                .build();
    }

    private Run classify(Path repo, String... revisions) {
        List<String> args = new ArrayList<>(
                List.of("--home", tmp.resolve("home").toString(), "conflicts", "classify", "--repo", repo.toString()));
        args.addAll(List.of(revisions));
        return StatusCommandTest.paddock(args.toArray(String[]::new));
    }

    @Test
    void printsEachConflictedFileWithClassifiedHunksAsJson() throws Exception {
        MergeScenario m = scenario();

        Run run = classify(m.dir(), "main", "agent");

        assertThat(run.exit()).as(run.describe()).isZero();
        assertThat(run.err()).isEmpty();
        JsonNode r = run.json();
        assertThat(r.get("lineNumbers").asText()).startsWith("1-based, inclusive");
        assertThat(r.get("ours").asText()).isEqualTo(m.repo().head());
        assertThat(r.get("theirs").asText()).isEqualTo(TempRepo.revParse(m.dir(), "agent"));
        assertThat(r.get("base").asText()).isEqualTo(TempRepo.revParse(m.dir(), "main~1"));
        assertThat(r.get("clean").asBoolean()).isFalse();
        assertThat(r.get("allSafe").asBoolean()).isFalse();
        JsonNode files = r.get("files");
        assertThat(files).hasSize(2);
        assertThat(files.get(0).get("path").asText()).isEqualTo("old.txt");
        assertThat(files.get(0).get("kind").asText()).isEqualTo("delete_modify");
        assertThat(files.get(0).get("needsHuman").asBoolean()).isTrue();
        assertThat(files.get(0).get("hunks")).isEmpty();

        JsonNode cart = files.get(1);
        assertThat(cart.get("path").asText()).isEqualTo("src/Cart.java");
        assertThat(cart.get("kind").asText()).isEqualTo("content");
        JsonNode imports = cart.get("hunks").get(0);
        assertThat(imports.get("class").asText()).isEqualTo("import_block");
        assertThat(imports.get("safe").asBoolean()).isFalse();
        assertThat(imports.get("autoApply").asBoolean()).isFalse();
        assertThat(imports.get("confidence").asDouble()).isBetween(0.01, 0.99);
        // "import java.util.List;" is line 3 of every side; each side added one line after it, at line 4.
        assertThat(imports.at("/ours/start").asInt()).isEqualTo(4);
        assertThat(imports.at("/ours/end").asInt()).isEqualTo(4);
        assertThat(imports.at("/ours/count").asInt()).isEqualTo(1);
        assertThat(imports.at("/base/count").asInt()).isZero();
        assertThat(imports.at("/base/start").asInt()).isEqualTo(4);
        assertThat(imports.at("/base/end").asInt()).isEqualTo(3);
        assertThat(imports.get("proposed").isNull()).isTrue();
        // both sides inserted at one place: ours' import, then theirs', as suggestion
        assertThat(imports.get("suggested")).hasSize(2);
        assertThat(imports.get("suggested").get(0).asText())
                .isEqualTo(imports.get("oursLines").get(0).asText());
        assertThat(imports.get("suggested").get(1).asText())
                .isEqualTo(imports.get("theirsLines").get(0).asText());

        JsonNode body = cart.get("hunks").get(1);
        assertThat(body.get("class").asText()).isEqualTo("human");
        assertThat(body.get("safe").asBoolean()).isFalse();
        assertThat(body.get("proposed").isNull()).isTrue();
        assertThat(body.get("why").asText()).contains("Suggested: ours");
        assertThat(body.get("suggested").get(0).asText()).isEqualTo("        return 1;");
        assertThat(body.at("/base/start").asInt()).isEqualTo(7);
        assertThat(body.at("/base/end").asInt()).isEqualTo(7);
        assertThat(body.at("/ours/start").asInt()).isEqualTo(8);
        assertThat(body.at("/theirs/end").asInt()).isEqualTo(8);
        assertThat(body.get("oursLines").get(0).asText()).isEqualTo("        return 1;");
        assertThat(body.get("theirsLines").get(0).asText()).isEqualTo("        return 2;");
        assertThat(body.get("baseLines").get(0).asText()).isEqualTo("        return 0;");
    }

    @Test
    void neverChangesTheRepository() {
        MergeScenario m = scenario();
        TempRepo.write(m.dir(), "notes.txt", "uncommitted");
        MergeScenario.State before = m.state();

        Run run = classify(m.dir(), "main", "agent");

        assertThat(run.exit()).as(run.describe()).isZero();
        assertThat(m.state()).isEqualTo(before);
    }

    @Test
    void aCleanMergePrintsAnEmptyReport() throws Exception {
        MergeScenario m = MergeScenario.in(tmp)
                .file("a.txt", "a\nb\nc\n", "A\nb\nc\n", "a\nb\nC\n")
                .build();

        Run run = classify(m.dir(), "main", "agent");

        assertThat(run.exit()).as(run.describe()).isZero();
        assertThat(run.json().get("clean").asBoolean()).isTrue();
        assertThat(run.json().get("files")).isEmpty();
    }

    @Test
    void unknownRevisionsAndNonRepositoriesExitWithTwoAndSayWhy() throws Exception {
        MergeScenario m = scenario();

        Run unknown = classify(m.dir(), "main", "agent/nope");
        Run notARepo = classify(java.nio.file.Files.createDirectories(tmp.resolve("plain")), "main", "agent");
        Run missingArgument = classify(m.dir(), "main");

        assertThat(unknown.exit()).as(unknown.describe()).isEqualTo(2);
        assertThat(unknown.out()).isEmpty();
        assertThat(unknown.err()).contains("paddock: unknown revision \"agent/nope\" for theirs");
        assertThat(notARepo.exit()).as(notARepo.describe()).isEqualTo(2);
        assertThat(notARepo.err()).contains("is not a git repository");
        assertThat(missingArgument.exit()).isEqualTo(2);
        assertThat(missingArgument.err()).contains("THEIRS");
    }
}
