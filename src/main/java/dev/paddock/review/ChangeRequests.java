package dev.paddock.review;

import dev.paddock.common.PaddockException;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventKinds;
import dev.paddock.events.EventLog;
import dev.paddock.sandbox.SandboxConflictException;
import dev.paddock.sandbox.SandboxException;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxService;
import dev.paddock.sandbox.SandboxState;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A request for changes: the sandbox's unsent comments go to its agent, which runs again in the same worktree.
 * They are always written to {@link ReviewFile} in the worktree (git ignores it); an agent that resumes its session
 * gets them as a follow-up prompt ({@link SandboxService#say}), a {@code custom} command (which cannot resume) is
 * retried and finds them in that file, whose path the event names. The comments are then marked with the request's
 * round.
 */
public final class ChangeRequests {
    /**
     * What a request sent.
     *
     * @param sandbox the sandbox as it entered {@code retrying}
     * @param round the request's number for the sandbox (1, 2, …)
     * @param comments the comments sent
     * @param file the file in the worktree that holds them
     * @param followUp whether they went as a follow-up prompt (else: the agent is retried and reads the file)
     */
    public record Sent(SandboxRecord sandbox, int round, List<ReviewComment> comments, Path file, boolean followUp) {}

    private final ReviewStore store;
    private final SandboxService sandboxes;
    private final EventLog events;

    ChangeRequests(ReviewStore store, SandboxService sandboxes, EventLog events) {
        this.store = store;
        this.sandboxes = sandboxes;
        this.events = events;
    }

    /**
     * Refuses a sandbox that cannot run again now.
     *
     * @throws SandboxConflictException when its agent still runs, or it is in the merge queue, merged or removed
     */
    void check(SandboxRecord s) throws SandboxConflictException {
        if (s.state() == SandboxState.PENDING
                || s.state() == SandboxState.RUNNING
                || s.state() == SandboxState.RETRYING
                || !s.state().canBecome(SandboxState.RETRYING)) {
            throw new SandboxConflictException(s.id() + " is " + s.state().label()
                    + "; changes are requested of a sandbox whose agent's run ended (ready for review, done, failed,"
                    + " timeout or awaiting human).");
        }
    }

    /**
     * Sends the sandbox's unsent comments to its agent.
     *
     * @throws SandboxException when there is no unsent comment, or the file cannot be written
     * @throws SandboxConflictException when the sandbox cannot run again now
     */
    Sent request(String sandboxId, String who) throws PaddockException {
        SandboxRecord s = sandboxes.find(sandboxId);
        check(s);
        List<ReviewComment> unsent =
                store.of(sandboxId).stream().filter(c -> !c.sent()).toList();
        if (unsent.isEmpty()) {
            throw new SandboxException("No comment on " + sandboxId + " waits to be sent: add one (paddock sandbox"
                    + " comment " + sandboxId + " TEXT) or give --comment.");
        }
        int round = store.nextRound(sandboxId);
        Path file = ReviewFile.write(Path.of(s.workspace().worktreePath()), ReviewPrompt.markdown(unsent, round, who));
        Optional<String> refusal = sandboxes.followUpRefusal(sandboxId);
        SandboxRecord after = refusal.isEmpty()
                ? sandboxes.say(sandboxId, ReviewPrompt.prompt(unsent, round, who, ReviewFile.RELATIVE), who)
                : sandboxes.retry(sandboxId, who);
        store.markSent(unsent, round);
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("by", who);
        d.put("round", round);
        d.put("comments", unsent.size());
        d.put("file", file.toString());
        d.put("via", refusal.isEmpty() ? "follow-up" : "retry");
        events.append(EventDraft.of(
                s.repositoryId(),
                sandboxId,
                EventKinds.REVIEW_CHANGES_REQUESTED,
                who + " requested changes of " + sandboxId + " (round " + round + ", " + unsent.size()
                        + (unsent.size() == 1 ? " comment" : " comments") + "): "
                        + (refusal.isEmpty()
                                ? "its agent resumes with them (they are also in " + file + ")"
                                : "its agent cannot resume a session, so it runs again from the start and finds them"
                                        + " in " + file),
                d));
        return new Sent(after, round, unsent, file, refusal.isEmpty());
    }
}
