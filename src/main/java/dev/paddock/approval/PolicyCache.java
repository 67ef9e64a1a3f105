package dev.paddock.approval;

import dev.paddock.policy.PolicyEngine;
import dev.paddock.policy.PolicyFile;
import dev.paddock.policy.PolicyGuard;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The policy engine of each repository, loaded once and reloaded when one of its files (the global
 * {@code <paddock home>/policy.json}, the repository's {@code .paddock/policy.json}) changes: each lookup
 * compares the files' modification time and size with those seen at load (two {@code stat} calls), so an
 * edit takes effect on the next request. Loading never fails: a broken file gives a deny-all policy (see
 * {@link PolicyFile#load}), and a repository path in a sandbox's worktree is never read
 * ({@link PolicyFile#loadStandard}). Every engine carries the built-in rule protecting this Paddock home and the
 * policy and hook configuration of every repository ({@link PolicyGuard}).
 */
final class PolicyCache {
    private record Key(Path repository, Path projectRoot) {}

    private record Entry(List<Stamp> stamps, PolicyEngine engine) {}

    /** What a file looked like: missing ({@code size -1}), or its modification time (ns) and size. */
    private record Stamp(Path file, long modifiedNanos, long size) {
        static Stamp of(Path f) {
            try {
                BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
                return new Stamp(f, a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS), a.size());
            } catch (NoSuchFileException e) {
                return new Stamp(f, 0, -1);
            } catch (IOException e) {
                // Unreadable: never equal to a previous stamp, so the load (which reports the error) runs again.
                return new Stamp(f, System.nanoTime(), -2);
            }
        }
    }

    private final Path paddockHome;
    private final Path userHome;
    private final Map<Key, Entry> entries = new ConcurrentHashMap<>();

    PolicyCache(Path paddockHome, Path userHome) {
        this.paddockHome = paddockHome;
        this.userHome = userHome;
    }

    /**
     * The engine for requests of a sandbox of {@code repository}.
     *
     * @param repository the repository's main worktree, as registered
     * @param projectRoot where {@code /path} rules are anchored (the sandbox's worktree)
     */
    PolicyEngine engine(Path repository, Path projectRoot) {
        Key key = new Key(repository, projectRoot);
        List<Path> files = PolicyFile.standardFiles(paddockHome, repository);
        List<Stamp> now = stamps(files);
        Entry e = entries.get(key);
        if (e != null && e.stamps().equals(now)) {
            return e.engine();
        }
        PolicyEngine engine = new PolicyEngine(
                PolicyFile.loadStandard(paddockHome, repository, projectRoot, userHome),
                new PolicyGuard(paddockHome, repository));
        // Stamps taken before the load: a write during the load is seen on the next lookup.
        entries.put(key, new Entry(now, engine));
        return engine;
    }

    /** Forgets every loaded policy (after Paddock itself wrote a policy file). */
    void invalidate() {
        entries.clear();
    }

    private static List<Stamp> stamps(List<Path> files) {
        List<Stamp> out = new ArrayList<>(files.size());
        for (Path f : files) {
            out.add(Stamp.of(f));
        }
        return out;
    }
}
