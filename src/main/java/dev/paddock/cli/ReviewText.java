package dev.paddock.cli;

import dev.paddock.review.ReviewComment;
import java.util.List;

/** What the review commands print. */
final class ReviewText {
    private ReviewText() {}

    /** Each comment: number, where, who, sent or not, the quoted line and the text. */
    static String comments(String id, List<ReviewComment> all) {
        if (all.isEmpty()) {
            return "No comments on " + id + " (paddock sandbox comment " + id + " TEXT adds one).\n";
        }
        StringBuilder b = new StringBuilder();
        for (ReviewComment c : all) {
            b.append('#')
                    .append(c.id())
                    .append("  ")
                    .append(c.where())
                    .append("  ")
                    .append(c.author())
                    .append("  ")
                    .append(c.sent() ? "sent in round " + c.round() : "not sent yet")
                    .append('\n');
            if (c.quoted() != null) {
                b.append("    > ").append(c.quoted().strip()).append('\n');
            }
            for (String line : c.body().split("\n", -1)) {
                b.append("    ").append(line).append('\n');
            }
        }
        return b.toString();
    }
}
