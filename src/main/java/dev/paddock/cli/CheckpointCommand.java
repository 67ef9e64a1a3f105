package dev.paddock.cli;

import dev.paddock.api.ApiClient;
import dev.paddock.api.CheckpointClient;
import dev.paddock.api.CheckpointView;
import dev.paddock.common.PaddockException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code paddock checkpoint [MESSAGE]}: for agents and scripts inside a sandbox. Takes a checkpoint of the sandbox's
 * working state through the API named by {@code PADDOCK_API}, with {@code PADDOCK_TOKEN}, for
 * {@code PADDOCK_SANDBOX_ID} (Paddock gives all three to every agent it starts). Needs no Paddock home.
 */
@Command(
        name = "checkpoint",
        mixinStandardHelpOptions = true,
        description =
                "Inside a sandbox: keep a checkpoint of its working state (files, not its branch) to roll back to.")
public final class CheckpointCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "MESSAGE", description = "Why: what the working state holds now.")
    List<String> words = new ArrayList<>();

    @Override
    public Integer call() throws PaddockException {
        Map<String, String> env = System.getenv();
        String api = env.get(HeartbeatCommand.API);
        String token = env.get(HeartbeatCommand.TOKEN);
        String id = env.get(HeartbeatCommand.SANDBOX);
        if (blank(api) || blank(token) || blank(id)) {
            throw new PaddockException("paddock checkpoint runs inside a sandbox: " + HeartbeatCommand.API + ", "
                    + HeartbeatCommand.TOKEN + " and " + HeartbeatCommand.SANDBOX + " are not set. Paddock sets them"
                    + " for every agent it starts; from outside, list them with: paddock sandbox checkpoints ID.");
        }
        CheckpointView c = new CheckpointClient(ApiClient.of(api, token))
                .checkpoint(id, String.join(" ", words).strip(), null);
        PrintWriter out = spec.commandLine().getOut();
        out.println("Checkpoint " + c.number() + " of " + id + ": " + CheckpointText.counts(c) + ".");
        out.flush();
        return 0;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
