package dev.paddock.isolation;

import java.nio.file.Path;

/**
 * A shared read-only folder shown to a namespace run through an overlay (see
 * docs/decisions/0024-shared-layers-through-overlays.md): {@code lower} is the shared layer, never written; the run's
 * writes land in {@code dir/upper} (with overlayfs's {@code dir/work} beside it), and the merged view, mounted at
 * {@code dir/merged}, is shown at {@code target}.
 *
 * @param folder the folder as the repository names it ({@code node_modules}, {@code ~/.m2}), for messages
 * @param lower the shared layer's folder (read-only to every sandbox)
 * @param dir the sandbox's own folder for this layer: {@code upper}, {@code work} and {@code merged} in it
 * @param target where the run sees the merged folder (an absolute path inside the sandbox)
 * @param capBytes the most the run may write into the layer (a size-limited tmpfs that lasts as long as the run),
 *     or 0 for no cap (the writes are kept on disk)
 */
public record LayerMount(String folder, Path lower, Path dir, String target, long capBytes) {
    public LayerMount {
        for (Path p : new Path[] {lower, dir}) {
            if (!p.isAbsolute() || !overlaySafe(p.toString())) {
                throw new IllegalArgumentException("The path " + p
                        + " cannot be given to overlayfs (it must be absolute, without commas, colons,"
                        + " backslashes or line breaks).");
            }
        }
        if (!target.startsWith("/")) {
            throw new IllegalArgumentException("The layer's target must be absolute: " + target);
        }
        if (capBytes < 0) {
            throw new IllegalArgumentException("A layer's cap cannot be negative: " + capBytes);
        }
    }

    /** Where the run's writes land. */
    public Path upper() {
        return dir.resolve("upper");
    }

    /** Whether overlayfs's mount options can carry the path (they are separated by commas and colons). */
    public static boolean overlaySafe(String path) {
        return path.chars().noneMatch(c -> c == ',' || c == ':' || c == '\\' || c < 0x20 || c == 0x7f);
    }
}
