package dev.paddock.checkpoint;

import dev.paddock.common.PaddockException;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.worktree.GitException;
import dev.paddock.worktree.MainWorktree;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings refs and rows back in line after a crash. A checkpoint's ref is written before its row, so a crash between
 * them leaves a ref without a row: the row is rebuilt from the commit (its message carries the number, the turn and
 * the text). A row without a ref (a prune cut short, a ref deleted by hand) is deleted. Sandboxes that are closed or
 * unknown lose both, except an unknown one whose folder is still under the repository's {@code .worktrees}: a
 * sandbox of another Paddock home on the same repository, whose checkpoints are that home's.
 */
final class CheckpointRecovery {
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointRecovery.class);
    private static final String TURN_TRAILER = "Paddock-Turn: ";

    /** Forgets a sandbox's checkpoints. */
    @FunctionalInterface
    interface Forget {
        void forget(String sandboxId) throws PaddockException;
    }

    private final CheckpointRepositories repos;
    private final CheckpointStore store;
    private final CheckpointGit git;

    CheckpointRecovery(CheckpointRepositories repos, CheckpointStore store, CheckpointGit git) {
        this.repos = repos;
        this.store = store;
        this.git = git;
    }

    /** The commit message of a checkpoint: its text, then trailers naming it. */
    static String commitMessage(String text, String sandboxId, int number, Integer turn) {
        return text + "\n\nPaddock-Sandbox: " + sandboxId + "\nPaddock-Checkpoint: " + number
                + (turn == null ? "" : "\n" + TURN_TRAILER + turn);
    }

    void run(Forget forget) throws PaddockException {
        Map<String, Map<Integer, String>> refsBySandbox = new TreeMap<>();
        Map<String, Path> dirOf = new LinkedHashMap<>();
        for (Path dir : repos.all()) {
            Map<String, String> refs;
            try {
                refs = git.refs(dir, CheckpointService.REF_PREFIX);
            } catch (GitException e) {
                LOG.warn("Cannot list the checkpoint refs of {}: {}", dir, e.getMessage());
                continue;
            }
            for (Map.Entry<String, String> r : refs.entrySet()) {
                String rest = r.getKey().substring(CheckpointService.REF_PREFIX.length());
                int slash = rest.lastIndexOf('/');
                if (slash <= 0) {
                    continue;
                }
                try {
                    int n = Integer.parseInt(rest.substring(slash + 1));
                    String id = rest.substring(0, slash);
                    refsBySandbox.computeIfAbsent(id, k -> new TreeMap<>()).put(n, r.getValue());
                    dirOf.putIfAbsent(id, dir);
                } catch (NumberFormatException notOurs) {
                    // not a checkpoint ref
                }
            }
        }
        TreeSet<String> ids = new TreeSet<>(refsBySandbox.keySet());
        List<String> indexed = store.sandboxes();
        ids.addAll(indexed);
        for (String id : ids) {
            Optional<SandboxRecord> s = repos.sandbox(id);
            if (s.isEmpty() && !indexed.contains(id) && anotherHomes(dirOf.get(id), id)) {
                LOG.info(
                        "Left the checkpoints of {} alone: this Paddock does not know it, but its folder is there"
                                + " (a sandbox of another Paddock home on {})",
                        id,
                        dirOf.get(id));
                continue;
            }
            if (s.isEmpty() || s.get().state() == SandboxState.CLOSED) {
                Path dir = dirOf.get(id);
                if (dir != null) {
                    String prefix = CheckpointService.REF_PREFIX + id + "/";
                    git.deleteRefs(
                            dir,
                            refsBySandbox.get(id).keySet().stream()
                                    .map(n -> prefix + n)
                                    .toList());
                }
                forget.forget(id);
                LOG.info("Deleted the checkpoints of {}: it is {}", id, s.isEmpty() ? "unknown" : "closed");
                continue;
            }
            settle(id, dirOf.get(id), refsBySandbox.getOrDefault(id, Map.of()));
        }
    }

    /**
     * Whether checkpoint refs of a sandbox this store has no record of belong to a sandbox that still lives: its
     * folder under the repository's sandboxes folder is there. Another Paddock home on the same repository (another
     * H2 file, or a PostgreSQL store) keeps its sandboxes there too; their refs are that home's to delete.
     */
    private static boolean anotherHomes(Path dir, String id) {
        return dir != null
                && java.nio.file.Files.isDirectory(
                        dir.resolve(MainWorktree.SANDBOXES).resolve(id));
    }

    private void settle(String id, Path dir, Map<Integer, String> refs) throws PaddockException {
        Map<Integer, Checkpoint> rows = new TreeMap<>();
        for (Checkpoint c : store.list(id)) {
            rows.put(c.number(), c);
        }
        for (Checkpoint c : rows.values()) {
            if (!refs.containsKey(c.number())) {
                store.delete(id, c.number());
                LOG.info("Deleted checkpoint {} of {}: its ref {} is gone", c.number(), id, c.ref());
            }
        }
        List<Integer> missing = new ArrayList<>();
        refs.keySet().stream().filter(n -> !rows.containsKey(n)).forEach(missing::add);
        for (int n : missing) {
            store.insert(rebuild(dir, id, n, refs));
            LOG.info("Recovered checkpoint {} of {} from its ref (its row was not written)", n, id);
        }
    }

    /** The row of checkpoint {@code n} read back from its commit; changes compared with the one before it. */
    private Checkpoint rebuild(Path dir, String id, int n, Map<Integer, String> refs) throws GitException {
        String commit = refs.get(n);
        CheckpointGit.CommitInfo info = git.commitInfo(dir, commit);
        String tree = git.treeOf(dir, commit);
        Integer previous =
                refs.keySet().stream().filter(k -> k < n).max(Integer::compare).orElse(null);
        String base = previous != null ? git.treeOf(dir, refs.get(previous)) : info.parent();
        CheckpointChanges changes = base == null ? CheckpointChanges.NONE : git.diff(dir, base, tree);
        String text = info.message();
        Integer turn = null;
        int trailers = text.indexOf("\n\nPaddock-Sandbox: ");
        if (trailers >= 0) {
            for (String line : text.substring(trailers).split("\n")) {
                if (line.startsWith(TURN_TRAILER)) {
                    try {
                        turn = Integer.parseInt(
                                line.substring(TURN_TRAILER.length()).strip());
                    } catch (NumberFormatException e) {
                        turn = null;
                    }
                }
            }
            text = text.substring(0, trailers);
        }
        return new Checkpoint(
                id,
                n,
                commit,
                tree,
                info.parent(),
                CheckpointService.refName(id, n),
                text,
                turn,
                changes,
                Instant.ofEpochSecond(info.time()));
    }
}
