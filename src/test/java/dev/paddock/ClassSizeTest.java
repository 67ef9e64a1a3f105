package dev.paddock;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No source file under {@code src/main} is longer than {@value #MAX_LINES} lines. A class that grows past it holds
 * more than one concern: move one into a class of its own (as {@code IsolationServices} and {@code ChangeServices}
 * were moved out of {@code Wiring}) rather than raising the limit.
 */
class ClassSizeTest {
    static final int MAX_LINES = 500;

    @Test
    void noMainSourceFileIsOver500Lines() throws IOException {
        List<String> tooLong;
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            tooLong = files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> lines(p) > MAX_LINES)
                    .map(p -> p + " (" + lines(p) + " lines)")
                    .sorted()
                    .toList();
        }
        assertThat(tooLong).as("source files over " + MAX_LINES + " lines").isEmpty();
    }

    private static long lines(Path p) {
        try (Stream<String> s = Files.lines(p)) {
            return s.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
