package dev.paddock.review;

import dev.paddock.common.PaddockException;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventKinds;
import dev.paddock.events.EventLog;
import dev.paddock.merge.MergeEntry;
import dev.paddock.merge.MergeService;
import dev.paddock.sandbox.RemoveMode;
import dev.paddock.sandbox.SandboxConflictException;
import dev.paddock.sandbox.SandboxException;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxService;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.worktree.GitCli;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Review before merge (docs/decisions/0022-review-gate.md): comments on a sandbox's change, and a person's three
 * decisions on it. Approving puts its branch in the merge queue; rejecting removes the sandbox (its branch kept);
 * requesting changes sends the unsent comments to its agent ({@link ChangeRequests}). Each writes its event.
 */
public final class ReviewService {
    /** Longest comment, in characters. */
    public static final int BODY_MAX = 8192;

    private final ReviewStore store;
    private final SandboxService sandboxes;
    private final MergeService merges;
    private final dev.paddock.publish.PublishService publish;
    private final EventLog events;
    private final CommentContext context;
    private final ChangeRequests changes;

    public ReviewService(
            ReviewStore store,
            SandboxService sandboxes,
            MergeService merges,
            dev.paddock.publish.PublishService publish,
            EventLog events,
            GitCli git) {
        this.store = store;
        this.sandboxes = sandboxes;
        this.merges = merges;
        this.publish = publish;
        this.events = events;
        this.context = new CommentContext(git);
        this.changes = new ChangeRequests(store, sandboxes, events);
    }

    /**
     * Adds a comment on the sandbox's change, against its branch's tip now; a comment on a line quotes that line.
     *
     * @param path the file (relative to the repository); null for a general comment
     * @param line the line in that file, from 1; null for a comment on the whole file (or a general one)
     * @param side {@code old} or {@code new} (null: new); only with a line
     * @throws SandboxException when the text is empty or too long, a line comes without a file, the line is not a
     *     positive number or not in the file, the file is in neither the worktree nor the base, or the path leaves the
     *     repository
     * @throws dev.paddock.sandbox.SandboxNotFoundException when there is no such sandbox
     */
    public ReviewComment comment(String sandboxId, String path, Integer line, String side, String body, String who)
            throws PaddockException {
        String text = body == null ? "" : body.strip();
        if (text.isEmpty()) {
            throw new SandboxException("The comment is empty: say what should change.");
        }
        if (text.length() > BODY_MAX) {
            throw new SandboxException(
                    "The comment is " + text.length() + " characters long; at most " + BODY_MAX + " are taken.");
        }
        String file = path == null || path.isBlank() ? null : CommentContext.checkedPath(path);
        if (line != null && (file == null || line < 1)) {
            throw new SandboxException(
                    file == null
                            ? "A comment on a line needs its file (--file PATH)."
                            : "Lines are counted from 1, not " + line + ".");
        }
        ReviewComment.Side s;
        try {
            s = line == null ? null : ReviewComment.Side.of(side);
        } catch (IllegalArgumentException e) {
            throw new SandboxException(e.getMessage());
        }
        SandboxRecord sb = sandboxes.find(sandboxId);
        String commit = context.commitOf(sb).orElse(null);
        String quoted = null;
        if (line != null) {
            quoted = context.quote(sb, commit, file, line, s)
                    .orElseThrow(() -> new SandboxException(file + " has no line " + line + " in "
                            + (s == ReviewComment.Side.OLD
                                    ? "the sandbox's base (--old is the file before the change)"
                                    : "the sandbox's change")
                            + "."));
        } else if (file != null && !context.exists(sb, file)) {
            throw new SandboxException(file + " is neither in the sandbox's worktree nor in its base.");
        }
        ReviewComment c = new ReviewComment(0, sandboxId, commit, file, line, s, quoted, text, who, null, null);
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("where", c.where());
        d.put("by", who);
        if (commit != null) {
            d.put("commit", commit);
        }
        return store.add(
                new ReviewStore.Draft(sandboxId, commit, file, line, s, quoted, text, who),
                EventDraft.of(
                        sb.repositoryId(),
                        sandboxId,
                        EventKinds.REVIEW_COMMENTED,
                        who + " commented on " + sandboxId + " (" + c.where() + "): " + shorten(text),
                        d));
    }

    /** The sandbox's comments, oldest first. @throws dev.paddock.sandbox.SandboxNotFoundException */
    public List<ReviewComment> comments(String sandboxId) throws PaddockException {
        sandboxes.find(sandboxId);
        return store.of(sandboxId);
    }

    /**
     * Deletes a comment not yet sent to the agent.
     *
     * @throws SandboxException when there is no such comment on that sandbox
     * @throws SandboxConflictException when it was sent already (it is part of the agent's history)
     */
    public void deleteComment(String sandboxId, long commentId, String who) throws PaddockException {
        SandboxRecord sb = sandboxes.find(sandboxId);
        ReviewComment c = store.find(commentId)
                .filter(x -> x.sandboxId().equals(sandboxId))
                .orElseThrow(() -> new CommentNotFoundException(sandboxId, commentId));
        if (c.sent()) {
            throw new SandboxConflictException("Comment " + commentId + " went to the agent in round " + c.round()
                    + "; it stays in the review's history.");
        }
        store.delete(
                commentId,
                EventDraft.of(
                        sb.repositoryId(),
                        sandboxId,
                        EventKinds.REVIEW_COMMENT_DELETED,
                        who + " deleted comment " + commentId + " on " + sandboxId + " (" + c.where() + ")",
                        Map.of("comment", commentId, "by", who)));
    }

    /**
     * Approves the sandbox's change: its branch enters the merge queue (the entry names {@code who} as the one who
     * asked), or, when its repository's approved work is pushed (merge target {@code push}), its branch is pushed to
     * the target's remote (and a pull request opened when the setting asks for one). Allowed while it is ready for
     * review, and for a done sandbox (a repository whose review is {@code auto}, one whose approved work is pushed, or
     * one whose entry left the queue).
     *
     * @throws SandboxConflictException when it is in any other state
     */
    public Approval approve(String sandboxId, String who) throws PaddockException {
        SandboxRecord s = sandboxes.find(sandboxId);
        if (s.state() != SandboxState.REVIEW && s.state() != SandboxState.DONE) {
            throw new SandboxConflictException(sandboxId + " is " + s.state().label()
                    + "; only a sandbox ready for review (or done) can be approved.");
        }
        if (publish.target(s).pushes()) {
            dev.paddock.publish.PublishResult r = publish.publishApproved(sandboxId, who);
            events.append(EventDraft.of(
                    s.repositoryId(),
                    sandboxId,
                    EventKinds.REVIEW_APPROVED,
                    who + " approved " + sandboxId + "; " + r.shortMessage(),
                    Map.of("by", who, "branch", s.workspace().branch(), "pushed", true)));
            return new Approval(null, r);
        }
        MergeEntry e = merges.enqueueSandbox(sandboxId, who);
        events.append(EventDraft.of(
                s.repositoryId(),
                sandboxId,
                EventKinds.REVIEW_APPROVED,
                who + " approved " + sandboxId + "; " + s.workspace().branch() + " entered the merge queue",
                Map.of("by", who, "branch", s.workspace().branch(), "entry", e.id())));
        return new Approval(e, null);
    }

    /**
     * What an approval did.
     *
     * @param entry the merge queue's entry, or null when the branch was pushed instead
     * @param published what the push (and pull request) did, or null when the branch entered the merge queue
     */
    public record Approval(MergeEntry entry, dev.paddock.publish.PublishResult published) {
        /** What a person is told. */
        public String message() {
            return entry != null
                    ? "Approved: " + entry.label() + " entered the merge queue."
                    : "Approved: " + published.shortMessage();
        }
    }

    /**
     * Rejects the sandbox's change: with {@code comment}, that is stored first; then the sandbox is removed as
     * {@code paddock sandbox rm --commit} removes one (leftover files are committed on its branch, the branch is
     * kept, the worktree goes).
     *
     * @throws SandboxConflictException when its agent still runs, or it is in the merge queue, merged or removed
     */
    public SandboxRecord reject(String sandboxId, String comment, String who) throws PaddockException {
        SandboxRecord s = sandboxes.find(sandboxId);
        if (!s.state().canBecome(SandboxState.CLEANING)
                || s.state() == SandboxState.PENDING
                || s.state() == SandboxState.RETRYING
                || s.state() == SandboxState.MERGED) {
            throw new SandboxConflictException(sandboxId + " is " + s.state().label()
                    + "; only a finished sandbox that is not merged can be rejected.");
        }
        if (comment != null && !comment.isBlank()) {
            comment(sandboxId, null, null, null, comment, who);
        }
        SandboxRecord removed = sandboxes.remove(sandboxId, RemoveMode.COMMIT, false, who);
        events.append(EventDraft.of(
                s.repositoryId(),
                sandboxId,
                EventKinds.REVIEW_REJECTED,
                who + " rejected " + sandboxId + "; it is removed, its branch "
                        + s.workspace().branch() + " kept"
                        + (comment == null || comment.isBlank() ? "" : ": " + shorten(comment.strip())),
                Map.of("by", who, "branch", s.workspace().branch())));
        return removed;
    }

    /**
     * Requests changes: with {@code comment}, a general comment is added first; then every unsent comment goes to
     * the agent and the sandbox runs again. See {@link ChangeRequests#request}.
     */
    public ChangeRequests.Sent requestChanges(String sandboxId, String comment, String who) throws PaddockException {
        SandboxRecord s = sandboxes.find(sandboxId);
        changes.check(s);
        if (comment != null && !comment.isBlank()) {
            comment(sandboxId, null, null, null, comment, who);
        }
        return changes.request(sandboxId, who);
    }

    static String shorten(String text) {
        String one = text.replace('\n', ' ');
        return one.length() > 200 ? one.substring(0, 200) + "…" : one;
    }
}
