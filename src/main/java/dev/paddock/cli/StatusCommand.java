package dev.paddock.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.paddock.Wiring;
import dev.paddock.api.ApiClient;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import dev.paddock.settings.PaddockHome;
import dev.paddock.status.RepositoryStatus;
import dev.paddock.store.DatabaseInUseException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
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

    @Option(names = "--repo", paramLabel = "PATH",
            description = "Repository (default: the one containing the current directory).")
    Path repo;

    @Option(names = "--json", description = "Print JSON (the shape of GET /v1/status) instead of text.")
    boolean json;

    @Override
    public Integer call() throws PaddockException {
        PaddockHome home = root.resolveHome();
        Path target = (repo == null ? Path.of("") : repo).toAbsolutePath().normalize();
        String body = fetch(home, target);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(body);
        } else {
            try {
                out.print(StatusText.render(Json.mapper().readValue(body, RepositoryStatus.class)));
            } catch (JsonProcessingException e) {
                throw new PaddockException("Unexpected status answer: " + e.getOriginalMessage(), e);
            }
        }
        out.flush();
        return 0;
    }

    private static String fetch(PaddockHome home, Path target) throws PaddockException {
        Optional<ApiClient> api = ApiClient.discover(home.instanceFile(), home.tokenFile());
        if (api.isPresent()) {
            return api.get().status(target);
        }
        try (Wiring wiring = Wiring.open(home)) {
            wiring.environment().probeNow();
            RepositoryStatus s = wiring.workspace().statusOf(target);
            return Json.mapper().writer().with(SerializationFeature.INDENT_OUTPUT).writeValueAsString(s);
        } catch (DatabaseInUseException e) {
            throw new PaddockException("Another Paddock holds the store in " + home + " but its API does not"
                    + " answer (no live instance.json). If it is stuck, stop it and try again.", e);
        } catch (JsonProcessingException e) {
            throw new PaddockException("Cannot write the status as JSON: " + e.getOriginalMessage(), e);
        }
    }
}
