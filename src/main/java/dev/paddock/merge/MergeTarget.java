package dev.paddock.merge;

import java.util.Locale;

/**
 * Where a repository's approved work goes (columns {@code merge_target}, {@code merge_remote},
 * {@code merge_pull_request} of {@code repositories}).
 *
 * @param kind {@link Kind#LOCAL}: merged into the local base by the merge queue (the default); {@link Kind#PUSH}:
 *     the branch is pushed to a remote instead, and the queue does not merge it
 * @param remote the remote pushed to; null: {@code origin}, or the repository's only remote
 * @param pullRequest whether a pushed branch also gets a pull request (through the GitHub CLI, when it is set up)
 */
public record MergeTarget(Kind kind, String remote, boolean pullRequest) {
    /** Merged locally, as the queue always did. */
    public static final MergeTarget LOCAL = new MergeTarget(Kind.LOCAL, null, false);

    public MergeTarget {
        kind = kind == null ? Kind.LOCAL : kind;
        remote = remote == null || remote.isBlank() ? null : remote.strip();
    }

    /** Whether approved work is pushed rather than merged into the local base. */
    public boolean pushes() {
        return kind == Kind.PUSH;
    }

    /** The remote as shown to a person: its name, or what is used without one. */
    public String remoteShown() {
        return remote == null ? "(origin, or the only remote)" : remote;
    }

    /** Where approved work goes. */
    public enum Kind {
        LOCAL,
        PUSH;

        /** The stored and typed name, lower case. */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * Parses a stored or typed name ({@code local}, {@code push}, any case); null or blank means {@link #LOCAL}.
         *
         * @throws IllegalArgumentException for anything else, naming the allowed values
         */
        public static Kind of(String id) {
            if (id == null || id.isBlank()) {
                return LOCAL;
            }
            return switch (id.strip().toLowerCase(Locale.ROOT)) {
                case "local" -> LOCAL;
                case "push" -> PUSH;
                default ->
                    throw new IllegalArgumentException("unknown merge target \"" + id
                            + "\": use local (merged into the local base branch) or push (pushed to a remote)");
            };
        }
    }
}
