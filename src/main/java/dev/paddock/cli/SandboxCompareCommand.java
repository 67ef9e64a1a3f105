package dev.paddock.cli;

import dev.paddock.api.SandboxClient;
import dev.paddock.common.PaddockException;
import dev.paddock.compare.ComparisonColumns;
import dev.paddock.compare.GroupComparison;
import dev.paddock.compare.MemberResult;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock sandbox compare GROUP|ID [--json]}: the sandboxes of a fan-out side by side, one row each
 * ({@link dev.paddock.compare.GroupComparer}); through the running Paddock, else from the store.
 */
@Command(
        name = "compare",
        mixinStandardHelpOptions = true,
        description = "Compare the sandboxes of a fan-out (sandbox new --agents): commits, files and lines, the merge"
                + " queue's tests, tool calls, denials, errors, tokens, cost and run time, one row each.")
public final class SandboxCompareCommand implements Callable<Integer> {
    @ParentCommand
    SandboxCommand parent;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "GROUP|ID", description = "The group's id, or the id of one of its sandboxes.")
    String id;

    @Mixin
    JsonOption json;

    @Override
    public Integer call() throws PaddockException {
        GroupComparison c = RunningPaddock.apiElseStore(
                parent.root.resolveHome(),
                api -> new SandboxClient(api).compare(id),
                wiring -> wiring.comparisons().compare(id));
        PrintWriter out = spec.commandLine().getOut();
        out.print(json.on() ? SandboxText.json(c) + "\n" : render(c));
        out.flush();
        return 0;
    }

    /** A line about the group, then the table ({@link ComparisonColumns}), its columns as wide as their cells. */
    static String render(GroupComparison c) {
        List<ComparisonColumns.Column> columns = ComparisonColumns.ALL;
        List<List<String>> rows = new ArrayList<>();
        rows.add(columns.stream()
                .map(col -> col.header().toUpperCase(Locale.ROOT))
                .toList());
        for (MemberResult m : c.members()) {
            rows.add(columns.stream().map(col -> col.of(m)).toList());
        }
        int[] width = new int[columns.size()];
        for (List<String> r : rows) {
            for (int i = 0; i < width.length; i++) {
                width[i] = Math.max(width[i], r.get(i).length());
            }
        }
        StringBuilder b = new StringBuilder("Group " + c.group() + ": "
                + c.members().size() + " sandboxes from "
                + c.baseBranch() + " at "
                + (c.baseCommit() == null
                        ? "?"
                        : c.baseCommit().substring(0, Math.min(8, c.baseCommit().length()))) + "\n  task: "
                + c.task().strip().replace("\n", " ") + "\n");
        for (List<String> r : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < width.length; i++) {
                String cell = r.get(i);
                String pad = " ".repeat(width[i] - cell.length());
                line.append(i == 0 ? "" : "  ").append(columns.get(i).numeric() ? pad + cell : cell + pad);
            }
            b.append(line.toString().stripTrailing()).append('\n');
        }
        return b.toString();
    }
}
