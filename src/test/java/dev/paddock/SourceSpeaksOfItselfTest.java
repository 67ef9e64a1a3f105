package dev.paddock;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Code, comments and docs speak of this repository alone: no text under {@code src/main}, {@code src/test},
 * {@code docs}, {@code README.md} or {@code pom.xml} cites a document that is not in it (a planning brief,
 * "seed" articles, {@code STACK.md}, {@code CONVENTIONS.md}, a {@code ../shared} folder, or numbered issues of a
 * private tracker). Such text states the fact itself or links a decision record in {@code docs/decisions/}.
 * Links to public issue trackers ({@code https://github.com/.../issues/N}) are fine: they do not match.
 *
 * <p>Left out: this file (it has to name what it looks for), binary files, and the exact lines of test input listed
 * in {@link #TEST_INPUT}. The Flyway migrations are in: Flyway checksums their whole text, so an applied one is not
 * edited, even in a comment, without {@code store.Migrations} taking its old checksum too (as it does for V1).
 */
class SourceSpeaksOfItselfTest {
    /** What a citation of an outside document looks like. */
    private static final Pattern CITATION = Pattern.compile(String.join(
            "|",
            "BRIEF",
            "[Bb]rief\\b",
            "[Ss]eed [0-9]",
            "seeds/",
            "STACK\\.md",
            "CONVENTIONS\\.md",
            "[Ii]ssue [0-9]+",
            "\\.\\./shared",
            "[Tt]he issue's",
            "\\bissue \""));

    private static final List<String> ROOTS = List.of("src/main", "src/test", "docs", "README.md", "pom.xml");

    private static final Path SELF = Path.of("src/test/java/dev/paddock/SourceSpeaksOfItselfTest.java");

    /** Lines (trimmed) that match only because they are a test's input, by file. */
    private static final Map<Path, Set<String>> TEST_INPUT = Map.of(
            Path.of("src/test/java/dev/paddock/policy/PolicyRuleSyntaxTest.java"),
            Set.of("Read(../shared/**)   | /shared/x         | true"));

    @Test
    void noFileCitesADocumentOutsideTheRepository() throws IOException {
        Path root = Path.of("").toAbsolutePath();
        assertThat(root.resolve("src/main/java/dev/paddock"))
                .as("run from the project's root")
                .isDirectory();
        List<String> found = new ArrayList<>();
        for (String start : ROOTS) {
            Path top = root.resolve(start);
            if (!Files.exists(top)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(top)) {
                files.filter(Files::isRegularFile)
                        .map(root::relativize)
                        .filter(p -> !p.equals(SELF))
                        .sorted()
                        .forEach(p -> found.addAll(citations(root, p)));
            }
        }
        assertThat(found)
                .as("state the fact or link a decision record in docs/decisions/ instead of citing an outside"
                        + " document (file:line: text)")
                .isEmpty();
    }

    @Test
    void thePatternFindsEachKindOfCitationAndSparesPublicIssueLinks() {
        assertThat(List.of(
                        "(BRIEF \"Zombies\")",
                        "the brief says",
                        "seed 000 §6.7.5",
                        "see STACK.md",
                        "CONVENTIONS.md",
                        "issue 6",
                        "Issue 3's benchmark",
                        "../shared/x",
                        "The issue's check",
                        "(issue \"The queue view\")"))
                .allMatch(s -> CITATION.matcher(s).find());
        assertThat(List.of(
                        "https://github.com/anthropics/claude-code/issues/4956",
                        "a directory briefly gone",
                        "-Dpaddock.bench.seed=7",
                        "StackPane",
                        "gh issue view"))
                .noneMatch(s -> CITATION.matcher(s).find());
    }

    private static List<String> citations(Path root, Path file) {
        Optional<String> text = utf8(root.resolve(file));
        if (text.isEmpty()) {
            return List.of();
        }
        Set<String> allowed = TEST_INPUT.getOrDefault(file, Set.of());
        List<String> out = new ArrayList<>();
        String[] lines = text.get().split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (CITATION.matcher(line).find() && !allowed.contains(line.trim())) {
                out.add(file + ":" + (i + 1) + ": " + line.trim());
            }
        }
        return out;
    }

    /** The file's text, or empty when it is not UTF-8 text (an image, an archive). */
    private static Optional<String> utf8(Path file) {
        try {
            byte[] bytes = Files.readAllBytes(file);
            return Optional.of(StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
