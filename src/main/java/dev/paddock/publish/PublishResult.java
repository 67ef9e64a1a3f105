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
        String out = push.message();
        if (pullRequestUrl != null) {
            out += " Pull request: " + pullRequestUrl;
        } else if (note != null) {
            out += " No pull request: " + note + ".";
        }
        return out;
    }
}
