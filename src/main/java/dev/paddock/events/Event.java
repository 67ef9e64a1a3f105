package dev.paddock.events;

import java.time.Instant;

/**
 * One entry of the append-only audit log.
 *
 * @param id store id, increasing with time
 * @param at when it happened (UTC)
 * @param repositoryId the repository it concerns, or null
 * @param sandboxId the sandbox it concerns, or null
 * @param kind a dotted kind such as {@code worktree.added} (see {@link EventKinds})
 * @param message one line for people
 * @param details a JSON object with the machine-readable facts, or null
 */
public record Event(
        long id, Instant at, Long repositoryId, String sandboxId, String kind, String message, String details) {}
