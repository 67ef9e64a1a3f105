package dev.paddock.api;

/**
 * Who sent a request, from its bearer token: the install (the token of {@code api-token}, which may do
 * everything) or one sandbox's agent (its {@code PADDOCK_TOKEN}, which may only send that sandbox's
 * heartbeats).
 *
 * @param sandboxId the sandbox whose token was presented, or null for the install token
 */
record Caller(String sandboxId) {
    static final Caller INSTALL = new Caller(null);

    static Caller sandbox(String id) {
        return new Caller(id);
    }

    boolean isInstall() {
        return sandboxId == null;
    }

    /** Whether this caller may act on sandbox {@code id}'s heartbeat. */
    boolean mayHeartbeat(String id) {
        return isInstall() || sandboxId.equals(id);
    }
}
