package dev.paddock.api;

import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.Tier;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The body of {@code POST /v1/sandboxes}. Only {@code repo}, {@code task} and {@code command} are required;
 * the rest take Paddock's defaults (see {@link NewSandbox}).
 *
 * @param repo absolute path of the repository (or of any folder inside it)
 * @param command the agent's shell command line
 * @param tier {@code worktree} (default) or {@code namespace}
 * @param branch branch name (default: from the task)
 * @param base base branch (default: the repository's)
 * @param id sandbox id (default: from the task and the day)
 * @param leaseMs lease in ms (default: the setting, 15 min)
 * @param maxRetries automatic retries (default: the setting)
 * @param network whether a namespace sandbox gets a network (default false)
 */
public record CreateSandboxRequest(String repo, String task, String command, String tier, String branch, String base,
                                   String id, Long leaseMs, Integer maxRetries, Boolean network) {

    /**
     * The request for {@link dev.paddock.sandbox.SandboxService#create}.
     *
     * @throws ApiError 400 when the repository is missing, relative or not a path, or the tier is unknown
     */
    NewSandbox toNewSandbox() throws ApiError {
        if (repo == null || repo.isBlank()) {
            throw ApiError.badRequest("repo is missing: give the absolute path of the repository");
        }
        Path path;
        try {
            path = Path.of(repo);
        } catch (InvalidPathException e) {
            throw ApiError.badRequest("not a valid path: " + repo);
        }
        if (!path.isAbsolute()) {
            throw ApiError.badRequest("repo must be an absolute path: " + repo);
        }
        return new NewSandbox(path, task, command, parsedTier(), branch, base, id, leaseMs, maxRetries,
                Boolean.TRUE.equals(network));
    }

    private Tier parsedTier() throws ApiError {
        if (tier == null || tier.isBlank()) {
            return Tier.WORKTREE;
        }
        try {
            return Tier.of(tier.strip().toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest("unknown tier \"" + tier + "\": use worktree or namespace");
        }
    }
}
