package dev.paddock.publish;

/**
 * A branch published: pushed, and a pull request opened or not.
 *
 * @param push the push
 * @param pullRequestUrl the pull request's URL, or null when none was opened
 * @param note why no pull request was opened when one was wanted (gh missing or signed out), else null
 */
public record PublishResult(PushResult push, String pullRequestUrl, String note) {
    /** What a person is told. */
    public String message() {
        return with(push.message());
    }

    /** The message in a few words, for a status line (the pull request's URL, or why there is none, last). */
    public String shortMessage() {
        return with(push.shortMessage());
    }

    private String with(String pushed) {
        String out = pushed;
        if (pullRequestUrl != null) {
            out += " Pull request: " + pullRequestUrl;
        } else if (note != null) {
            out += " No pull request: " + note + ".";
        }
        return out;
    }
}
