package dev.paddock.events;

/** The event kinds Paddock writes. Dotted: the part before the dot names the feature. */
public final class EventKinds {
    public static final String REPOSITORY_REGISTERED = "repository.registered";
    public static final String REPOSITORY_OPENED = "repository.opened";
    public static final String WORKTREE_ADDED = "worktree.added";
    public static final String WORKTREE_REMOVED = "worktree.removed";
    public static final String WORKTREE_HEAD_MOVED = "worktree.head_moved";
    public static final String WORKTREE_BRANCH_CHANGED = "worktree.branch_changed";
    public static final String WORKTREE_DIRTY = "worktree.dirty";
    public static final String WORKTREE_CLEAN = "worktree.clean";
    public static final String WORKTREE_LOCKED = "worktree.locked";
    public static final String WORKTREE_UNLOCKED = "worktree.unlocked";
    public static final String WORKTREE_PRUNABLE = "worktree.prunable";
    /** A worktree's folder disappeared from disk while git still lists it (e.g. locked, so never prunable). */
    public static final String WORKTREE_MISSING = "worktree.missing";
    /** A person changed a setting ({@code paddock config set}, {@code PUT /v1/settings/{name}}). */
    public static final String SETTING_CHANGED = "setting.changed";
    /** A person put a setting back to its default ({@code paddock config reset}). */
    public static final String SETTING_RESET = "setting.reset";
    /** An agent's request waits for a person (approval queue). */
    public static final String APPROVAL_REQUESTED = "approval.requested";
    /** A request was allowed, by the policy or a person ({@code details.decidedBy}). */
    public static final String APPROVAL_APPROVED = "approval.approved";
    /** A request was refused, by the policy or a person ({@code details.decidedBy}). */
    public static final String APPROVAL_DENIED = "approval.denied";
    /** Nobody answered a request before its expiry: it was denied. */
    public static final String APPROVAL_EXPIRED = "approval.expired";
    /** A pending request lost its requester (gone, or its sandbox stopped). */
    public static final String APPROVAL_CANCELLED = "approval.cancelled";

    /** A branch entered its repository's merge queue (by a finished sandbox or a person). */
    public static final String MERGE_ENQUEUED = "merge.enqueued";
    /** The queue took an entry: bringing its branch up to date with base. */
    public static final String MERGE_UPDATING = "merge.updating";
    /** The queue runs the repository's test command on the candidate result. */
    public static final String MERGE_TESTING = "merge.testing";
    /** The queue commits the merge and moves base. */
    public static final String MERGE_MERGING = "merge.merging";
    /** Base now holds the branch (a --no-ff merge commit). */
    public static final String MERGE_MERGED = "merge.merged";
    /** The merge stopped on conflicts: the entry waits in the conflict queue. */
    public static final String MERGE_CONFLICT = "merge.conflict";
    /** An attempt failed (tests, timeout, git): back in the queue, or to a person after the last attempt. */
    public static final String MERGE_FAILED = "merge.failed";
    /** The queue waits: base's checked-out tree has uncommitted changes (named in the message). */
    public static final String MERGE_REFUSED = "merge.refused";
    /** An attempt was put back in the queue without counting (base moved, Paddock restarted). */
    public static final String MERGE_REQUEUED = "merge.requeued";
    /** A person cancelled an entry. */
    public static final String MERGE_CANCELLED = "merge.cancelled";
    /** A person put an entry back in the queue. */
    public static final String MERGE_RETRIED = "merge.retried";
    /** A person resolved a conflicted file ({@code details.path}, {@code details.by}). */
    public static final String MERGE_RESOLVED = "merge.resolved";
    /** A person reopened a resolved file of a conflicted merge ({@code details.path}, {@code details.by}). */
    public static final String MERGE_UNRESOLVED = "merge.unresolved";
    /** A person aborted a conflicted merge: base untouched, the merge worktree removed. */
    public static final String MERGE_ABORTED = "merge.aborted";
    /**
     * A branch changes policy or hook configuration and waits for a person's review ({@code details.files},
     * {@code details.commit}: the commit under review).
     */
    public static final String MERGE_POLICY_REVIEW = "merge.policy_review";
    /** A person approved an entry's policy change at {@code details.commit}: it is back in the queue. */
    public static final String MERGE_POLICY_APPROVED = "merge.policy_approved";
    /** A person rejected an entry's policy change: it is cancelled, base unchanged. */
    public static final String MERGE_POLICY_REJECTED = "merge.policy_rejected";

    /** A sandbox's branch was pushed to a remote ({@code details.remote}, {@code details.branch}, {@code details.commit}). */
    public static final String SANDBOX_PUSHED = "sandbox.pushed";
    /** A pull request was opened for a sandbox's branch ({@code details.url}, {@code details.base}). */
    public static final String SANDBOX_PULL_REQUEST_OPENED = "sandbox.pull_request_opened";

    /**
     * A sandbox's agent ended its turn (Claude Code's Stop hook): it waits for a follow-up ("waiting for you";
     * {@code details.run}, {@code details.session}, {@code details.via}: {@code api} or {@code file}).
     */
    public static final String AGENT_TURN_ENDED = "agent.turn_ended";
    /** A sandbox's agent waits for a person (Claude Code's Notification hook; {@code details.notificationType}). */
    public static final String AGENT_WAITING = "agent.waiting";
    /** A checkpoint of a sandbox's files was taken ({@code details.number}, {@code details.commit}, {@code details.by}). */
    public static final String CHECKPOINT_CREATED = "checkpoint.created";
    /**
     * A sandbox's files were rolled back to a checkpoint ({@code details.to}; {@code details.before}: the checkpoint
     * that undoes it).
     */
    public static final String CHECKPOINT_ROLLED_BACK = "checkpoint.rolled_back";
    /** A sandbox's change waits for a person's review (its move {@code done → review}). */
    public static final String REVIEW_READY = "sandbox.review";
    /** A person commented on a sandbox's change. */
    public static final String REVIEW_COMMENTED = "review.commented";
    /** A person deleted a comment that was not sent yet. */
    public static final String REVIEW_COMMENT_DELETED = "review.comment_deleted";
    /** A person approved a sandbox's change: it enters the merge queue. */
    public static final String REVIEW_APPROVED = "review.approved";
    /** A person rejected a sandbox's change: the sandbox is removed, its branch kept. */
    public static final String REVIEW_REJECTED = "review.rejected";
    /** A person requested changes: the comments went to the agent, which runs again. */
    public static final String REVIEW_CHANGES_REQUESTED = "review.changes_requested";

    private EventKinds() {}
}
