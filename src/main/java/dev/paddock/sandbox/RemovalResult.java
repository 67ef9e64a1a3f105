package dev.paddock.sandbox;

/**
 * The outcome of removing one sandbox of a bulk removal.
 *
 * @param sandboxId the sandbox asked for
 * @param record the closed record when it was removed, else null
 * @param error why it was not removed (the message of the refusal or failure), else null
 */
public record RemovalResult(String sandboxId, SandboxRecord record, String error) {

    /** Whether the sandbox was removed (its record is closed). */
    public boolean removed() {
        return error == null;
    }
}
