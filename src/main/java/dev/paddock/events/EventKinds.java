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

    private EventKinds() {
    }
}
