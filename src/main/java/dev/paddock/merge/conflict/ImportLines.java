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
 * CommonJS {@code require(...)}, the quoted paths of a Go {@code import (...)} block) and their
 * line-level three-way merge ({@link #merge}).
 */
final class ImportLines {
    private static final List<Pattern> IMPORT = List.of(
            Pattern.compile("^import\\s+(static\\s+)?[\\w.$*]+(\\s+as\\s+\\w+)?\\s*;?$"),
            Pattern.compile("^from\\s+[\\w.]+\\s+import\\s+[\\w., *]+$"),
            Pattern.compile("^import\\s+[\\w.]+(\\s+as\\s+\\w+)?(\\s*,\\s*[\\w.]+(\\s+as\\s+\\w+)?)*$"),
            Pattern.compile(
                    "^import\\s+(type\\s+)?([\\w$*{}, ]+(\\s+as\\s+\\w+)?\\s+from\\s+)?['\"][^'\"]+['\"]\\s*;?$"),
            Pattern.compile(
                    "^(export\\s+)?(const|let|var)\\s+[\\w${}, :]+\\s*=\\s*require\\(['\"][^'\"]+['\"]\\)\\s*;?$"),
            Pattern.compile("^using\\s+(static\\s+)?(\\w+\\s*=\\s*)?[\\w.]+\\s*;$"),
            Pattern.compile("^(pub(\\([^)]*\\))?\\s+)?use\\s+[\\w:{}, *\\\\]+(\\s+as\\s+\\w+)?\\s*;$"),
            Pattern.compile("^#\\s*(include|import)\\s*[<\"][^>\"]+[>\"]$"),
            Pattern.compile("^require(_relative)?\\s*\\(?\\s*['\"][^'\"]+['\"]\\s*\\)?$"));
    /** A path line inside a Go {@code import ( ... )} block: {@code "fmt"}, {@code alias "x/y"}, {@code _ "x"}. */
    private static final Pattern GO_BLOCK_LINE = Pattern.compile("^([\\w.]+\\s+)?\"[^\"]+\"$");

    private ImportLines() {}

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
        return path.toLowerCase(Locale.ROOT).endsWith(".go")
                && GO_BLOCK_LINE.matcher(t).matches();
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
     * The line-level three-way merge of an import block.
     *
     * @param lines  the merged lines (ours' lines when not proven: one line of the two edits is kept, never both)
     * @param proven whether it is certain: no import both sides added for the same name or module (two edits of one
     *               import, which a person combines); otherwise the lines are only a suggestion
     * @param why    what was done, or why it is not certain, in words
     */
    record Merge(List<String> lines, boolean proven, String why) {}

    /**
     * Merges an import block line by line, keeping the file's order and grouping: ours' lines in ours' order, less
     * the imports theirs deleted from base; then each import theirs added (not in base, not in ours) goes in
     * sorted place when the block was sorted in base (two imports or more) and still is on both sides, else just
     * after the import it follows in theirs (before the one it precedes when it is theirs' first; last when
     * neither is kept). Where base has no import here (both sides inserted at one place), ours' lines come first,
     * then theirs' (with their blank-line groups). An import either side deleted stays deleted; no import appears twice.
     */
    static Merge merge(List<String> base, List<String> ours, List<String> theirs) {
        Set<String> baseSet = keys(base);
        Set<String> oursSet = keys(ours);
        Set<String> theirsSet = keys(theirs);
        List<String> out = new ArrayList<>();
        Set<String> present = new LinkedHashSet<>();
        for (String line : ours) {
            if (line.isBlank()) {
                out.add(line);
                continue;
            }
            String k = key(line);
            if ((baseSet.contains(k) && !theirsSet.contains(k)) || !present.add(k)) {
                continue; // theirs deleted it, or ours has it twice
            }
            out.add(line);
        }
        boolean together = baseSet.isEmpty(); // both inserted at one place: ours' lines, then theirs' (git's union)
        boolean sorted = base.stream().filter(l -> !l.isBlank()).count() >= 2
                && isSorted(base)
                && isSorted(ours)
                && isSorted(theirs);
        List<String> added = new ArrayList<>();
        for (int i = 0; i < theirs.size(); i++) {
            String line = theirs.get(i);
            if (together && line.isBlank()) {
                out.add(line);
                continue;
            }
            String k = key(line);
            if (line.isBlank() || baseSet.contains(k) || present.contains(k)) {
                continue;
            }
            int at = together ? out.size() : sorted ? sortedPlace(out, k) : anchoredPlace(out, theirs, i);
            out.add(at, line);
            present.add(k);
            added.add(k);
        }
        dropDoubleBlanks(out);
        Set<String> oursAdded = new LinkedHashSet<>(oursSet);
        oursAdded.removeAll(baseSet);
        for (String t : added) {
            for (String o : oursAdded) {
                if (target(o).equals(target(t))) {
                    return new Merge(
                            ours,
                            false,
                            "both sides added an import of " + target(t) + " (`" + o + "` and `" + t
                                    + "`), which a person combines");
                }
            }
        }
        return new Merge(
                out,
                true,
                "imports either side added are kept in the block's " + (sorted ? "sorted order" : "existing order")
                        + " and imports either side deleted stay deleted");
    }

    private static boolean isSorted(List<String> lines) {
        String prev = null;
        for (String l : lines) {
            if (l.isBlank()) {
                prev = null; // each blank-separated group is sorted on its own
                continue;
            }
            String k = key(l);
            if (prev != null && prev.compareTo(k) > 0) {
                return false;
            }
            prev = k;
        }
        return true;
    }

    /** After the last import sorting before {@code k} (so it joins that import's group), else first. */
    private static int sortedPlace(List<String> out, String k) {
        int at = -1;
        for (int i = 0; i < out.size(); i++) {
            if (!out.get(i).isBlank() && key(out.get(i)).compareTo(k) < 0) {
                at = i;
            }
        }
        if (at >= 0) {
            return at + 1;
        }
        for (int i = 0; i < out.size(); i++) {
            if (!out.get(i).isBlank()) {
                return i;
            }
        }
        return out.size();
    }

    /** Just after the import theirs has before line {@code i} (when kept), else before the one after it. */
    private static int anchoredPlace(List<String> out, List<String> theirs, int i) {
        for (int j = i - 1; j >= 0; j--) {
            int at = indexOfKey(out, theirs.get(j));
            if (at >= 0) {
                return at + 1;
            }
        }
        for (int j = i + 1; j < theirs.size(); j++) {
            int at = indexOfKey(out, theirs.get(j));
            if (at >= 0) {
                return at;
            }
        }
        return out.size();
    }

    private static int indexOfKey(List<String> out, String line) {
        if (line.isBlank()) {
            return -1;
        }
        String k = key(line);
        for (int i = 0; i < out.size(); i++) {
            if (!out.get(i).isBlank() && key(out.get(i)).equals(k)) {
                return i;
            }
        }
        return -1;
    }

    /** Blank lines left next to each other (or first) by deleted imports: one stays. */
    private static void dropDoubleBlanks(List<String> out) {
        for (int i = out.size() - 1; i > 0; i--) {
            if (out.get(i).isBlank() && out.get(i - 1).isBlank()) {
                out.remove(i);
            }
        }
    }

    /**
     * What an import brings in, to find two edits of one import: the module of a {@code from X import} or
     * JavaScript {@code from 'x'}, a Go or include path (a Go major-version suffix dropped), the path before the
     * braces of a Rust {@code use}, else the last name of a dotted import (Java's simple class name).
     */
    static String target(String key) {
        String k = key.replaceFirst("^(export\\s+)?", "");
        java.util.regex.Matcher q = Pattern.compile("['\"<]([^'\">]+)['\">]").matcher(k);
        if (q.find()) {
            return q.group(1).replaceFirst("/v\\d+$", "");
        }
        if (k.startsWith("from ")) {
            return k.split("\\s+")[1];
        }
        String[] words = k.split("\\s+");
        String name = words[words.length - 1];
        if (words.length >= 3 && words[words.length - 2].equals("as")) {
            name = words[words.length - 3];
        }
        int brace = name.indexOf('{');
        if (brace >= 0) {
            return name.substring(0, brace);
        }
        String[] parts = name.split("\\.|::");
        return parts.length == 0 ? name : parts[parts.length - 1];
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
}
