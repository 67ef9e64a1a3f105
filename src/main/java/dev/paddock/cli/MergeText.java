package dev.paddock.cli;

import dev.paddock.api.MergeView;
import java.util.List;

/** Plain-text table of merge queue entries for {@code paddock merge list}. */
final class MergeText {
    private MergeText() {}

    /**
     * One line per entry: id, position, state/step, attempts made (counting the one under way or that merged),
     * branch, elapsed ({@code MergeEntry#elapsed}: stops when the entry leaves running), result.
     */
    static String table(List<MergeView> list) {
        if (list.isEmpty()) {
            return "The merge queue is empty.\n";
        }
        StringBuilder b = new StringBuilder(String.format(
                "%-6s %-4s %-18s %-8s %-30s %-8s %s%n",
                "ID", "POS", "STATE", "ATTEMPTS", "BRANCH", "ELAPSED", "RESULT"));
        for (MergeView v : list) {
            b.append(String.format(
                    "%-6s %-4s %-18s %-8d %-30s %-8s %s%n",
                    "#" + v.id(),
                    v.position() == null
                            ? ""
                            : v.position() == 0 ? "now" : v.position().toString(),
                    v.state() + (v.step() == null ? "" : "/" + v.step()),
                    v.attemptsMade(),
                    v.branch(),
                    v.elapsedMs() == null ? "" : (v.elapsedMs() / 1000) + " s",
                    v.result() == null ? "" : v.result()));
        }
        return b.toString();
    }
}
