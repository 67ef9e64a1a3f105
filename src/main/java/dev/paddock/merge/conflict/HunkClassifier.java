package dev.paddock.merge.conflict;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import org.eclipse.jgit.diff.EditList;

/**
 * Judges one conflict hunk from its base, ours and theirs lines (issue 6; seed 000 §6.6.6). Tried in order:
 * identical change on both sides, one side equal to base, whitespace/format-only, import-block union,
 * non-overlapping edits; otherwise {@link HunkClass#HUMAN}. A hunk whose changed lines touch a method
 * signature or a lock/release pair ({@link RiskyLines}) is {@link HunkClass#HUMAN} even when otherwise safe.
 * Pure logic; thread-safe.
 */
public final class HunkClassifier {
    /** Files whose indentation carries meaning: a whitespace-only difference there is not safe at the start of a line. */
    private static final Pattern INDENT_SIGNIFICANT = Pattern.compile(
            "(?i).*(\\.(py|pyi|pyw|yaml|yml|haml|pug|sass|coffee|nim|fs|mk|mak)|(^|/)(makefile|gnumakefile))$");

    /**
     * A hunk's judgement.
     *
     * @param hunkClass the class
     * @param proposed  the lines to replace the hunk with; {@code null} for {@link HunkClass#HUMAN}
     * @param why       one sentence for people
     */
    public record Judgement(HunkClass hunkClass, List<String> proposed, String why) {
    }

    private HunkClassifier() {
    }

    /**
     * Judges a hunk of the file at {@code path} (the path picks language rules: Go import blocks, indentation
     * in Python/YAML/Makefiles). Lines are without terminators.
     */
    public static Judgement classify(String path, List<String> base, List<String> ours, List<String> theirs) {
        return classify(path, base, ours, theirs, List.of());
    }

    /**
     * Like {@link #classify(String, List, List, List)}, also reading the lines of ours just above the hunk
     * ({@code above}, nearest last): a hunk inside a signature's open parameter list is a person's decision.
     */
    public static Judgement classify(String path, List<String> base, List<String> ours, List<String> theirs,
                                     List<String> above) {
        EditList oursEdits = LineEdits.diff(base, ours);
        EditList theirsEdits = LineEdits.diff(base, theirs);
        Judgement safe = safeJudgement(path, base, ours, theirs, oursEdits, theirsEdits);
        Optional<String> risk = risk(base, ours, theirs, oursEdits, theirsEdits)
                .or(() -> RiskyLines.openSignature(above));
        if (safe != null && risk.isEmpty()) {
            return safe;
        }
        if (safe != null) {
            return new Judgement(HunkClass.HUMAN, null, "Would be " + safe.hunkClass().id().replace('_', ' ')
                    + ", but " + risk.get() + ", so a person decides.");
        }
        return new Judgement(HunkClass.HUMAN, null, "Both sides changed the same lines differently"
                + risk.map(r -> " and " + r).orElse("") + ".");
    }

    private static Judgement safeJudgement(String path, List<String> base, List<String> ours, List<String> theirs,
                                           EditList oursEdits, EditList theirsEdits) {
        if (ours.equals(theirs)) {
            return new Judgement(HunkClass.IDENTICAL, ours, "Both sides made the same change.");
        }
        if (ours.equals(base)) {
            return new Judgement(HunkClass.ONE_SIDE_EQUALS_BASE, theirs,
                    "Ours left these lines as in base, so theirs' change is taken.");
        }
        if (theirs.equals(base)) {
            return new Judgement(HunkClass.ONE_SIDE_EQUALS_BASE, ours,
                    "Theirs left these lines as in base, so ours' change is kept.");
        }
        if (sameIgnoringWhitespace(path, ours, theirs)) {
            return new Judgement(HunkClass.WHITESPACE_ONLY, ours,
                    "The sides differ only in whitespace or line breaks, so ours' formatting (the base branch's) is kept.");
        }
        if (ImportLines.allImports(path, base, ours, theirs)) {
            return new Judgement(HunkClass.IMPORT_BLOCK, ImportLines.union(base, ours, theirs),
                    "Only import lines changed, so the sorted union of both sides' imports resolves it.");
        }
        if (!LineEdits.anyOverlap(oursEdits, theirsEdits)) {
            return new Judgement(HunkClass.NON_OVERLAPPING,
                    LineEdits.applyBoth(base, ours, oursEdits, theirs, theirsEdits),
                    "The sides changed different base lines (" + oursEdits.size() + " edit(s) in ours, "
                            + theirsEdits.size() + " in theirs), so both changes are applied.");
        }
        return null;
    }

    /** The first risky changed line (signature or lock): added lines (ours, then theirs) before removed base lines. */
    private static Optional<String> risk(List<String> base, List<String> ours, List<String> theirs,
                                         EditList oursEdits, EditList theirsEdits) {
        List<String> touched = new ArrayList<>(LineEdits.added(ours, oursEdits));
        touched.addAll(LineEdits.added(theirs, theirsEdits));
        touched.addAll(LineEdits.removed(base, oursEdits));
        touched.addAll(LineEdits.removed(base, theirsEdits));
        for (String line : touched) {
            Optional<String> r = RiskyLines.reason(line);
            if (r.isPresent()) {
                return r;
            }
        }
        return Optional.empty();
    }

    /**
     * Whether two sides are equal once whitespace is normalised: trailing whitespace dropped, runs of spaces
     * and tabs read as one space, blank lines ignored, and (except where indentation matters) line breaks and
     * indentation ignored.
     */
    static boolean sameIgnoringWhitespace(String path, List<String> a, List<String> b) {
        boolean indent = INDENT_SIGNIFICANT.matcher(path.toLowerCase(Locale.ROOT)).matches();
        return normalise(a, indent).equals(normalise(b, indent));
    }

    private static List<String> normalise(List<String> lines, boolean keepIndent) {
        List<String> out = new ArrayList<>();
        StringBuilder joined = new StringBuilder();
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            String stripped = line.stripTrailing();
            String body = stripped.strip().replaceAll("[ \\t]+", " ");
            if (keepIndent) {
                out.add(stripped.substring(0, stripped.length() - stripped.stripLeading().length()) + body);
            } else {
                joined.append(joined.length() == 0 ? "" : " ").append(body);
            }
        }
        if (!keepIndent) {
            out.add(joined.toString());
        }
        return out;
    }
}
