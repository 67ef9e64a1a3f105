/**
 * Comparing the sandboxes of a fan-out ({@code sandbox new --agents}): one row per sandbox with what its branch made
 * (commits, files, lines), the merge queue's test verdict, its agent's tool calls, denials, errors, tokens and cost,
 * and its run time. What {@code paddock sandbox compare}, {@code GET /v1/sandboxes/{id}/compare} and the panel's
 * Compare view show ({@link dev.paddock.compare.GroupComparer}).
 */
package dev.paddock.compare;
