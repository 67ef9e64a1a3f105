package dev.paddock.api;

import dev.paddock.publish.PublishResult;
import dev.paddock.publish.PushResult;

/**
 * A sandbox's branch pushed, and its pull request, as the API shows them ({@code POST /v1/sandboxes/{id}/push},
 * {@code .../pull-request}). No credentials: {@code remoteUrl} has them taken out.
 *
 * @param pullRequestUrl the pull request opened, or null
 * @param note why no pull request was opened when one was wanted, or null
 * @param message what a person is told
 */
public record PublishView(
        String sandbox,
        String remote,
        String remoteUrl,
        String branch,
        String commit,
        int uncommittedFiles,
        String pullRequestUrl,
        String note,
        String message) {
    public static PublishView of(PushResult p) {
        return new PublishView(
                p.sandboxId(),
                p.remote(),
                p.remoteUrl(),
                p.branch(),
                p.commit(),
                p.uncommittedFiles(),
                null,
                null,
                p.message());
    }

    public static PublishView of(PublishResult r) {
        PushResult p = r.push();
        return new PublishView(
                p.sandboxId(),
                p.remote(),
                p.remoteUrl(),
                p.branch(),
                p.commit(),
                p.uncommittedFiles(),
                r.pullRequestUrl(),
                r.note(),
                r.message());
    }
}
