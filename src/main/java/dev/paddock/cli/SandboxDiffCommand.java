package dev.paddock.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.paddock.api.DiffClient;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import dev.paddock.diff.DiffOptions;
import dev.paddock.diff.SandboxDiff;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock sandbox diff ID [--stat] [--json] [--ignore-whitespace] [--commit C | --checkpoint N [--to M]]}: a
 * sandbox's whole change against its base (its branch's commits and its worktree's uncommitted and untracked files), as a unified patch,
 * a per-file summary or JSON; through the running Paddock, else from the store.
 */
@Command(
        name = "diff",
        mixinStandardHelpOptions = true,
        description = "Show a sandbox's whole change against its base: its branch's commits plus its worktree's"
                + " uncommitted and untracked files (not ignored ones), as a unified patch.")
public final class SandboxDiffCommand implements Callable<Integer> {
    @ParentCommand
    SandboxCommand parent;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "ID", description = "The sandbox.")
    String id;

    @Option(names = "--stat", description = "A summary per file (lines added and deleted), as git diff --stat.")
    boolean stat;

    @Mixin
    JsonOption json;

    @Option(
            names = {"-w", "--ignore-whitespace"},
            description = "Leave out changes of whitespace alone.")
    boolean ignoreWhitespace;

    @Option(
            names = "--commit",
            paramLabel = "C",
            description = "Only this commit of the sandbox's branch, against its parent (HEAD, HEAD~1: the sandbox's).")
    String commit;

    @Option(
            names = "--checkpoint",
            paramLabel = "N",
            description = "Checkpoint N against the checkpoint before it (the base for the first one).")
    Integer checkpoint;

    @Option(names = "--to", paramLabel = "M", description = "With --checkpoint N: checkpoint N against checkpoint M.")
    Integer to;

    @Override
    public Integer call() throws PaddockException {
        if (to != null && checkpoint == null) {
            throw new PaddockException("--to M needs --checkpoint N: the diff from checkpoint N to checkpoint M.");
        }
        if (checkpoint != null && commit != null) {
            throw new PaddockException("Give --commit or --checkpoint, not both.");
        }
        DiffOptions o = new DiffOptions(ignoreWhitespace, commit).checkpoints(checkpoint, to);
        PrintWriter out = spec.commandLine().getOut();
        if (json.on() || stat) {
            SandboxDiff d = RunningPaddock.apiElseStore(
                    parent.root.resolveHome(),
                    api -> new DiffClient(api).diff(id, o),
                    wiring -> wiring.diffs().diff(id, o));
            out.print(json.on() ? json(d) : DiffStat.render(d, 80));
        } else {
            String patch = RunningPaddock.apiElseStore(
                    parent.root.resolveHome(),
                    api -> new DiffClient(api).patch(id, o),
                    wiring -> wiring.diffs().patch(id, o));
            out.print(patch);
        }
        out.flush();
        return 0;
    }

    private static String json(SandboxDiff d) throws PaddockException {
        try {
            return Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(d) + "\n";
        } catch (JsonProcessingException e) {
            throw new PaddockException("Cannot write the diff as JSON: " + e.getMessage(), e);
        }
    }
}
