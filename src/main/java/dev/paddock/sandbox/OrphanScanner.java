package dev.paddock.sandbox;

import dev.paddock.worktree.WorktreeInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds orphans: compares the worktrees git lists and the folders under {@code <repo>/.worktrees/} with
 * the open sandbox records. A folder {@code .worktrees/<name>/} belongs to the open sandbox with id
 * {@code name}; everything in it (its worktree, nested ones, control files) belongs with it.
 *
 * <p>Creating a sandbox adds its worktree a moment before its record is stored, so a folder younger than
 * the settle time is never an orphan. Reads one directory listing; runs no git.
 */
public final class OrphanScanner {

    private static final Logger LOG = LoggerFactory.getLogger(OrphanScanner.class);
    /** Settle time used by Paddock: creation takes a second or two. */
    public static final Duration SETTLE = Duration.ofSeconds(30);
    /** The lock reason git gives a worktree while {@code git worktree add} fills it. */
    private static final String INITIALIZING = "initializing";

    private final Clock clock;
    private final Duration settle;

    /** @param settle how old a folder under {@code .worktrees/} must be to count as an orphan */
    public OrphanScanner(Clock clock, Duration settle) {
        this.clock = clock;
        this.settle = settle;
    }

    /** How old a folder (or a labelled container) must be to count as an orphan. */
    public Duration settle() {
        return settle;
    }

    /**
     * The orphans of one repository, worktrees first, then folders with no worktree, each by path.
     *
     * @param mainWorktree the repository's main worktree
     * @param listed what {@code git worktree list} said (a failed listing must not be passed as empty)
     * @param open the repository's sandboxes that are not closed
     */
    public List<Orphan> scan(Path mainWorktree, List<WorktreeInfo> listed, Collection<SandboxRecord> open) {
        Path main = mainWorktree.toAbsolutePath().normalize();
        Path root = main.resolve(SandboxLayout.ROOT);
        Set<String> owned = new HashSet<>();
        open.forEach(s -> owned.add(s.id()));
        Set<String> withWorktree = new HashSet<>();
        List<Orphan> out = new ArrayList<>();
        for (WorktreeInfo w : listed) {
            Path p = w.path().toAbsolutePath().normalize();
            if (w.main() || !p.startsWith(root) || p.equals(root)) {
                continue;
            }
            String name = root.relativize(p).getName(0).toString();
            withWorktree.add(name);
            if (paddocksOwn(name)) {
                continue; // the merge queue's worktrees, a shared layer's build: their packages clean them
            }
            if (owned.contains(name) || INITIALIZING.equals(w.lockedReason()) || young(root.resolve(name))) {
                continue;
            }
            out.add(new Orphan(
                    p,
                    Orphan.Kind.WORKTREE,
                    name,
                    main,
                    w.branch(),
                    w.head(),
                    w.lockedReason(),
                    w.prunableReason(),
                    w.missing() || !Files.isDirectory(p)));
        }
        out.sort(java.util.Comparator.comparing(Orphan::path));
        for (String name : folders(root)) {
            if (!withWorktree.contains(name)
                    && !owned.contains(name)
                    && !paddocksOwn(name)
                    && !young(root.resolve(name))) {
                out.add(new Orphan(
                        root.resolve(name), Orphan.Kind.DIRECTORY, name, main, null, null, null, null, false));
            }
        }
        return out;
    }

    /**
     * A folder under {@code .worktrees/} whose name starts with a dot is Paddock's own ({@code .merge}, the merge
     * queue's; {@code .shared}, the shared layers'): no sandbox id starts with one ({@link SandboxIds}).
     */
    static boolean paddocksOwn(String name) {
        return name.startsWith(".");
    }

    private static List<String> folders(Path root) {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> children = Files.list(root)) {
            // A link in .worktrees/ is listed (removing it deletes the link only); plain files are not sandboxes.
            return children.filter(c -> Files.isDirectory(c, LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(c))
                    .map(c -> c.getFileName().toString())
                    .sorted()
                    .toList();
        } catch (IOException e) {
            LOG.debug("Cannot list {}: {}", root, e.getMessage());
            return List.of();
        }
    }

    private boolean young(Path folder) {
        if (settle.isZero()) {
            return false;
        }
        try {
            Instant modified =
                    Files.getLastModifiedTime(folder, LinkOption.NOFOLLOW_LINKS).toInstant();
            return modified.isAfter(clock.instant().minus(settle));
        } catch (IOException e) {
            return false; // gone (a prunable worktree's folder): old enough
        }
    }
}
