package dev.paddock.sandbox;

import dev.paddock.common.PaddockException;
import dev.paddock.repo.RepoService;
import dev.paddock.worktree.GitException;
import dev.paddock.worktree.GitRepository;
import dev.paddock.worktree.WorktreeManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Makes a fan-out: one task for several agents at once, each in a sandbox and branch of its own, all carrying the
 * group's id. Everything that can be checked is checked before the first sandbox is made (each agent and its program,
 * each tier, every id and every branch name as git takes it, no branch checked out elsewhere), so a bad request makes
 * nothing. Then the sandboxes are made one after the other by {@link SandboxCreator}; when one fails (a full disk, a
 * race for an id), the ones made stay, the rest are not tried, and {@link FanOutException} says which is which.
 *
 * <p>Names: the group's id is the id a sandbox of the task would get ({@code <words>-<yyyymmdd>-<nnn>}, the words cut
 * so the longest id fits) or the {@code --id} given; its sandboxes are {@code <group>-<agent>-<n>}, on branches
 * {@code <base>-<agent>-<n>}, where the base is the {@code --branch} given or {@code agent/<words>} (with {@code -2},
 * {@code -3}, ... when one of the branches it gives exists).
 */
final class GroupCreator {
    private final SandboxCreator creator;
    private final RepoService repos;
    private final WorktreeManager worktrees;
    private final SandboxStore store;

    GroupCreator(SandboxCreator creator, RepoService repos, WorktreeManager worktrees, SandboxStore store) {
        this.creator = creator;
        this.repos = repos;
        this.worktrees = worktrees;
        this.store = store;
    }

    /**
     * Makes the fan-out.
     *
     * @param template the request every sandbox shares (its agent, id and branch are replaced per sandbox; its id and
     *     branch, when given, are the group's id and the branches' base)
     * @param afterEach run after each sandbox is made (the supervisor starts it)
     * @throws SandboxException for a request that cannot be honoured, with nothing made
     * @throws SandboxConflictException when an id, folder or branch is taken, with nothing made
     * @throws FanOutException when a sandbox could not be made after others were
     */
    SandboxGroup create(NewSandbox template, AgentCounts agents, Runnable afterEach) throws PaddockException {
        if (template.task() == null || template.task().isBlank()) {
            throw new SandboxException("The task is empty: say what the agents should do (--task ...).");
        }
        checkAgents(template, agents);
        GitRepository git = repos.locate(template.repository());
        Path main = git.mainWorktree();
        int room = agents.entries().stream()
                .mapToInt(e -> suffix(e.agent(), e.count()).length())
                .max()
                .orElse(0);
        String group = groupId(template, main, room);
        List<FanOutException.Member> members = members(template, agents, main, group);
        check(git, main, members);

        List<SandboxRecord> made = new ArrayList<>();
        for (int i = 0; i < members.size(); i++) {
            FanOutException.Member m = members.get(i);
            try {
                made.add(creator.create(template.toBuilder()
                        .agent(m.agent())
                        .id(m.id())
                        .branch(m.branch())
                        .group(group)
                        .build()));
            } catch (PaddockException e) {
                if (made.isEmpty()) {
                    throw e; // nothing was made: the first sandbox's own refusal says it all
                }
                throw new FanOutException(group, made, m, e, members.subList(i + 1, members.size()));
            } finally {
                afterEach.run();
            }
        }
        return new SandboxGroup(group, made);
    }

    /** Each agent, model and command as the presets take them, each agent's tier and program. */
    private void checkAgents(NewSandbox template, AgentCounts agents) throws PaddockException {
        AgentPrograms programs = creator.agentPrograms();
        Set<String> distinct = new LinkedHashSet<>(agents.agents());
        if (distinct.size() > 1 && template.model() != null && !template.model().isBlank()) {
            throw new SandboxException("A model (--model) is one agent's: this fan-out runs "
                    + String.join(", ", distinct) + ". Leave the model out, or fan out to one agent.");
        }
        for (String agent : distinct) {
            programs.check(agent, template.model(), template.agentCommand());
        }
        for (String agent : distinct) {
            Tier tier = template.tier() != null ? template.tier() : programs.defaultTier(agent);
            creator.checkTier(tier);
            programs.checkProgram(agent, tier);
        }
    }

    private String groupId(NewSandbox template, Path main, int room) throws PaddockException {
        if (template.id() == null || template.id().isBlank()) {
            return creator.nextGroupId(template.task(), main, room);
        }
        String id = template.id().strip();
        SandboxIds.check(id);
        if (id.length() + room > SandboxIds.MAX_LENGTH) {
            throw new SandboxException("The id " + id + " is too long for this fan-out: its sandboxes' ids are "
                    + id + "-<agent>-<n>, up to " + (id.length() + room) + " characters, and an id has at most "
                    + SandboxIds.MAX_LENGTH + ". Give an id of at most " + (SandboxIds.MAX_LENGTH - room)
                    + " characters.");
        }
        return id;
    }

    private List<FanOutException.Member> members(NewSandbox template, AgentCounts agents, Path main, String group)
            throws GitException {
        String given = template.branch() == null || template.branch().isBlank()
                ? null
                : template.branch().strip();
        String base = given != null ? given : freeBase(main, SandboxIds.suggestBranch(template.task()), agents);
        List<FanOutException.Member> members = new ArrayList<>();
        for (AgentCounts.Entry e : agents.entries()) {
            for (int n = 1; n <= e.count(); n++) {
                members.add(new FanOutException.Member(
                        e.agent(), n, group + suffix(e.agent(), n), base + suffix(e.agent(), n)));
            }
        }
        return members;
    }

    /** {@code suggested}, or with -2, -3, ... when a branch it gives exists: the fan-out's branches are new. */
    private String freeBase(Path main, String suggested, AgentCounts agents) throws GitException {
        String candidate = suggested;
        for (int n = 2; anyExists(main, candidate, agents); n++) {
            candidate = suggested + "-" + n;
        }
        return candidate;
    }

    private boolean anyExists(Path main, String base, AgentCounts agents) throws GitException {
        for (AgentCounts.Entry e : agents.entries()) {
            for (int n = 1; n <= e.count(); n++) {
                if (worktrees.branchExists(main, base + suffix(e.agent(), n))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Every id free and valid, every branch a name git takes and checked out nowhere; the branches as git normalises
     * them replace the members'.
     */
    private void check(GitRepository git, Path main, List<FanOutException.Member> members) throws PaddockException {
        for (int i = 0; i < members.size(); i++) {
            FanOutException.Member m = members.get(i);
            SandboxIds.check(m.id());
            if (store.exists(m.id())
                    || Files.exists(main.resolve(SandboxLayout.ROOT).resolve(m.id()))) {
                throw new SandboxConflictException("The fan-out's sandbox " + m.id() + " exists already (in the store"
                        + " or under .worktrees/); nothing was created. Give another --id.");
            }
            String branch;
            try {
                branch = worktrees.checkBranchName(main, m.branch());
            } catch (GitException e) {
                throw new SandboxException(
                        "Git refuses the branch name " + m.branch() + " of the fan-out's sandbox " + m.id() + ": "
                                + e.getMessage() + " Nothing was created; give another --branch.",
                        e);
            }
            Optional<Path> checkedOut = worktrees.checkedOutIn(git, branch);
            if (checkedOut.isPresent()) {
                throw new SandboxConflictException("The branch " + branch + " of the fan-out's sandbox " + m.id()
                        + " is checked out in " + checkedOut.get() + "; nothing was created. Give another --branch.");
            }
            members.set(i, new FanOutException.Member(m.agent(), m.number(), m.id(), branch));
        }
    }

    /** {@code -<agent>-<n>}. */
    private static String suffix(String agent, int n) {
        return "-" + agent + "-" + n;
    }
}
