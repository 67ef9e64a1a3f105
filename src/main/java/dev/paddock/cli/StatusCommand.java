package dev.paddock.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.paddock.api.CliText;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import dev.paddock.settings.PaddockHome;
import dev.paddock.status.RepositoryStatus;
import dev.paddock.status.StatusText;
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
@Command(
        name = "status",
        mixinStandardHelpOptions = true,
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
        PrintWriter out = spec.commandLine().getOut();
        if (json.on()) {
            out.println(fetchJson(home, target));
        } else {
            out.print(StatusText.render(
                    fetch(home, target),
                    java.time.ZoneId.systemDefault(),
                    java.util.Locale.getDefault(java.util.Locale.Category.FORMAT)));
        }
        out.flush();
        return 0;
    }

    /**
     * The status as indented JSON. From a running Paddock its answer is only re-indented, not bound to records and
     * written again: binding is most of such a call's time (Jackson's first look at every record type), and the
     * answer is the same {@link RepositoryStatus} written by the same mapper.
     */
    private static String fetchJson(PaddockHome home, Path target) throws PaddockException {
        return RunningPaddock.apiElseStore(
                home,
                api -> {
                    String body = api.status(target);
                    try {
                        return CliText.reindented(body);
                    } catch (JsonProcessingException e) {
                        throw new PaddockException(
                                "The running Paddock gave an unexpected status answer: " + e.getOriginalMessage(), e);
                    }
                },
                wiring -> {
                    try {
                        return CliText.indented(fromStore(wiring, target));
                    } catch (JsonProcessingException e) {
                        throw new PaddockException("Cannot write the status as JSON: " + e.getOriginalMessage(), e);
                    }
                });
    }

    /** From the running Paddock when there is one (it holds the store), else from the store itself. */
    private static RepositoryStatus fetch(PaddockHome home, Path target) throws PaddockException {
        return RunningPaddock.apiElseStore(
                home,
                api -> {
                    String body = api.status(target);
                    try {
                        return Json.mapper().readValue(body, RepositoryStatus.class);
                    } catch (JsonProcessingException e) {
                        throw new PaddockException(
                                "The running Paddock gave an unexpected status answer: " + e.getOriginalMessage(), e);
                    }
                },
                wiring -> fromStore(wiring, target));
    }

    /** The status read from the store, when no Paddock runs. */
    private static RepositoryStatus fromStore(dev.paddock.Wiring wiring, Path target) throws PaddockException {
        if (wiring.environment().probeNow().docker().reachable()) {
            wiring.reconciler().lookForOrphanContainers(); // no reconciler pass runs here
        }
        return wiring.workspace().statusOf(target);
    }
}
