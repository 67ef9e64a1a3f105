package dev.paddock.sandbox;

/**
 * A strict removal (or a commit that could not keep everything) was refused because work would be lost;
 * nothing was removed. The message lists what would be lost and the choices; {@link #plan()} has it as data.
 */
public class RemovalRefusedException extends SandboxConflictException {
    private static final long serialVersionUID = 1L;

    private final transient RemovalPlan plan;

    public RemovalRefusedException(String message, RemovalPlan plan) {
        super(message);
        this.plan = plan;
    }

    /** What the removal would have lost. */
    public RemovalPlan plan() {
        return plan;
    }
}
