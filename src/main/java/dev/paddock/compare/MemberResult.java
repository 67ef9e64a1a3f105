package dev.paddock.compare;

/**
 * One sandbox of a fan-out and what it came to, as {@link GroupComparer} reads it; a figure that is not known is null.
 *
 * @param id the sandbox's id
 * @param agent its agent preset ({@code claude}, {@code codex}, ..., {@code custom})
 * @param model the model asked for, or null for the agent's default
 * @param state its state ({@code running}, {@code done}, {@code merged}, ...)
 * @param branch its branch
 * @param commits commits its branch made since the commit the group started from; null when the branch is gone
 * @param files files those commits changed
 * @param added lines they added
 * @param deleted lines they deleted
 * @param mergeState the state of its newest merge queue entry ({@code queued}, {@code merged}, {@code failed}, ...),
 *     or null when it was never enqueued
 * @param testsPassed whether the merge queue's last test run passed; null when none ran
 * @param toolCalls tool calls in its transcript
 * @param deniedCalls those the policy, a person or a timeout refused
 * @param errors errors in its transcript (error entries and failed tool results, but not the results of denied
 *     calls)
 * @param tokensIn input tokens its agent reported, or null
 * @param tokensOut output tokens its agent reported, or null
 * @param costUsd the cost its agent reported, in US dollars, or null
 * @param runs how many times its agent was started
 * @param runMs how long its last run took (so far, while it runs), or null before it first started
 */
public record MemberResult(
        String id,
        String agent,
        String model,
        String state,
        String branch,
        Integer commits,
        Integer files,
        Long added,
        Long deleted,
        String mergeState,
        Boolean testsPassed,
        int toolCalls,
        int deniedCalls,
        int errors,
        Long tokensIn,
        Long tokensOut,
        Double costUsd,
        int runs,
        Long runMs) {

    /** "passed", "failed", or null when no test ran. */
    public String testVerdict() {
        return testsPassed == null ? null : testsPassed ? "passed" : "failed";
    }

    /** Input and output tokens together, or null when the agent reported none. */
    public Long tokens() {
        return tokensIn == null && tokensOut == null
                ? null
                : (tokensIn == null ? 0 : tokensIn) + (tokensOut == null ? 0 : tokensOut);
    }
}
