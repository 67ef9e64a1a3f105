package dev.paddock.api;

/**
 * Who sent a request: the install (the token of {@code api-token}, which may do everything) or one sandbox's
 * agent (its {@code PADDOCK_TOKEN}, which may only send that sandbox's heartbeats and ask for its decisions).
 * A caller recognised by a hook key ({@link HookAuth}) instead of a token may only ask for decisions through
 * the hook route.
 *
 * @param sandboxId the sandbox whose token or hook key was presented, or null for the install's
 * @param viaHookKey whether the request was recognised by its {@code Paddock-Auth} MAC rather than a token
 */
record Caller(String sandboxId, boolean viaHookKey) {
    static final Caller INSTALL = new Caller(null, false);

    static Caller sandbox(String id) {
        return new Caller(id, false);
    }

    boolean isInstall() {
        return sandboxId == null;
    }

    /** Whether this caller may act on sandbox {@code id}'s heartbeat. */
    boolean mayHeartbeat(String id) {
        return !viaHookKey && (isInstall() || sandboxId.equals(id));
    }
}
