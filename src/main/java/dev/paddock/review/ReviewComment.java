package dev.paddock.review;

import java.time.Instant;

/**
 * A comment on a sandbox's change.
 *
 * @param id its number, unique in the store
 * @param sandboxId the sandbox whose change it is on
 * @param commit the commit it was written against (the sandbox branch's tip then), or null when there was none
 * @param path the file, relative to the repository; null for a general comment
 * @param line the line (from 1) in that file; null for a general comment or one on a whole file
 * @param side which version of the file the line is in ({@code old}: base's; {@code new}: the change's); null
 *     without a line
 * @param quoted the line's text as it was when the comment was written; null when it could not be read
 * @param body what the person wrote
 * @param author who wrote it
 * @param createdAt when
 * @param round the request for changes that sent it to the agent (1, 2, …); null while not sent
 */
public record ReviewComment(
        long id,
        String sandboxId,
        String commit,
        String path,
        Integer line,
        Side side,
        String quoted,
        String body,
        String author,
        Instant createdAt,
        Integer round) {

    /** Which version of a file a line is in. */
    public enum Side {
        /** Base's version (a removed or changed line). */
        OLD,
        /** The change's version (the default). */
        NEW;

        /** The stored and typed name, lower case. */
        @com.fasterxml.jackson.annotation.JsonValue
        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** Parses {@code old} or {@code new} (any case); null or blank is {@link #NEW}. */
        @com.fasterxml.jackson.annotation.JsonCreator
        public static Side of(String id) {
            if (id == null || id.isBlank()) {
                return NEW;
            }
            return switch (id.strip().toLowerCase(java.util.Locale.ROOT)) {
                case "old" -> OLD;
                case "new" -> NEW;
                default -> throw new IllegalArgumentException("unknown side \"" + id + "\": use old or new");
            };
        }
    }

    /** Whether it was sent to the agent already. */
    public boolean sent() {
        return round != null;
    }

    /** Where it points, for people: {@code src/a.txt:12}, {@code src/a.txt}, or "general". */
    public String where() {
        if (path == null) {
            return "general";
        }
        return line == null ? path : path + ":" + line + (side == Side.OLD ? " (old)" : "");
    }
}
