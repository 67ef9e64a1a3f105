package dev.paddock.merge.conflict;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import org.eclipse.jgit.diff.EditList;

/**
 * Judges one conflict hunk from its base, ours and theirs lines and its file's {@link FileContext}. A hunk is
 * safe only when its proposal is what a careful person would write with near certainty
 * (docs/decisions/0010-what-safe-means-for-a-conflict-hunk.md); tried in order: a lockfile or generated file
 * ({@link HunkClass#LOCKFILE}, never merged as text), the same change on both sides, one side equal to base,
 * whitespace-only differences that the side which reformatted the file or the file's dominant style decides, an
 * import block that merges line by line, and edits of the two sides with an untouched line between them.
 * Anything else is {@link HunkClass#HUMAN} with a suggestion ranked first ({@link Suggestions}); so is a would-be
 * safe hunk whose changed lines touch a method signature or a lock/release pair ({@link RiskyLines}). Every
 * judgement carries a confidence ({@link Confidence}) and its reason in words. Pure logic; thread-safe.
 */
public final class HunkClassifier {
    /** Files whose indentation carries meaning: a whitespace-only difference there is not safe at the start of a line. */
    private static final Pattern INDENT_SIGNIFICANT = Pattern.compile(
            "(?i).*(\\.(py|pyi|pyw|yaml|yml|haml|pug|sass|coffee|nim|fs|mk|mak)|(^|/)(makefile|gnumakefile))$");

    /**
     * A hunk's judgement.
     *
     * @param hunkClass  the class
     * @param proposed   the lines to replace the hunk with; {@code null} unless the class is safe
     * @param why        the reason, in words: why this class, and what the proposal or suggestion does
     * @param suggested  the resolution ranked first (the proposal when safe); null when there is none
     * @param confidence how likely {@code suggested} is what a careful person writes, 0 to 1
     */
    public record Judgement(
            HunkClass hunkClass, List<String> proposed, String why, List<String> suggested, double confidence) {
        static Judgement safe(HunkClass c, List<String> lines, String why) {
            return new Judgement(c, lines, why, lines, Confidence.of(c));
        }
    }

    private HunkClassifier() {}

    /**
     * Judges a hunk of the file at {@code path} known by its path alone (the path picks language rules: Go import
     * blocks, indentation in Python/YAML/Makefiles, lockfiles). Lines are without terminators.
     */
    public static Judgement classify(String path, List<String> base, List<String> ours, List<String> theirs) {
        return classify(FileContext.of(path), base, ours, theirs, List.of());
    }

    /**
     * Judges a hunk, also reading its file's context and the lines of ours just above the hunk ({@code above},
     * nearest last): a hunk inside a signature's open parameter list is a person's decision.
     */
    public static Judgement classify(
            FileContext file, List<String> base, List<String> ours, List<String> theirs, List<String> above) {
        if (file.generated()) {
            return lockfile(file.path());
        }
        EditList oursEdits = LineEdits.diff(base, ours);
        EditList theirsEdits = LineEdits.diff(base, theirs);
        Judgement j = judge(file, base, ours, theirs, oursEdits, theirsEdits);
        Optional<String> risk =
                risk(base, ours, theirs, oursEdits, theirsEdits).or(() -> RiskyLines.openSignature(above));
        if (risk.isEmpty()) {
            return j;
        }
        String why = j.hunkClass().isSafe()
                ? "Would be " + j.hunkClass().id().replace('_', ' ') + ", but " + risk.get() + ", so a person decides."
                        + " Suggested: " + lower(j.why())
                : j.why() + " It also " + risk.get().replaceFirst("^it ", "") + ".";
        return new Judgement(HunkClass.HUMAN, null, why, j.suggested(), Math.min(j.confidence(), Confidence.RISKY));
    }

    /** A file of {@code bytes} bytes on its largest side, too large to compare line by line: a person's, whole. */
    static Judgement tooLarge(long bytes) {
        return new Judgement(
                HunkClass.HUMAN,
                null,
                String.format(
                        java.util.Locale.ROOT,
                        "The file is %.1f MB on a"
                                + " side, too large to compare line by line here, so the whole file is one conflict for a person"
                                + " (git's own merge found the conflict).",
                        bytes / 1_048_576.0),
                null,
                0.0);
    }

    private static Judgement lockfile(String path) {
        String usual =
                Lockfiles.usualCommand(path).map(c -> " (usually `" + c + "`)").orElse("");
        return new Judgement(
                HunkClass.LOCKFILE,
                null,
                "A lockfile or generated file is never merged as text: take"
                        + " ours' whole file and regenerate it with the repository's command" + usual + ".",
                null,
                Confidence.of(HunkClass.LOCKFILE));
    }

    private static Judgement judge(
            FileContext file,
            List<String> base,
            List<String> ours,
            List<String> theirs,
            EditList oursEdits,
            EditList theirsEdits) {
        if (ours.equals(theirs)) {
            return Judgement.safe(HunkClass.IDENTICAL, ours, "Both sides made the same change, so it is kept once.");
        }
        if ((ours.equals(base) || theirs.equals(base)) && base.isEmpty()) {
            boolean oursAdds = !ours.isEmpty();
            return new Judgement(
                    HunkClass.HUMAN,
                    null,
                    "Only " + (oursAdds ? "ours" : "theirs") + " inserts lines"
                            + " here, but the other side changed the lines right next to them, which may make them wrong."
                            + " Suggested: " + (oursAdds ? "ours" : "theirs") + "' insertion.",
                    oursAdds ? ours : theirs,
                    Confidence.LONE_INSERTION);
        }
        if (ours.equals(base)) {
            return Judgement.safe(
                    HunkClass.ONE_SIDE_EQUALS_BASE,
                    theirs,
                    "Ours left these lines as in base, so theirs' change is taken.");
        }
        if (theirs.equals(base)) {
            return Judgement.safe(
                    HunkClass.ONE_SIDE_EQUALS_BASE,
                    ours,
                    "Theirs left these lines as in base, so ours' change is kept.");
        }
        if (sameIgnoringWhitespace(file.path(), ours, theirs)) {
            return whitespace(file, ours, theirs);
        }
        if (sameIgnoringWhitespace(file.path(), ours, base) != sameIgnoringWhitespace(file.path(), theirs, base)) {
            boolean oursReal = sameIgnoringWhitespace(file.path(), theirs, base);
            return new Judgement(
                    HunkClass.HUMAN,
                    null,
                    (oursReal ? "Theirs" : "Ours") + " only changed whitespace"
                            + " here and " + (oursReal ? "ours" : "theirs")
                            + " changed the text, which a person may want"
                            + " reformatted. Suggested: " + (oursReal ? "ours" : "theirs") + ".",
                    oursReal ? ours : theirs,
                    Confidence.WHITESPACE_AGAINST_CHANGE);
        }
        if (ImportLines.allImports(file.path(), base, ours, theirs)) {
            ImportLines.Merge m = ImportLines.merge(base, ours, theirs);
            return new Judgement(
                    HunkClass.IMPORT_BLOCK,
                    null,
                    "Only import lines changed; people often also drop"
                            + " or keep imports for reasons outside the block, so a person decides"
                            + (m.proven() ? "" : " (" + m.why() + ")") + ". Suggested: the line-by-line merge: "
                            + m.why().replace(", which a person combines", "") + ".",
                    m.lines(),
                    m.proven() ? Confidence.IMPORT_SUGGESTION : Confidence.IMPORT_CLASH);
        }
        EditList theirsOwn = LineEdits.notIn(theirs, theirsEdits, ours, oursEdits);
        if (theirsOwn.size() < theirsEdits.size()) {
            EditList oursOwn = LineEdits.notIn(ours, oursEdits, theirs, theirsEdits);
            List<String> merged = LineEdits.separated(oursEdits, theirsOwn) && LineEdits.separated(oursOwn, theirsEdits)
                    ? LineEdits.applyBoth(base, ours, oursEdits, theirs, theirsOwn)
                    : null;
            if (merged != null && LineEdits.duplicated(merged, ours, theirs).isEmpty()) {
                int shared = theirsEdits.size() - theirsOwn.size();
                return Judgement.safe(
                        HunkClass.NON_OVERLAPPING,
                        merged,
                        "Both sides made " + shared + " change(s)"
                                + " identically, kept once; the other changes (" + oursOwn.size() + " in ours, "
                                + theirsOwn.size()
                                + " in theirs) have an unchanged line between every change of one side and"
                                + " of the other, so all are applied.");
            }
        }
        if (!LineEdits.anyOverlap(oursEdits, theirsEdits)) {
            List<String> both = LineEdits.applyBoth(base, ours, oursEdits, theirs, theirsEdits);
            boolean separated = LineEdits.separated(oursEdits, theirsEdits);
            Optional<String> twice = LineEdits.duplicated(both, ours, theirs);
            if (separated && twice.isPresent()) {
                return Suggestions.addedTwice(twice.get(), both);
            }
            if (separated) {
                return Judgement.safe(
                        HunkClass.NON_OVERLAPPING,
                        both,
                        "The sides changed different base lines ("
                                + oursEdits.size() + " edit(s) in ours, " + theirsEdits.size() + " in theirs) with an"
                                + " unchanged line between every edit of one side and of the other, so both are applied.");
            }
            return Suggestions.adjacent(base, ours, theirs, both);
        }
        return Suggestions.overlapping(base, ours, theirs);
    }

    /**
     * Sides equal but for whitespace: the side that reformatted the whole file (its indentation or trailing
     * whitespace moved away from base's while the other side's did not) decides, else the side whose lines fit the
     * file's dominant style when the other side's do not; otherwise a person decides.
     */
    private static Judgement whitespace(FileContext file, List<String> ours, List<String> theirs) {
        boolean oursMoved = file.ours().reformatted(file.base());
        boolean theirsMoved = file.theirs().reformatted(file.base());
        if (oursMoved != theirsMoved) {
            return Judgement.safe(
                    HunkClass.WHITESPACE_ONLY,
                    oursMoved ? ours : theirs,
                    "The sides differ only in"
                            + " whitespace and " + (oursMoved ? "ours" : "theirs") + " reformatted the whole file, so "
                            + (oursMoved ? "ours'" : "theirs'") + " formatting is kept.");
        }
        int oursBad = file.base().misfits(ours);
        int theirsBad = file.base().misfits(theirs);
        if ((oursBad == 0) != (theirsBad == 0)) {
            boolean takeOurs = oursBad == 0;
            return Judgement.safe(
                    HunkClass.WHITESPACE_ONLY,
                    takeOurs ? ours : theirs,
                    "The sides differ only in"
                            + " whitespace and only " + (takeOurs ? "ours'" : "theirs'") + " lines follow the file's"
                            + " indentation and trailing-space style, so they are kept.");
        }
        return new Judgement(
                HunkClass.HUMAN,
                null,
                "The sides differ only in whitespace, and neither the file's"
                        + " style nor a reformatting of the whole file tells which to keep. Suggested: ours.",
                ours,
                Confidence.WHITESPACE_UNDECIDED);
    }

    private static String lower(String s) {
        return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }

    /** The first risky changed line (signature or lock): added lines (ours, then theirs) before removed base lines. */
    private static Optional<String> risk(
            List<String> base, List<String> ours, List<String> theirs, EditList oursEdits, EditList theirsEdits) {
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
        boolean indent =
                INDENT_SIGNIFICANT.matcher(path.toLowerCase(Locale.ROOT)).matches();
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
                out.add(stripped.substring(
                                0, stripped.length() - stripped.stripLeading().length())
                        + body);
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
