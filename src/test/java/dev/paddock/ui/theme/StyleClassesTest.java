package dev.paddock.ui.theme;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Views and style sheets agree on Paddock's style class names through {@link Style}: a rule of a sheet names a
 * class a view can set, a view sets no class by a literal name of its own, and no constant is left unused.
 */
class StyleClassesTest {
    private static final Path SHEETS = Path.of("src/main/resources/dev/paddock/ui");
    private static final Path CODE = Path.of("src/main/java/dev/paddock");
    private static final Path STYLE = CODE.resolve("ui/theme/Style.java");
    private static final Pattern SELECTOR = Pattern.compile("\\.(pd-[a-z0-9-]+)");
    private static final Pattern LITERAL = Pattern.compile("\"pd-[a-z0-9-]*\"");

    /** Style's constants by name. */
    private static Map<String, String> constants() {
        return Stream.of(Style.class.getDeclaredFields())
                .filter(f -> Modifier.isStatic(f.getModifiers()) && f.getType() == String.class)
                .collect(Collectors.toMap(Field::getName, StyleClassesTest::value));
    }

    private static String value(Field f) {
        try {
            return (String) f.get(null);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    private static List<Path> files(Path top, String suffix) throws IOException {
        assertThat(top).as("run from the project's root").isDirectory();
        try (Stream<Path> all = Files.walk(top)) {
            return all.filter(p -> p.toString().endsWith(suffix)).sorted().toList();
        }
    }

    @Test
    void everyClassASheetStylesIsAConstantOrStartsWithAPrefix() throws IOException {
        Map<String, String> constants = constants();
        List<String> prefixes = constants.entrySet().stream()
                .filter(e -> e.getKey().endsWith("_PREFIX"))
                .map(Map.Entry::getValue)
                .toList();
        TreeSet<String> unknown = new TreeSet<>();
        int seen = 0;
        for (Path sheet : files(SHEETS, ".css")) {
            Matcher m = SELECTOR.matcher(Files.readString(sheet));
            while (m.find()) {
                seen++;
                String name = m.group(1);
                if (!constants.containsValue(name) && prefixes.stream().noneMatch(name::startsWith)) {
                    unknown.add(sheet.getFileName() + ": ." + name);
                }
            }
        }
        assertThat(seen).as("the sheets' pd- selectors").isGreaterThan(100);
        assertThat(unknown)
                .as("rules for classes no view can set (a typo, or a rule left behind)")
                .isEmpty();
    }

    @Test
    void noViewNamesAStyleClassByALiteralOfItsOwn() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path source : files(CODE, ".java")) {
            if (source.equals(STYLE)) {
                continue;
            }
            List<String> lines = Files.readAllLines(source);
            for (int i = 0; i < lines.size(); i++) {
                if (LITERAL.matcher(lines.get(i)).find()) {
                    found.add(source + ":" + (i + 1) + ": " + lines.get(i).strip());
                }
            }
        }
        assertThat(found)
                .as("pd- class names written out instead of a Style constant")
                .isEmpty();
    }

    @Test
    void everyConstantIsUsed() throws IOException {
        StringBuilder code = new StringBuilder();
        for (Path source : files(CODE, ".java")) {
            if (!source.equals(STYLE)) {
                code.append(Files.readString(source)).append('\n');
            }
        }
        List<String> unused = constants().keySet().stream()
                .sorted()
                .filter(name -> !Pattern.compile("\\bStyle\\." + name + "\\b")
                        .matcher(code)
                        .find())
                .toList();
        assertThat(unused).as("constants no view uses").isEmpty();
    }
}
