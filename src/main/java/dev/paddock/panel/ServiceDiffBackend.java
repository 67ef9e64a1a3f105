package dev.paddock.panel;

import dev.paddock.common.PaddockException;
import dev.paddock.diff.DiffOptions;
import dev.paddock.diff.DiffService;
import dev.paddock.diff.FilePatch;
import dev.paddock.diff.SandboxDiff;
import dev.paddock.review.ReviewComment;
import dev.paddock.review.ReviewService;
import dev.paddock.ui.diff.DiffBackend;
import java.util.List;

/** The diff window's backend: the diff package's view of a sandbox's change, and the review package's comments. */
public final class ServiceDiffBackend implements DiffBackend {
    private final DiffService diffs;
    private final ReviewService reviews;
    private final String who;

    /** @param who whom comments written in the panel are recorded as */
    public ServiceDiffBackend(DiffService diffs, ReviewService reviews, String who) {
        this.diffs = diffs;
        this.reviews = reviews;
        this.who = who;
    }

    @Override
    public SandboxDiff diff(String sandboxId, DiffOptions options) throws PaddockException {
        return diffs.diff(sandboxId, options);
    }

    @Override
    public FilePatch file(String sandboxId, String path, DiffOptions options) throws PaddockException {
        return diffs.file(sandboxId, path, options);
    }

    @Override
    public List<Comment> comments(String sandboxId) throws PaddockException {
        return reviews.comments(sandboxId).stream()
                .map(ServiceDiffBackend::view)
                .toList();
    }

    @Override
    public Comment comment(String sandboxId, String path, int line, boolean oldSide, String body)
            throws PaddockException {
        return view(reviews.comment(
                sandboxId, path, path == null || line <= 0 ? null : line, oldSide ? "old" : "new", body, who));
    }

    private static Comment view(ReviewComment c) {
        return new Comment(
                c.id(),
                c.path(),
                c.line() == null ? 0 : c.line(),
                c.side() == ReviewComment.Side.OLD,
                c.body(),
                c.author(),
                c.createdAt(),
                c.sent());
    }
}
