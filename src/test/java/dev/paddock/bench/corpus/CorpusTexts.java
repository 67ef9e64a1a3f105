package dev.paddock.bench.corpus;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.util.RawParseUtils;

/**
 * Reads the texts of corpus rows from the mirrors of the public repositories (read-only): a mirror is
 * {@code MIRRORS/owner+name/repo}, a bare git directory. The mirrors folder comes from the system property
 * {@code paddock.corpus.mirrors}, else the environment variable {@code PADDOCK_CORPUS_MIRRORS}, else
 * {@code /work/.mirror}.
 */
public final class CorpusTexts implements AutoCloseable {
    private final Path mirrors;
    private final Map<String, Repository> open = new HashMap<>();

    public CorpusTexts(Path mirrors) {
        this.mirrors = mirrors;
    }

    /** The mirrors folder configured for this run. */
    public static Path mirrorsFolder() {
        String p = System.getProperty("paddock.corpus.mirrors");
        if (p == null || p.isBlank()) {
            p = System.getenv("PADDOCK_CORPUS_MIRRORS");
        }
        return Path.of(p == null || p.isBlank() ? "/work/.mirror" : p);
    }

    /** The bare git directory of a repository's mirror. */
    public Path gitDir(String repo) {
        return mirrors.resolve(repo).resolve("repo");
    }

    /** The repositories (of {@code rows}) whose mirror is missing. */
    public List<String> missing(List<CorpusRow> rows) {
        List<String> out = new ArrayList<>();
        rows.stream().map(CorpusRow::repo).distinct().sorted().forEach(r -> {
            if (!Files.isDirectory(gitDir(r).resolve("objects"))) {
                out.add(r);
            }
        });
        return out;
    }

    /** The lines of {@code path} at {@code commit} (terminators and a trailing {@code \r} removed). */
    public List<String> lines(String repo, String commit, String path) throws IOException {
        return split(text(repo, commit, path));
    }

    /** The text of {@code path} at {@code commit}. */
    public String text(String repo, String commit, String path) throws IOException {
        Repository db = repository(repo);
        try (RevWalk walk = new RevWalk(db);
                TreeWalk tw = TreeWalk.forPath(
                        db, path, walk.parseCommit(ObjectId.fromString(commit)).getTree())) {
            if (tw == null) {
                throw new IOException(path + " is not in " + commit + " of " + repo);
            }
            return RawParseUtils.decode(
                    db.open(tw.getObjectId(0), Constants.OBJ_BLOB).getBytes(Integer.MAX_VALUE));
        }
    }

    /** The base, ours, theirs and merged lines of a row's hunk. */
    public List<List<String>> hunk(CorpusRow r) throws IOException {
        return List.of(
                lines(r.repo(), r.base(), r.path()).subList(r.baseStart(), r.baseEnd()),
                lines(r.repo(), r.ours(), r.path()).subList(r.oursStart(), r.oursEnd()),
                lines(r.repo(), r.theirs(), r.path()).subList(r.theirsStart(), r.theirsEnd()),
                lines(r.repo(), r.merge(), r.path()).subList(r.mergedStart(), r.mergedEnd()));
    }

    private Repository repository(String repo) throws IOException {
        Repository db = open.get(repo);
        if (db == null) {
            db = new FileRepositoryBuilder()
                    .setGitDir(gitDir(repo).toFile())
                    .setMustExist(true)
                    .build();
            open.put(repo, db);
        }
        return db;
    }

    /** Splits as {@code merge.conflict} does: at {@code \n}, a trailing {@code \r} dropped, no empty last line. */
    public static List<String> split(String text) {
        List<String> lines = new ArrayList<>();
        int start = 0;
        while (start < text.length()) {
            int nl = text.indexOf('\n', start);
            int end = nl < 0 ? text.length() : nl;
            String l = text.substring(start, end);
            lines.add(l.endsWith("\r") ? l.substring(0, l.length() - 1) : l);
            start = nl < 0 ? text.length() : nl + 1;
        }
        return lines;
    }

    @Override
    public void close() {
        open.values().forEach(Repository::close);
        open.clear();
    }
}
