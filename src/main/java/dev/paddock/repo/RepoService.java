package dev.paddock.repo;

import dev.paddock.common.PaddockException;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventKinds;
import dev.paddock.events.EventLog;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.GitException;
import dev.paddock.worktree.GitRepository;
import dev.paddock.worktree.RepositoryLocator;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Opens repositories: finds the git repository of a path and registers it in the store. */
public final class RepoService {
    private final RepositoryLocator locator;
    private final GitCli git;
    private final RepoStore repos;
    private final EventLog events;

    public RepoService(RepositoryLocator locator, GitCli git, RepoStore repos, EventLog events) {
        this.locator = locator;
        this.git = git;
        this.repos = repos;
        this.events = events;
    }

    /** A repository both located on disk and registered in the store. */
    public record OpenedRepo(RepoRecord record, GitRepository git) {}

    /**
     * Locates the repository containing {@code path} and registers it (or marks it as just opened).
     *
     * @throws GitException when the path is not in a usable git repository (see {@link RepositoryLocator})
     * @throws PaddockException when the store cannot be written
     */
    public OpenedRepo open(Path path) throws PaddockException {
        return register(locator.locate(path));
    }

    /**
     * Registers an already located repository (or marks it as just opened).
     *
     * @throws PaddockException when the store cannot be written
     */
    public OpenedRepo register(GitRepository repo) throws PaddockException {
        RepoStore.Registration reg = repos.register(repo.mainWorktree(), baseBranch(repo));
        if (reg.created()) {
            events.append(EventDraft.of(
                    reg.repo().id(),
                    null,
                    EventKinds.REPOSITORY_REGISTERED,
                    "Registered " + repo.mainWorktree() + " (base branch "
                            + reg.repo().baseBranch() + ")",
                    Map.of(
                            "path",
                            repo.mainWorktree().toString(),
                            "baseBranch",
                            reg.repo().baseBranch())));
        }
        return new OpenedRepo(reg.repo(), repo);
    }

    /**
     * Locates a repository without registering it (for read-only commands such as {@code status}).
     */
    public GitRepository locate(Path path) throws GitException {
        return locator.locate(path);
    }

    /**
     * The registered repository containing {@code path}, without registering it when it is not.
     *
     * @return empty when the repository is not registered
     * @throws GitException when the path is not in a usable git repository
     */
    public Optional<RepoRecord> registered(Path path) throws PaddockException {
        return repos.findByPath(locator.locate(path).mainWorktree());
    }

    /**
     * Sets the image the repository's container sandboxes are made from (a sandbox may name another), or
     * clears it with null. Registers the repository when it is not yet. Whether the engine has the image is
     * checked when a sandbox is created, not here (the image may be built later).
     *
     * @throws GitException when the path is not in a usable git repository
     * @throws PaddockException when the store cannot be written
     */
    public OpenedRepo setContainerImage(Path path, String image) throws PaddockException {
        OpenedRepo r = open(path);
        repos.setContainerImage(r.record().id(), image);
        events.append(EventDraft.of(
                r.record().id(),
                null,
                "repository.container_image_set",
                image == null || image.isBlank()
                        ? "Cleared the container image of " + r.git().mainWorktree()
                        : "Container sandboxes of " + r.git().mainWorktree() + " use the image " + image.strip(),
                Map.of("image", image == null ? "" : image.strip())));
        return r;
    }

    /**
     * The container image of the repository containing {@code path}, if it is registered and has one.
     */
    public Optional<String> containerImageOf(GitRepository repo) throws PaddockException {
        Optional<RepoRecord> r = repos.findByPath(repo.mainWorktree());
        return r.isEmpty() ? Optional.empty() : repos.containerImage(r.get().id());
    }

    /**
     * Sets the extra flags the repository's sandboxes of {@code agent} run with (empty clears them), recording an
     * event. The caller checks them first (the agent presets know what is allowed). Registers the repository if
     * needed.
     *
     * @throws GitException when the path is not in a usable git repository
     * @throws PaddockException when the store cannot be written
     */
    public OpenedRepo setAgentFlags(Path path, String agent, List<String> flags) throws PaddockException {
        OpenedRepo r = open(path);
        List<String> words = flags == null ? List.of() : List.copyOf(flags);
        try {
            repos.setAgentFlags(
                    r.record().id(),
                    agent,
                    words.isEmpty() ? null : dev.paddock.common.Json.mapper().writeValueAsString(words));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new PaddockException("Cannot write the flags: " + e.getOriginalMessage(), e);
        }
        events.append(EventDraft.of(
                r.record().id(),
                null,
                "repository.agent_flags_set",
                words.isEmpty()
                        ? "Cleared the extra flags of " + agent + " in "
                                + r.git().mainWorktree()
                        : "Sandboxes of " + agent + " in " + r.git().mainWorktree() + " run with the extra flags "
                                + String.join(" ", words),
                Map.of("agent", agent, "flags", words)));
        return r;
    }

    /** The repository's extra flags for {@code agent} (empty for none). */
    public List<String> agentFlags(long repositoryId, String agent) throws PaddockException {
        Optional<String> json = repos.agentFlags(repositoryId, agent);
        return json.isEmpty() ? List.of() : words(json.get());
    }

    /** Every agent's extra flags of the repository containing {@code path} (none when it is not registered). */
    public Map<String, List<String>> allAgentFlags(Path path) throws PaddockException {
        Optional<RepoRecord> r = registered(path);
        Map<String, List<String>> all = new java.util.TreeMap<>();
        if (r.isPresent()) {
            for (Map.Entry<String, String> e : repos.allAgentFlags(r.get().id()).entrySet()) {
                all.put(e.getKey(), words(e.getValue()));
            }
        }
        return all;
    }

    private static List<String> words(String json) throws PaddockException {
        try {
            return List.of(dev.paddock.common.Json.mapper().readValue(json, String[].class));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new PaddockException("The stored extra flags cannot be read: " + e.getOriginalMessage(), e);
        }
    }

    /** All registered repositories, most recently opened first. */
    public List<RepoRecord> recent() throws PaddockException {
        return repos.recent();
    }

    /**
     * The base branch of a repository: the registered one, or for a repository not registered yet the one
     * it would get (see {@link #baseBranch}). Registers nothing.
     */
    public String baseBranchOf(GitRepository repo) throws PaddockException {
        Optional<RepoRecord> registered = repos.findByPath(repo.mainWorktree());
        return registered.isPresent() ? registered.get().baseBranch() : baseBranch(repo);
    }

    /**
     * The base branch for a newly registered repository: the branch checked out in its main
     * worktree, else {@code main} or {@code master} when such a branch exists, else {@code main}.
     */
    String baseBranch(GitRepository repo) throws GitException {
        if (repo.currentBranch() != null) {
            return repo.currentBranch();
        }
        for (String candidate : List.of("main", "master", "trunk", "develop")) {
            if (git.run(repo.mainWorktree(), "show-ref", "--verify", "--quiet", "refs/heads/" + candidate)
                    .ok()) {
                return candidate;
            }
        }
        return "main";
    }
}
