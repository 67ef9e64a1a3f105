package dev.paddock.compare;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The columns of a comparison, with the text of each cell: one table for {@code paddock sandbox compare} and the
 * panel's Compare view. A figure that is not known is "–".
 */
public final class ComparisonColumns {
    /** What is not known. */
    public static final String UNKNOWN = "–";

    /**
     * One column.
     *
     * @param header its name in the CLI's header (upper case) and the panel's (as is, capitalised)
     * @param help what it counts, for a tooltip
     * @param numeric whether its cells are figures (right-aligned)
     */
    public record Column(String header, String help, boolean numeric, Function<MemberResult, String> cell) {
        /** The cell of {@code m}. */
        public String of(MemberResult m) {
            return cell.apply(m);
        }
    }

    /** Every column, in order. */
    public static final List<Column> ALL = List.of(
            new Column("ID", "The sandbox", false, MemberResult::id),
            new Column(
                    "Agent",
                    "Its agent (and the model asked for)",
                    false,
                    m -> m.model() == null ? m.agent() : m.agent() + " " + m.model()),
            new Column("State", "Its state now", false, MemberResult::state),
            new Column(
                    "Commits",
                    "Commits its branch made since the commit the group started from",
                    true,
                    m -> number(m.commits())),
            new Column("Files", "Files those commits changed", true, m -> number(m.files())),
            new Column("Lines", "Lines they added and deleted", true, ComparisonColumns::lines),
            new Column(
                    "Tests",
                    "The merge queue's last test run of its branch",
                    false,
                    m -> m.testVerdict() == null ? UNKNOWN : m.testVerdict()),
            new Column(
                    "Merge",
                    "Its newest merge queue entry's state",
                    false,
                    m -> m.mergeState() == null ? UNKNOWN : m.mergeState()),
            new Column("Calls", "Tool calls in its transcript", true, m -> number(m.toolCalls())),
            new Column(
                    "Denied",
                    "Tool calls the policy, a person or a timeout refused",
                    true,
                    m -> number(m.deniedCalls())),
            new Column(
                    "Errors",
                    "Errors and failed tool results in its transcript (a denied call counts as denied only)",
                    true,
                    m -> number(m.errors())),
            new Column("Tokens", "Tokens in and out, as its agent reported them", true, m -> number(m.tokens())),
            new Column("Cost", "Cost as its agent reported it", true, m -> dollars(m.costUsd())),
            new Column("Time", "How long its last run took (so far, while it runs)", true, m -> duration(m.runMs())));

    private ComparisonColumns() {}

    /** "+40 −5", "–" when the branch is gone. */
    static String lines(MemberResult m) {
        return m.added() == null ? UNKNOWN : "+" + number(m.added()) + " −" + number(m.deleted());
    }

    /** "1,234", "–" for null. */
    static String number(Number n) {
        return n == null ? UNKNOWN : String.format(Locale.ROOT, "%,d", n.longValue());
    }

    /** "$0.0123" below a dollar, "$1.23" from one on, "–" for null. */
    static String dollars(Double usd) {
        if (usd == null) {
            return UNKNOWN;
        }
        return String.format(Locale.ROOT, usd >= 1 ? "$%.2f" : "$%.4f", usd);
    }

    /** "45s", "4m 12s", "1h 03m", "–" for null. */
    static String duration(Long ms) {
        if (ms == null) {
            return UNKNOWN;
        }
        long s = ms / 1000;
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return s / 60 + "m " + String.format(Locale.ROOT, "%02d", s % 60) + "s";
        }
        return s / 3600 + "h " + String.format(Locale.ROOT, "%02d", s / 60 % 60) + "m";
    }
}
