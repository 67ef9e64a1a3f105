package dev.paddock.merge.conflict;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Import-style lines (Java/Kotlin/Scala/Swift/Python/JS/TS {@code import}, Python {@code from x import y},
 * C# {@code using}, Rust and PHP {@code use}, C/C++ {@code #include}/{@code #import}, Ruby {@code require},
 * CommonJS {@code require(...)}, the quoted paths of a Go {@code import (...)} block) and their three-way
 * union (seed 000 §6.6.6: "both sides added imports in a different order: merge them alphabetically").
 */
final class ImportLines {
    private static final List<Pattern> IMPORT = List.of(
            Pattern.compile("^import\\s+(static\\s+)?[\\w.$*]+(\\s+as\\s+\\w+)?\\s*;?$"),
            Pattern.compile("^from\\s+[\\w.]+\\s+import\\s+[\\w., *]+$"),
            Pattern.compile("^import\\s+[\\w.]+(\\s+as\\s+\\w+)?(\\s*,\\s*[\\w.]+(\\s+as\\s+\\w+)?)*$"),
            Pattern.compile("^import\\s+(type\\s+)?([\\w$*{}, ]+(\\s+as\\s+\\w+)?\\s+from\\s+)?['\"][^'\"]+['\"]\\s*;?$"),
            Pattern.compile("^(export\\s+)?(const|let|var)\\s+[\\w${}, :]+\\s*=\\s*require\\(['\"][^'\"]+['\"]\\)\\s*;?$"),
            Pattern.compile("^using\\s+(static\\s+)?(\\w+\\s*=\\s*)?[\\w.]+\\s*;$"),
            Pattern.compile("^(pub(\\([^)]*\\))?\\s+)?use\\s+[\\w:{}, *\\\\]+(\\s+as\\s+\\w+)?\\s*;$"),
            Pattern.compile("^#\\s*(include|import)\\s*[<\"][^>\"]+[>\"]$"),
            Pattern.compile("^require(_relative)?\\s*\\(?\\s*['\"][^'\"]+['\"]\\s*\\)?$"));
    /** A path line inside a Go {@code import ( ... )} block: {@code "fmt"}, {@code alias "x/y"}, {@code _ "x"}. */
    private static final Pattern GO_BLOCK_LINE = Pattern.compile("^([\\w.]+\\s+)?\"[^\"]+\"$");

    private ImportLines() {
    }

    /** Whether a line (terminators removed) is an import-style line of the file at {@code path}. */
    static boolean isImport(String line, String path) {
        String t = line.strip();
        if (t.isEmpty()) {
            return false;
        }
        for (Pattern p : IMPORT) {
            if (p.matcher(t).matches()) {
                return true;
            }
        }
        return path.toLowerCase(Locale.ROOT).endsWith(".go") && GO_BLOCK_LINE.matcher(t).matches();
    }

    /** Whether every non-blank line of every side is an import line, and at least one line is. */
    static boolean allImports(String path, List<String> base, List<String> ours, List<String> theirs) {
        boolean any = false;
        for (List<String> side : List.of(base, ours, theirs)) {
            for (String line : side) {
                if (line.isBlank()) {
                    continue;
                }
                if (!isImport(line, path)) {
                    return false;
                }
                any = true;
            }
        }
        return any;
    }

    /**
     * The three-way union: a line stays when both sides have it or one side added it (not in base); a line
     * one side removed from base goes. Sorted by the statement without its indentation and {@code ;},
     * without duplicates. When ours separates groups with blank lines, a blank line separates groups
     * (the statement keyword and the first name segment, e.g. {@code import java}, {@code import static org}).
     */
    static List<String> union(List<String> base, List<String> ours, List<String> theirs) {
        Set<String> baseSet = keys(base);
        Set<String> oursSet = keys(ours);
        Set<String> theirsSet = keys(theirs);
        List<String> kept = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (List<String> side : List.of(ours, theirs)) {
            for (String line : side) {
                String k = key(line);
                if (line.isBlank() || !seen.add(k)) {
                    continue;
                }
                boolean inBoth = oursSet.contains(k) && theirsSet.contains(k);
                if (inBoth || !baseSet.contains(k)) {
                    kept.add(line);
                }
            }
        }
        kept.sort((a, b) -> key(a).compareTo(key(b)));
        boolean grouped = ours.stream().anyMatch(String::isBlank);
        List<String> out = new ArrayList<>();
        String group = null;
        for (String line : kept) {
            String g = group(line);
            if (grouped && group != null && !g.equals(group)) {
                out.add("");
            }
            out.add(line);
            group = g;
        }
        return out;
    }

    private static Set<String> keys(List<String> lines) {
        Set<String> keys = new LinkedHashSet<>();
        for (String l : lines) {
            if (!l.isBlank()) {
                keys.add(key(l));
            }
        }
        return keys;
    }

    /** The comparison key: the statement without indentation, trailing {@code ;} and runs of spaces. */
    private static String key(String line) {
        String t = line.strip().replaceAll("\\s+", " ");
        return t.endsWith(";") ? t.substring(0, t.length() - 1).strip() : t;
    }

    private static String group(String line) {
        String[] words = key(line).split(" ");
        int nameAt = words.length > 1 && words[1].equals("static") ? 2 : 1;
        String name = nameAt < words.length ? words[nameAt] : "";
        String first = name.split("[.:/\\\\]", 2)[0];
        return String.join(" ", java.util.Arrays.copyOf(words, Math.min(nameAt, words.length))) + " " + first;
    }
}
