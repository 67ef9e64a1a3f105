/**
 * A sandbox's whole change against its base ({@link dev.paddock.diff.DiffService}): the files changed since its base
 * commit, committed or not (untracked files included, ignored ones not), with their line counts, each file's hunks on
 * request, and the unified patch. What {@code paddock sandbox diff} and {@code GET /v1/sandboxes/{id}/diff} show.
 */
package dev.paddock.diff;
