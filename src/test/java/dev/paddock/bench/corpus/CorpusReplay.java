package dev.paddock.bench.corpus;

import dev.paddock.merge.conflict.ConflictClassifier;
import dev.paddock.merge.conflict.ConflictFile;
import dev.paddock.merge.conflict.ConflictHunk;
import dev.paddock.merge.conflict.ConflictReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Replays every corpus row through Paddock's classifier (the whole merge re-done on the mirror, as the merge
 * queue does) and through the two {@link Baselines}, comparing each proposal with what the person who made the
 * merge committed (line for line, exact). Prints, per class: hunks, proposals, correct, wrong, left to a person,
 * and the baselines on the same rows.
 */
public final class CorpusReplay {
    /** What one tool did with one hunk. */
    public enum Verdict {
        CORRECT,
        WRONG,
        LEFT;

        public static Verdict of(List<String> proposal, List<String> human) {
            return proposal == null ? LEFT : proposal.equals(human) ? CORRECT : WRONG;
        }
    }

    /**
     * One row's outcome.
     *
     * @param row        the row
     * @param hunkClass  the class the classifier gave it
     * @param paddock    the classifier's safe proposal against the human's text
     * @param suggestion the classifier's first suggestion (safe proposal or a person's suggestion)
     * @param confidence the classifier's confidence in its first suggestion
     * @param kdiff3     kdiff3 --auto against the human's text
     * @param git        git merge -X ignore-space-change against the human's text
     */
    public record Outcome(
            CorpusRow row,
            String hunkClass,
            Verdict paddock,
            Verdict suggestion,
            double confidence,
            Verdict kdiff3,
            Verdict git) {}

    /** The outcomes, and the rows the classifier no longer finds (the corpus needs building again). */
    public record Result(List<Outcome> outcomes, List<CorpusRow> unmatched) {}

    private CorpusReplay() {}

    /** The rows of the corpus file in the test resources. */
    public static List<CorpusRow> corpus(Path file) throws java.io.IOException {
        return CorpusRow.parseAll(Files.readAllLines(file, StandardCharsets.UTF_8));
    }

    /**
     * Replays the rows.
     *
     * @param baselines whether to run kdiff3 and git too
     * @param work      a scratch folder for the baselines
     */
    public static Result replay(List<CorpusRow> rows, CorpusTexts texts, boolean baselines, Path work)
            throws Exception {
        Map<String, List<CorpusRow>> byMerge = new LinkedHashMap<>();
        rows.forEach(r -> byMerge.computeIfAbsent(r.repo() + " " + r.merge(), k -> new ArrayList<>())
                .add(r));
        List<CorpusRow> kept = new ArrayList<>();
        List<ConflictHunk> hunks = new ArrayList<>();
        List<CorpusRow> unmatched = new ArrayList<>();
        ConflictClassifier classifier = new ConflictClassifier();
        for (List<CorpusRow> merge : byMerge.values()) {
            CorpusRow first = merge.get(0);
            ConflictReport report = classifier.classify(texts.gitDir(first.repo()), first.ours(), first.theirs());
            for (CorpusRow r : merge) {
                ConflictHunk h = find(report, r);
                if (h == null) {
                    unmatched.add(r);
                } else {
                    kept.add(r);
                    hunks.add(h);
                }
            }
        }
        List<Baselines.Sides> sides = new ArrayList<>();
        List<List<String>> human = new ArrayList<>();
        for (CorpusRow r : kept) {
            List<List<String>> t = texts.hunk(r);
            sides.add(new Baselines.Sides(t.get(0), t.get(1), t.get(2)));
            human.add(t.get(3));
        }
        List<List<String>> kdiff3 = baselines ? Baselines.kdiff3(sides, work) : null;
        List<List<String>> git = baselines ? Baselines.gitIgnoreSpaceChange(sides, work) : null;
        List<Outcome> out = new ArrayList<>();
        for (int i = 0; i < kept.size(); i++) {
            ConflictHunk h = hunks.get(i);
            List<String> safe = Proposals.safe(h);
            out.add(new Outcome(
                    kept.get(i),
                    h.hunkClass().id(),
                    Verdict.of(safe, human.get(i)),
                    Verdict.of(Proposals.first(h), human.get(i)),
                    Proposals.confidence(h),
                    baselines ? Verdict.of(kdiff3.get(i), human.get(i)) : Verdict.LEFT,
                    baselines ? Verdict.of(git.get(i), human.get(i)) : Verdict.LEFT));
        }
        return new Result(out, unmatched);
    }

    private static ConflictHunk find(ConflictReport report, CorpusRow r) {
        for (ConflictFile f : report.files()) {
            if (!f.path().equals(r.path())) {
                continue;
            }
            for (ConflictHunk h : f.hunks()) {
                if (h.base().start() == r.baseStart()
                        && h.base().end() == r.baseEnd()
                        && h.ours().start() == r.oursStart()
                        && h.ours().end() == r.oursEnd()
                        && h.theirs().start() == r.theirsStart()
                        && h.theirs().end() == r.theirsEnd()) {
                    return h;
                }
            }
        }
        return null;
    }

    /** Counts of one tool over some rows. */
    record Tally(int hunks, int proposals, int correct, int wrong, int left) {
        static Tally of(List<Outcome> rows, java.util.function.Function<Outcome, Verdict> tool) {
            int c = 0;
            int w = 0;
            int l = 0;
            for (Outcome o : rows) {
                switch (tool.apply(o)) {
                    case CORRECT -> c++;
                    case WRONG -> w++;
                    case LEFT -> l++;
                }
            }
            return new Tally(rows.size(), c + w, c, w, l);
        }

        String precision() {
            return proposals == 0 ? "-" : String.format("%.1f%%", 100.0 * correct / proposals);
        }

        String cells() {
            return String.format("%5d %5d %5d %5d %7s", proposals, correct, wrong, left, precision());
        }
    }

    /** The report: per class, per family, totals. */
    public static String table(Result result, boolean baselines) {
        List<Outcome> all = result.outcomes();
        StringBuilder s = new StringBuilder();
        String head = String.format(
                "%-22s %5s | %-37s | %-37s",
                "group",
                "hunks",
                "paddock safe: prop  ok  wrong  left  prec",
                "paddock first suggestion: prop ok wrong");
        if (baselines) {
            head += String.format(
                    " | %-37s | %-37s", "kdiff3 --auto: prop ok wrong left prec", "git -X ignore-space-change: same");
        }
        s.append(head).append('\n');
        Map<String, List<Outcome>> groups = new TreeMap<>();
        for (Outcome o : all) {
            groups.computeIfAbsent("class " + o.hunkClass(), k -> new ArrayList<>())
                    .add(o);
        }
        Map<String, List<Outcome>> families = new TreeMap<>();
        for (Outcome o : all) {
            families.computeIfAbsent("family " + o.row().family(), k -> new ArrayList<>())
                    .add(o);
        }
        Map<String, List<Outcome>> repos = new TreeMap<>();
        for (Outcome o : all) {
            repos.computeIfAbsent("repo " + o.row().repo(), k -> new ArrayList<>())
                    .add(o);
        }
        Map<String, List<Outcome>> confidence = new TreeMap<>();
        for (Outcome o : all) {
            confidence
                    .computeIfAbsent(String.format("confidence %.2f", o.confidence()), k -> new ArrayList<>())
                    .add(o);
        }
        for (Map<String, List<Outcome>> m : List.of(groups, confidence, families, repos, Map.of("all", all))) {
            for (Map.Entry<String, List<Outcome>> e : m.entrySet()) {
                s.append(line(e.getKey(), e.getValue(), baselines)).append('\n');
            }
        }
        if (!result.unmatched().isEmpty()) {
            s.append(result.unmatched().size()).append(" corpus rows not found in the classifier's report\n");
        }
        return s.toString();
    }

    private static String line(String name, List<Outcome> rows, boolean baselines) {
        String l = String.format(
                "%-22s %5d | %s | %s",
                name.length() > 22 ? name.substring(0, 22) : name,
                rows.size(),
                pad(Tally.of(rows, Outcome::paddock).cells()),
                pad(Tally.of(rows, Outcome::suggestion).cells()));
        if (baselines) {
            l += " | " + pad(Tally.of(rows, Outcome::kdiff3).cells()) + " | "
                    + pad(Tally.of(rows, Outcome::git).cells());
        }
        return l;
    }

    private static String pad(String s) {
        return String.format("%-37s", s);
    }

    /** Per-row outcomes as tab-separated lines (for looking into a class). */
    public static List<String> rows(Result result) {
        List<String> out = new ArrayList<>();
        out.add("id\tclass\tpaddock\tsuggestion\tconfidence\tkdiff3\tgit");
        for (Outcome o : result.outcomes()) {
            out.add(String.join(
                    "\t",
                    o.row().id(),
                    o.hunkClass(),
                    o.paddock().name(),
                    o.suggestion().name(),
                    String.format("%.2f", o.confidence()),
                    o.kdiff3().name(),
                    o.git().name()));
        }
        return out;
    }

    /** Runs the replay from the command line: {@code CorpusReplay CORPUS.tsv WORK [--no-baselines]}. */
    public static void main(String[] args) throws Exception {
        List<CorpusRow> rows = corpus(Path.of(args[0]));
        boolean baselines = !(args.length > 2 && args[2].equals("--no-baselines"));
        try (CorpusTexts texts = new CorpusTexts(CorpusTexts.mirrorsFolder())) {
            Result r = replay(rows, texts, baselines, Path.of(args[1]));
            System.out.println(table(r, baselines));
            Files.write(Path.of(args[1]).resolve("rows.tsv"), rows(r), StandardCharsets.UTF_8);
        }
    }
}
