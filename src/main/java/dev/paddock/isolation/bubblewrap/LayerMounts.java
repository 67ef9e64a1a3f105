package dev.paddock.isolation.bubblewrap;

import dev.paddock.isolation.LayerMount;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Mounts a namespace run's shared layers before bubblewrap starts (see
 * docs/decisions/0024-shared-layers-through-overlays.md). bubblewrap 0.8 has no overlay options, so the run's
 * command becomes {@code unshare --user --map-root-user --mount -- /bin/sh -c SCRIPT sh bwrap ...}: in a user and
 * mount namespace of its own the script mounts each layer (a size-limited tmpfs first when it has a cap), then
 * {@code exec}s bwrap, which binds the merged folders like any other. The mounts live in that namespace alone and end
 * with the run: nothing is left mounted on the host, even after {@code kill -9}.
 */
final class LayerMounts {
    /** The merged view's folder in a layer's own folder. */
    static final String MERGED = "merged";

    /** The exit status when a layer cannot be mounted (the log says which and why). */
    static final int MOUNT_FAILED = 125;

    private LayerMounts() {}

    /** The caller's uid and gid, which the run keeps inside bwrap's own user namespace. */
    record Ids(int uid, int gid) {
        static Ids own() throws IOException {
            Path self = Path.of("/proc/self");
            return new Ids(
                    (Integer) Files.getAttribute(self, "unix:uid"), (Integer) Files.getAttribute(self, "unix:gid"));
        }
    }

    /**
     * bwrap's options that keep the caller's identity. Started as uid 0 of unshare's namespace, bwrap takes itself for
     * root and keeps the full bounding set it finds there; a caller that is not root gets none, as without layers.
     */
    static List<String> identity(Ids ids) {
        List<String> c =
                new ArrayList<>(List.of("--uid", Integer.toString(ids.uid()), "--gid", Integer.toString(ids.gid())));
        if (ids.uid() != 0) {
            c.addAll(List.of("--cap-drop", "ALL"));
        }
        return c;
    }

    /** {@code bwrapCommand} run after the layers are mounted in a namespace of its own. */
    static List<String> wrap(List<LayerMount> layers, List<String> bwrapCommand) {
        List<String> c = new ArrayList<>(List.of(
                "unshare", "--user", "--map-root-user", "--mount", "--propagation", "private", "--", "/bin/sh", "-c"));
        c.add(script(layers));
        c.add("paddock-layers");
        c.addAll(bwrapCommand);
        return c;
    }

    /** The POSIX sh script that mounts every layer, then runs its arguments. */
    static String script(List<LayerMount> layers) {
        StringBuilder s = new StringBuilder();
        s.append("fail() { echo \"paddock: the shared layer $1 could not be mounted ($2).\" >&2; exit ")
                .append(MOUNT_FAILED)
                .append("; }\n");
        for (LayerMount l : layers) {
            String d = quote(l.dir().toString());
            String name = quote(l.folder());
            if (l.capBytes() > 0) {
                long kib = Math.max(1, (l.capBytes() + 1023) / 1024);
                s.append("mount -t tmpfs -o size=")
                        .append(kib)
                        .append("k,mode=0700 paddock-layer ")
                        .append(d)
                        .append(" || fail ")
                        .append(name)
                        .append(" 'no tmpfs'\n");
            }
            s.append("mkdir -p ")
                    .append(d)
                    .append("/upper ")
                    .append(d)
                    .append("/work ")
                    .append(d)
                    .append('/')
                    .append(MERGED)
                    .append(" || fail ")
                    .append(name)
                    .append(" 'no folder'\n");
            String options = "userxattr,lowerdir=" + l.lower() + ",upperdir="
                    + l.dir().resolve("upper") + ",workdir=" + l.dir().resolve("work");
            s.append("mount -t overlay paddock-layer -o ")
                    .append(quote(options))
                    .append(' ')
                    .append(d)
                    .append('/')
                    .append(MERGED)
                    .append(" || fail ")
                    .append(name)
                    .append(" 'no overlay'\n");
        }
        s.append("exec \"$@\"\n");
        return s.toString();
    }

    /** A single-quoted sh word. */
    static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
