package dev.paddock.layer;

/**
 * One path a sandbox changed in a shared folder.
 *
 * @param path the path as the sandbox sees it, from the shared folder's name ({@code node_modules/left-pad/index.js})
 * @param kind what happened to it
 */
public record LayerChange(String path, Kind kind) {
    /** What happened to a path. */
    public enum Kind {
        /** Not in the shared layer; written by the sandbox. */
        ADDED,
        /** In the shared layer; the sandbox's own copy differs (content, mode or owner). */
        MODIFIED,
        /** In the shared layer; deleted by the sandbox. */
        DELETED,
        /** A folder of the shared layer the sandbox removed and made again: only what it holds now is seen. */
        REPLACED
    }
}
