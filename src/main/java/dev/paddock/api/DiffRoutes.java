package dev.paddock.api;

import com.sun.net.httpserver.HttpExchange;
import dev.paddock.common.PaddockException;
import dev.paddock.diff.DiffException;
import dev.paddock.diff.DiffNotFoundException;
import dev.paddock.diff.DiffOptions;
import dev.paddock.diff.DiffService;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;

/**
 * A sandbox's change against its base, over {@link DiffService} (install token only):
 * <ul>
 *   <li>{@code GET /v1/sandboxes/{id}/diff} → {@link dev.paddock.diff.SandboxDiff}: the files with their counts and
 *       the branch's commits</li>
 *   <li>{@code GET /v1/sandboxes/{id}/diff/file?path=P} → {@link dev.paddock.diff.FilePatch}: one file's hunks</li>
 *   <li>{@code GET /v1/sandboxes/{id}/diff/patch} → the unified patch as text ({@code git diff -M}'s)</li>
 * </ul>
 * Each takes {@code ignoreWhitespace=true}, {@code commit=C} (that commit against its parent), {@code checkpoint=N}
 * (that checkpoint against the one before it) with {@code to=M} (checkpoint N against checkpoint M); {@code snapshot=S}
 * (a list's {@code snapshot}) reads that state of the worktree instead of its state now. Errors: 400 a bad path, a
 * commit not on the sandbox's branch or a snapshot that is no tree id, 404 no such sandbox, its worktree gone, a
 * snapshot not in its repository, or a file the diff does not touch, 405 a method other than GET.
 */
final class DiffRoutes {
    static final String DIFF = "diff";

    private final DiffService diffs;

    DiffRoutes(DiffService diffs) {
        this.diffs = diffs;
    }

    /** Whether {@code path} is one of these routes. */
    static boolean matches(String path) {
        List<String> seg = segments(path);
        return (seg.size() == 2 && seg.get(1).equals(DIFF))
                || (seg.size() == 3
                        && seg.get(1).equals(DIFF)
                        && (seg.get(2).equals("file") || seg.get(2).equals("patch")));
    }

    /** Whether the request runs git on a whole worktree (all of these do). */
    static boolean isSlow(String method, String path) {
        return matches(path);
    }

    private static List<String> segments(String path) {
        if (!path.startsWith(SandboxRoutes.PREFIX + "/")) {
            return List.of();
        }
        return Arrays.stream(path.substring(SandboxRoutes.PREFIX.length()).split("/"))
                .filter(s -> !s.isEmpty())
                .toList();
    }

    /** A positive checkpoint number from the query, or null when absent. */
    private static Integer number(HttpExchange ex, String name) throws ApiError {
        String v = HttpIo.query(ex, name);
        if (v == null || v.isBlank()) {
            return null;
        }
        try {
            int n = Integer.parseInt(v.strip());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // told below
        }
        throw ApiError.badRequest(name + "=" + v + " is not a checkpoint number (1, 2, ...)");
    }

    void handle(HttpExchange ex) throws ApiError, IOException {
        String method = ex.getRequestMethod();
        String path = ex.getRequestURI().getPath();
        if (!method.equals("GET")) {
            throw new ApiError(405, "method " + method + " is not allowed on " + path + "; use GET");
        }
        List<String> seg = segments(path);
        String id = seg.get(0);
        String commit = HttpIo.query(ex, "commit");
        String snapshot = HttpIo.query(ex, "snapshot");
        DiffOptions o = new DiffOptions(
                "true".equalsIgnoreCase(HttpIo.query(ex, "ignoreWhitespace")),
                commit == null || commit.isBlank() ? null : commit,
                snapshot == null || snapshot.isBlank() ? null : snapshot.strip(),
                number(ex, "checkpoint"),
                number(ex, "to"));
        if (o.toCheckpoint() != null && o.checkpoint() == null) {
            throw ApiError.badRequest("to=M needs checkpoint=N: the diff from checkpoint N to checkpoint M");
        }
        try {
            if (seg.size() == 2) {
                HttpIo.json(ex, 200, diffs.diff(id, o));
            } else if (seg.get(2).equals("file")) {
                String file = HttpIo.query(ex, "path");
                if (file == null || file.isBlank()) {
                    throw ApiError.badRequest("say which file: ?path=PATH, relative to the repository's root");
                }
                HttpIo.json(ex, 200, diffs.file(id, file, o));
            } else {
                LazyText out = new LazyText(ex);
                diffs.writePatch(id, o, out);
                out.close(); // only after success: a refusal before the first byte is answered as an error
            }
        } catch (DiffNotFoundException e) {
            throw ApiError.notFound(e.getMessage());
        } catch (DiffException e) {
            throw ApiError.badRequest(e.getMessage());
        } catch (PaddockException e) {
            throw SandboxRoutes.map(e, 400);
        }
    }

    /**
     * The answer's body as streamed text, its 200 and headers sent with the first byte: a diff that fails before
     * writing anything is still answered with its error.
     */
    private static final class LazyText extends OutputStream {
        private final HttpExchange ex;
        private OutputStream body;

        LazyText(HttpExchange ex) {
            this.ex = ex;
        }

        private OutputStream body() throws IOException {
            if (body == null) {
                ex.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
                ex.sendResponseHeaders(200, 0);
                body = ex.getResponseBody();
            }
            return body;
        }

        @Override
        public void write(int b) throws IOException {
            body().write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (len > 0) {
                body().write(b, off, len);
            }
        }

        @Override
        public void close() throws IOException {
            if (body == null) {
                HttpIo.text(ex, 200, ""); // an empty diff
            } else {
                body.close();
            }
        }
    }
}
