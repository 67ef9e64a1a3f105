package dev.paddock.sandbox;

import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import dev.paddock.common.Words;
import dev.paddock.events.EventDraft;
import dev.paddock.worktree.FingerprintProbe;
import dev.paddock.worktree.SideBySide;
import dev.paddock.worktree.WorktreeManager;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records a new sandbox's health fingerprint ({@code git status}, the top level, the branch and the identity:
 * the environment as it is before the agent starts).
 *
 * <p>The fingerprint's {@code git status} of a fresh 10,000-file checkout takes 50-130 ms (git reads again
 * every file written in the same second as the index), so it is finished here, after the sandbox is
 * stored, rather than inside {@link SandboxCreator#create}. It is stored with its event
 * ({@code sandbox.fingerprint_recorded}) and written into the state file. The supervisor starts no agent
 * of a sandbox that never ran before its fingerprint is recorded ({@link #ready}): the fingerprint still
 * shows the worktree as the checkout left it. A Paddock killed before the fingerprint was recorded takes it
 * when the supervisor first looks at the sandbox again.
 */
public final class FingerprintRecorder {
    private static final Logger LOG = LoggerFactory.getLogger(FingerprintRecorder.class);

    private final WorktreeManager worktrees;
    private final SandboxStore store;
    private final Map<String, CompletableFuture<Void>> taking = new ConcurrentHashMap<>();
    private volatile Runnable onRecorded = () -> {};

    public FingerprintRecorder(WorktreeManager worktrees, SandboxStore store) {
        this.worktrees = worktrees;
        this.store = store;
    }

    /** Runs {@code listener} (on a git thread) each time a fingerprint taken in the background is recorded. */
    public void onRecorded(Runnable listener) {
        this.onRecorded = listener;
    }

    /**
     * Marks the fingerprint of {@code id} as being taken, before the sandbox is stored: from then on the
     * supervisor waits for it ({@link #ready}) instead of taking it itself.
     */
    void expect(String id) {
        taking.put(id, new CompletableFuture<>());
    }

    /** Forgets an {@link #expect}ed fingerprint whose sandbox was not stored after all. */
    void forget(String id) {
        CompletableFuture<Void> f = taking.remove(id);
        if (f != null) {
            f.complete(null);
        }
    }

    /**
     * Finishes {@code probe} (started right after the checkout) on another thread and records the fingerprint
     * of the stored sandbox {@code s}, {@link #expect}ed before. A failure is logged and left for
     * {@link #ready} to try again.
     */
    void finishInBackground(SandboxRecord s, SandboxLayout layout, FingerprintProbe probe) {
        CompletableFuture<Void> done = taking.computeIfAbsent(s.id(), k -> new CompletableFuture<>());
        SideBySide.start(() -> {
            try {
                record(s, layout, probe.finish());
            } catch (PaddockException | RuntimeException e) {
                LOG.warn(
                        "Could not record the health fingerprint of {}: {} (taken again before its agent starts)",
                        s.id(),
                        e.getMessage());
            } finally {
                taking.remove(s.id(), done);
                done.complete(null);
                onRecorded.run();
            }
            return null;
        });
    }

    /**
     * Whether the agent of {@code s} may start as far as its fingerprint goes: true once the fingerprint is
     * recorded, or for a sandbox that ran before; false while it is being taken in the background. One that
     * is neither (Paddock stopped before recording it, or recording failed) is taken now, on this thread.
     *
     * @throws PaddockException when git cannot take the fingerprint or the store cannot keep it
     */
    boolean ready(SandboxRecord s, SandboxLayout layout) throws PaddockException {
        if (s.run().iteration() > 0) {
            return true;
        }
        if (taking.containsKey(s.id())) {
            return false;
        }
        if (store.fingerprintOf(s.id()).isPresent()) {
            return true;
        }
        record(s, layout, worktrees.fingerprint(layout.worktree()));
        return true;
    }

    /**
     * Waits until the fingerprint of {@code id} being taken in the background is recorded (or has failed).
     *
     * @return false when it is still being taken after {@code timeout}
     */
    public boolean await(String id, Duration timeout) throws InterruptedException {
        CompletableFuture<Void> f = taking.get(id);
        if (f == null) {
            return true;
        }
        try {
            f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (java.util.concurrent.ExecutionException e) {
            return true; // never completed exceptionally; failures are logged where they happen
        }
    }

    /** A fingerprint as the JSON object kept in the state file and the event's details. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> details(WorktreeManager.Fingerprint fp) {
        return Json.mapper().convertValue(fp, Map.class);
    }

    private void record(SandboxRecord s, SandboxLayout layout, WorktreeManager.Fingerprint fp) throws PaddockException {
        Map<String, Object> details = details(fp);
        String json;
        try {
            json = Json.mapper().writeValueAsString(fp);
            SandboxCreator.writeStateFile(layout, s, Optional.of(details));
        } catch (IOException e) {
            throw new SandboxException(
                    "Cannot write the fingerprint of " + s.id() + " into " + layout.stateFile() + ": " + e.getMessage(),
                    e);
        }
        String head = SandboxCreator.shortId(fp.head());
        store.recordFingerprint(
                s.id(),
                json,
                EventDraft.of(
                        s.repositoryId(),
                        s.id(),
                        "sandbox.fingerprint_recorded",
                        "Health fingerprint: " + fp.branch() + " at " + head + ", "
                                + (fp.changedFiles() == 0
                                        ? "clean"
                                        : Words.count(fp.changedFiles(), "change", "changes")),
                        details));
    }
}
