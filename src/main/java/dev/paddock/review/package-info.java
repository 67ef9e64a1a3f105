/**
 * Review before merge: a repository whose review is {@code required} holds a finished sandbox's change in state
 * {@code review} until a person approves it (it enters the merge queue), requests changes (the comments go to the
 * agent, which runs again) or rejects it (the sandbox is removed, its branch kept). Comments on the change are rows
 * of {@code review_comments}. See docs/decisions/0022-review-gate.md.
 */
package dev.paddock.review;
