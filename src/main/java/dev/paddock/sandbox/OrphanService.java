package dev.paddock.sandbox;

import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import dev.paddock.common.Trees;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventLog;
import dev.paddock.repo.RepoService;
import dev.paddock.settings.SettingsStore;
import dev.paddock.worktree.GitException;
import dev.paddock.worktree.WorktreeInfo;
import dev.paddock.worktree.WorktreeManager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a person does about orphans (prune, adopt or remove), for the panel, the API and the
 * CLI: list them, adopt one as a sandbox waiting for a person, or remove one (its branch is kept).
 */
public final class OrphanService {
    private static final Logger LOG = LoggerFactory.getLogger(OrphanService.class);
    /** The task text of an adopted worktree. */
    public static final String ADOPTED_TASK = "adopted worktree";

    private final RepoService repos;
    private final SandboxStore store;
    private final WorktreeManager worktrees;
    private final OrphanScanner scanner;
    private final EventLog events;
    private final SettingsStore settings;
    private final Clock clock;

    public OrphanService(
            RepoService repos,
            SandboxStore store,
            WorktreeManager worktrees,
            OrphanScanner scanner,
            EventLog events,
            SettingsStore settings,
            Clock clock) {
        this.repos = repos;
        this.store = store;
        this.worktrees = worktrees;
        this.scanner = scanner;
        this.events = events;
        this.settings = settings;
        this.clock = clock;
    }

    /**
     * The orphans of the repository containing {@code repo} (registering it when it is not).
     *
     * @throws PaddockException when it is not a usable repository, or git or the store fail
     */
    public List<Orphan> list(Path repo) throws PaddockException {
        RepoService.OpenedRepo r = repos.open(repo);
        Path main = r.git().mainWorktree();
        return scanner.scan(
                main, worktrees.list(main), store.listOpen(r.record().id()));
    }

    /**
     * Adopts an orphan worktree: stores a sandbox for it in state {@code awaiting_human}, task
     * {@value #ADOPTED_TASK}, its branch, the repository's base branch (base commit: their merge base), the
     * agent identity in its config and a state file beside it, with events. It has no agent command of its
     * own: retrying it runs one that fails and says so.
     *
     * @param path the orphan's path as {@link #list} or the status gives it
     * @throws SandboxException when {@code path} is not an orphan of that repository, cannot be adopted (not a
     *     worktree, detached HEAD, not at {@code .worktrees/<id>/<branch>}, folder gone) or its id is taken by a
     *     closed sandbox; nothing changed
     */
    public synchronized SandboxRecord adopt(Path repo, String path, String who) throws PaddockException {
        RepoService.OpenedRepo r = repos.open(repo);
        Orphan o = find(r, path);
        String why = o.whyNotAdoptable();
        if (why != null) {
            throw new SandboxException(why);
        }
        String id = o.name();
        if (store.exists(id)) {
            throw new SandboxException("The id " + id + " belongs to a closed sandbox, so " + o.path() + " cannot be"
                    + " adopted under it. Remove it, or move it (git worktree move) to .worktrees/<new-id>/"
                    + o.branch() + " and adopt it there.");
        }
        Path main = r.git().mainWorktree();
        String base = r.record().baseBranch();
        String baseCommit = worktrees
                .mergeBase(main, "refs/heads/" + base, "refs/heads/" + o.branch())
                .orElse(null);
        SandboxLayout layout = new SandboxLayout(main, id, o.branch());
        worktrees.setIdentity(o.path(), SandboxCreator.agentName(id), SandboxCreator.agentEmail(id));
        Instant now = clock.instant();
        SandboxRecord record = SandboxRecord.builder()
                .id(id)
                .repositoryId(r.record().id())
                .task(ADOPTED_TASK)
                .agentCommand(placeholderCommand(id))
                .tier(Tier.WORKTREE)
                .branch(o.branch())
                .baseBranch(base)
                .baseCommit(baseCommit)
                .worktreePath(o.path().toString())
                .state(SandboxState.AWAITING_HUMAN)
                .createdAt(now)
                .stateChangedAt(now)
                .leaseMs(settings.get(SettingsStore.SANDBOX_LEASE_MS))
                .build();
        try {
            Files.createDirectories(layout.controlDir());
            WorktreeManager.Fingerprint fp = worktrees.fingerprint(o.path());
            SandboxCreator.writeStateFile(layout, record, java.util.Optional.of(FingerprintRecorder.details(fp)));
            String fingerprint = Json.mapper().writeValueAsString(fp);
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("path", o.path().toString());
            details.put("branch", o.branch());
            details.put("base", base);
            details.put("baseCommit", baseCommit);
            details.put("by", who);
            store.insert(
                    record,
                    fingerprint,
                    List.of(EventDraft.of(
                            r.record().id(),
                            id,
                            "sandbox.adopted",
                            "Adopted the orphan worktree " + main.relativize(o.path()) + " as " + id + " (branch "
                                    + o.branch() + ", base " + base + "); it waits for a person",
                            details)));
        } catch (IOException e) {
            throw new SandboxException("Cannot adopt " + o.path() + ": " + e.getMessage(), e);
        }
        LOG.info("Adopted orphan worktree {} as {}", o.path(), id);
        return store.find(id).orElseThrow();
    }

    /**
     * Removes an orphan: {@code git worktree remove --force --force} (also dirty or locked; a prunable one is
     * forgotten, with {@code git worktree prune} when git will not remove it by path), then its folder
     * {@code .worktrees/<name>/} unless git still has another worktree in it. Its branch is kept.
     *
     * @throws SandboxException when {@code path} is not an orphan of that repository or is not one Paddock
     *     deletes (a worktree that is {@code .worktrees/<name>} itself); nothing changed
     */
    public synchronized void remove(Path repo, String path, String who) throws PaddockException {
        RepoService.OpenedRepo r = repos.open(repo);
        Orphan o = find(r, path);
        String why = o.whyNotRemovable();
        if (why != null) {
            throw new SandboxException(why);
        }
        Path main = r.git().mainWorktree();
        if (o.kind() == Orphan.Kind.WORKTREE) {
            removeWorktree(main, o);
        }
        Path folder = main.resolve(SandboxLayout.ROOT).resolve(o.name());
        boolean stillUsed = worktrees.list(main).stream()
                .anyMatch(w -> w.path().toAbsolutePath().normalize().startsWith(folder));
        if (!stillUsed && Files.exists(folder, LinkOption.NOFOLLOW_LINKS)) {
            try {
                Trees.delete(folder);
            } catch (IOException e) {
                throw new SandboxException("Could not delete " + folder + ": " + e.getMessage(), e);
            }
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("path", o.path().toString());
        details.put("kind", o.kind().name().toLowerCase(java.util.Locale.ROOT));
        details.put("branch", o.branch());
        details.put("by", who);
        events.append(EventDraft.of(
                r.record().id(),
                null,
                "sandbox.orphan_removed",
                "Removed the orphan "
                        + o.describe().replace("; no open sandbox owns it", "")
                        + (o.branch() == null ? "" : "; the branch " + o.branch() + " is kept"),
                details));
        LOG.info("Removed orphan {}", o.path());
    }

    private void removeWorktree(Path main, Orphan o) throws PaddockException {
        try {
            worktrees.remove(main, o.path(), true);
        } catch (GitException e) {
            if (!o.prunable()) {
                throw new SandboxException(
                        "Could not remove the orphan worktree " + o.path() + ": " + e.getMessage(), e);
            }
            worktrees.prune(main); // an older git that will not remove a worktree by a path that is gone
        }
    }

    private Orphan find(RepoService.OpenedRepo r, String path) throws PaddockException {
        Path main = r.git().mainWorktree();
        Path p;
        try {
            p = Path.of(path == null ? "" : path);
        } catch (InvalidPathException e) {
            throw new SandboxException("\"" + path + "\" is not a valid path.");
        }
        if (!p.isAbsolute()) {
            throw new SandboxException("The orphan's path must be absolute (got \"" + path + "\").");
        }
        Path wanted = p.normalize();
        List<WorktreeInfo> listed = worktrees.list(main);
        for (Orphan o : scanner.scan(main, listed, store.listOpen(r.record().id()))) {
            if (o.path().equals(wanted)) {
                return o;
            }
        }
        throw new SandboxException(wanted + " is not an orphan of " + main + ": only a worktree or folder under "
                + main.resolve(SandboxLayout.ROOT) + "/ that no open sandbox owns is one. Nothing was changed.");
    }

    /** The command an adopted sandbox runs if someone retries it: it has no agent, and says so. */
    static String placeholderCommand(String id) {
        return "echo 'paddock: " + id + " was adopted from an orphan worktree and has no agent command;"
                + " create a new sandbox to run an agent' >&2; exit 1";
    }
}
