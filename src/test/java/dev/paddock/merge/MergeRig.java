package dev.paddock.merge;

import dev.paddock.events.Event;
import dev.paddock.events.EventLog;
import dev.paddock.isolation.container.ContainerAgents;
import dev.paddock.merge.conflict.ConflictClassifier;
import dev.paddock.repo.RepoService;
import dev.paddock.repo.RepoStore;
import dev.paddock.sandbox.SandboxStore;
import dev.paddock.store.Database;
import dev.paddock.testing.TempRepo;
import dev.paddock.testing.TestRuntimes;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.RepositoryLocator;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * A real store (H2 file), a real repository (base {@code main}, {@code .worktrees/} ignored) and an unstarted
 * merge queue: work runs on the calling thread, so tests drive it step by step with {@link MergeQueue#runNext}.
 */
final class MergeRig implements AutoCloseable {
    final TempRepo repo;
    final Database db;
    final EventLog events;
    final MergeStore store;
    final MergeQueue queue;
    final MergeService service;
    final ResolutionService resolution;
    final long repoId;
    final SandboxStore sandboxes;
    private final RepoService repoService;

    MergeRig(Path tmp) throws Exception {
        this(tmp, TempRepo.init(tmp.resolve("repo")).excludeWorktreesDir().dir());
    }

    /** A rig over an existing repository (its base branch is the one checked out). */
    MergeRig(Path tmp, Path existing) throws Exception {
        this(tmp, existing, ContainerAgents.none(), false);
    }

    /** A rig whose queue runs container-tier tests with {@code containers}. */
    MergeRig(Path tmp, Path existing, ContainerAgents containers) throws Exception {
        this(tmp, existing, containers, false);
    }

    /** A rig whose queue classifies conflicts as Wiring's does (hunks, classes, proposals), for auto-resolve. */
    static MergeRig classified(Path tmp) throws Exception {
        return new MergeRig(
                tmp, TempRepo.init(tmp.resolve("repo")).excludeWorktreesDir().dir(), ContainerAgents.none(), true);
    }

    private MergeRig(Path tmp, Path existing, ContainerAgents containers, boolean classified) throws Exception {
        repo = TempRepo.open(existing);
        db = Database.open(tmp.resolve("db").resolve("paddock"));
        Clock clock = Clock.systemUTC();
        events = new EventLog(db, clock);
        RepoStore repos = new RepoStore(db, clock);
        GitCli git = new GitCli();
        repoService = new RepoService(new RepositoryLocator(git), git, repos, events);
        repoId = repoService.open(repo.dir()).record().id();
        store = new MergeStore(db, events, clock);
        sandboxes = new SandboxStore(db, events, clock);
        queue = new MergeQueue(
                store,
                repos,
                sandboxes,
                new MergeGit(git),
                classified
                        ? new ClassifiedConflicts(new ConflictClassifier(), new MergeTreeConflicts(git))
                        : new MergeTreeConflicts(git),
                TierTestRunner.create(TestRuntimes.with(containers), null),
                tmp.resolve("logs"),
                null);
        service = new MergeService(queue, repoService);
        resolution = new ResolutionService(queue);
        // The queue's tests take finished sandboxes at once; the review gate's tests ask for required.
        review(repoId, ReviewMode.AUTO);
    }

    /** Sets a repository's review setting, with no event (as if it had always been so). */
    void review(long repository, ReviewMode mode) throws Exception {
        MergeSettings s = store.settings(repository);
        store.setSettings(repository, s.withReview(mode));
    }

    /** Registers another repository in the same store (its review {@code auto}, as the rig's); returns its id. */
    long register(Path other) throws Exception {
        long id = repoService.open(other).record().id();
        review(id, ReviewMode.AUTO);
        return id;
    }

    /** A branch from main's tip with one commit writing {@code file}. */
    String branch(String name, String file, String content) {
        repo.git("branch", name, "main");
        Path wt = repo.addWorktreeOnBranch(repo.dir().resolve(".worktrees").resolve(name.replace('/', '-')), name);
        TempRepo.write(wt, file, content);
        return TempRepo.commitAll(wt, "edit " + file + " on " + name);
    }

    MergeEntry enqueue(String branch) throws Exception {
        return service.enqueueBranch(repo.dir(), branch, "tester");
    }

    /** Runs the queue until it has nothing more to take. */
    void drain() throws Exception {
        for (int i = 0; i < 20 && queue.runNext(repoId); i++) {
            // next
        }
    }

    MergeEntry entry(long id) throws Exception {
        return store.find(id).orElseThrow();
    }

    String main() {
        return repo.git("rev-parse", "main").strip();
    }

    List<String> kinds() throws Exception {
        return events.recent(repoId, 500).stream().map(Event::kind).toList();
    }

    List<Event> recent() throws Exception {
        return events.recent(repoId, 500);
    }

    void settings(String testCommand, long timeoutMs, int maxAttempts) throws Exception {
        service.configure(repo.dir(), null, testCommand == null ? "" : testCommand, timeoutMs, maxAttempts);
    }

    @Override
    public void close() {
        queue.close();
        db.close();
    }
}
