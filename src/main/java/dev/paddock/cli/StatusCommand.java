package dev.paddock.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import dev.paddock.settings.PaddockHome;
import dev.paddock.status.RepositoryStatus;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock status [--repo PATH] [--json]}: what the dashboard shows, for people or scripts.
 * Asks the running panel or server when there is one (its store is locked by it), else reads the
 * store directly.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Show the repository's worktrees, sandboxes and counts (as on the dashboard).")
public final class StatusCommand implements Callable<Integer> {
    @ParentCommand
    PaddockCommand root;

    @Spec
    CommandSpec spec;

    @Mixin
    RepoOption repo;

    @Mixin
    JsonOption json;

    @Override
    public Integer call() throws PaddockException {
        PaddockHome home = root.resolveHome();
        Path target = repo.orCurrentDirectory();
        RepositoryStatus status = fetch(home, target);
        PrintWriter out = spec.commandLine().getOut();
        if (json.on()) {
            try {
                out.println(Json.mapper().writer().with(SerializationFeature.INDENT_OUTPUT).writeValueAsString(status));
            } catch (JsonProcessingException e) {
                throw new PaddockException("Cannot write the status as JSON: " + e.getOriginalMessage(), e);
            }
        } else {
            out.print(StatusText.render(status));
        }
        out.flush();
        return 0;
    }

    /** From the running Paddock when there is one (it holds the store), else from the store itself. */
    private static RepositoryStatus fetch(PaddockHome home, Path target) throws PaddockException {
        return RunningPaddock.apiElseStore(home, api -> {
            String body = api.status(target);
            try {
                return Json.mapper().readValue(body, RepositoryStatus.class);
            } catch (JsonProcessingException e) {
                throw new PaddockException("The running Paddock gave an unexpected status answer: "
                        + e.getOriginalMessage(), e);
            }
        }, wiring -> {
            if (wiring.environment().probeNow().docker().reachable()) {
                wiring.reconciler().lookForOrphanContainers(); // no reconciler pass runs here
            }
            return wiring.workspace().statusOf(target);
        });
    }
}
