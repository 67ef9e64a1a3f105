package dev.paddock.layer;

import dev.paddock.isolation.LayerMount;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * The folders a repository may share as layers: a folder of the worktree ({@code node_modules},
 * {@code web/node_modules}, {@code .venv}) or of the sandbox's home ({@code ~/.m2}). Never the worktree itself, git's
 * folder, Paddock's, a path that leaves the worktree, or one overlayfs cannot be given.
 */
public final class LayerFolders {
    /** The most folders a repository may share. */
    public static final int MAX = 16;

    /** The home folder inside a namespace sandbox (its private {@code /tmp}). */
    static final String SANDBOX_HOME = "/tmp/home";

    /** Top folders of a worktree that belong to git or Paddock (the main checkout's holds every sandbox). */
    private static final java.util.Set<String> PADDOCKS = java.util.Set.of(".git", ".paddock", ".worktrees");

    private LayerFolders() {}

    /** The folders, each checked and written in one form ({@code ./a//b/} is {@code a/b}), without repeats. */
    public static List<String> check(List<String> folders) throws LayerException {
        if (folders.size() > MAX) {
            throw new LayerException("A repository can share at most " + MAX + " folders, not " + folders.size() + ".");
        }
        LinkedHashSet<String> out = new LinkedHashSet<>();
        for (String f : folders) {
            String c = check(f);
            for (String other : out) {
                if (nested(c, other) || nested(other, c)) {
                    throw new LayerException("The shared folders " + other + " and " + c + " lie one in the other;"
                            + " share the outer one alone.");
                }
            }
            out.add(c);
        }
        return List.copyOf(out);
    }

    private static boolean nested(String inner, String outer) {
        return inner.startsWith(outer + "/");
    }

    /** One folder, checked and written in one form. */
    public static String check(String folder) throws LayerException {
        String f = folder == null ? "" : folder.strip();
        boolean home = f.startsWith("~/");
        String rel = home ? f.substring(2) : f;
        Optional<String> problem = problem(rel);
        if (problem.isPresent()) {
            throw new LayerException("\"" + folder + "\" cannot be a shared folder: " + problem.get());
        }
        List<String> parts = new ArrayList<>();
        for (String p : rel.split("/")) {
            if (!p.isEmpty() && !p.equals(".")) {
                parts.add(p);
            }
        }
        String norm = String.join("/", parts);
        if (!home && PADDOCKS.contains(parts.get(0))) {
            throw new LayerException("\"" + folder + "\" cannot be a shared folder: it belongs to git or Paddock.");
        }
        return home ? "~/" + norm : norm;
    }

    private static Optional<String> problem(String rel) {
        if (rel.isEmpty() || rel.startsWith("/")) {
            return Optional.of("give a folder of the worktree (node_modules) or of the home (~/.m2).");
        }
        if (!LayerMount.overlaySafe(rel) || rel.contains("'")) {
            return Optional.of("it has a comma, colon, quote, backslash or control character.");
        }
        boolean any = false;
        for (String p : rel.split("/")) {
            if (p.equals("..")) {
                return Optional.of("it has a \"..\" in it (name the folder itself, inside the worktree or the home).");
            }
            any |= !p.isEmpty() && !p.equals(".");
        }
        return any ? Optional.empty() : Optional.of("it is the worktree itself.");
    }

    /**
     * The first part of {@code root/relative} that exists but is not a real folder (a file, or a link: what lies
     * below it would be somewhere else), if any. Parts that do not exist are not looked at further.
     */
    static Optional<Path> notAFolder(Path root, String relative) {
        Path place = root;
        for (Path part : Path.of(relative)) {
            place = place.resolve(part.toString());
            if (!Files.exists(place, LinkOption.NOFOLLOW_LINKS)) {
                return Optional.empty();
            }
            if (!Files.isDirectory(place, LinkOption.NOFOLLOW_LINKS)) {
                return Optional.of(place);
            }
        }
        return Optional.empty();
    }

    /** Whether the folder lies in the sandbox's home rather than its worktree. */
    static boolean inHome(String folder) {
        return folder.startsWith("~/");
    }

    /** The folder's file name in a layer's generation and a sandbox's layer folder (one path component). */
    static String fileName(String folder) {
        return URLEncoder.encode(folder, StandardCharsets.UTF_8);
    }

    /** Where a run in {@code worktree} sees the folder. */
    static String target(String folder, Path worktree) {
        return inHome(folder)
                ? SANDBOX_HOME + "/" + folder.substring(2)
                : worktree.resolve(folder).toString();
    }
}
