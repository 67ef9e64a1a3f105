package dev.paddock.cli;

import dev.paddock.api.LayerClient;
import dev.paddock.common.PaddockException;
import dev.paddock.layer.LayerChange;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code paddock layers changes ID [--json]}: what a sandbox changed in its shared folders. */
@Command(
        name = "changes",
        mixinStandardHelpOptions = true,
        description = "List what a sandbox added, modified and deleted in its shared folders (read from its own"
                + " layer alone).")
public final class LayersChangesCommand implements Callable<Integer> {
    @ParentCommand
    LayersCommand parent;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "ID", description = "The sandbox.")
    String id;

    @Mixin
    JsonOption json;

    @Override
    public Integer call() throws PaddockException {
        LayerClient.Changes answer = new LayerClient(RunningPaddock.api(parent.root.resolveHome())).changes(id);
        List<LayerChange> changes = answer.changes();
        PrintWriter out = spec.commandLine().getOut();
        if (json.on()) {
            out.println(SandboxText.json(answer));
        } else if (!answer.namespace()) {
            out.println(id + " is not a namespace sandbox: only namespace sandboxes see shared folders.");
        } else if (changes.isEmpty()) {
            out.println(id + " changed nothing in its shared folders.");
        } else {
            for (LayerChange c : changes) {
                out.println(switch (c.kind()) {
                            case ADDED -> "A ";
                            case MODIFIED -> "M ";
                            case DELETED -> "D ";
                            case REPLACED -> "R ";
                        }
                        + c.path());
            }
        }
        out.flush();
        return 0;
    }
}
