package dev.paddock.merge;

import dev.paddock.merge.conflict.ConflictFile;
import dev.paddock.merge.conflict.ConflictReport;
import dev.paddock.merge.conflict.FileConflictKind;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.GitException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Minimal {@link ConflictAnalysis}: asks {@code git merge-tree --write-tree --name-only} (git 2.38+, in core:
 * nothing in the repository changes) which paths conflict, takes the kind of each from git's
 * {@code CONFLICT (kind)} messages, and reads the three whole texts with {@code git show}. It makes no hunks
 * (every file then needs a person); the classifier of {@code merge.conflict} does that.
 */
public final class MergeTreeConflicts implements ConflictAnalysis {
    private final GitCli git;

    public MergeTreeConflicts(GitCli git) {
        this.git = git;
    }

    /** {@inheritDoc} */
    @Override
    public ConflictReport classify(Path repo, String ours, String theirs) throws MergeException {
        try {
            GitCli.Result base = git.run(repo, "merge-base", ours, theirs);
            String baseId = base.ok() ? base.stdout().strip() : null;
            GitCli.Result r = git.run(repo, "merge-tree", "--write-tree", "--name-only", ours, theirs);
            // 1 means "conflicts" only with a tree id on stdout; git also exits 1 for a commit it cannot find.
            if (r.exitCode() != 0 && r.exitCode() != 1 || r.stdout().isBlank()) {
                throw new MergeException(
                        MergeException.Kind.FAILED, "git merge-tree failed in " + repo + ": " + r.errorLine());
            }
            String[] parts = r.stdout().split("\n\n", 2);
            String[] lines = parts[0].split("\n");
            Set<String> paths = new LinkedHashSet<>();
            for (int i = 1; i < lines.length; i++) {
                if (!lines[i].isBlank()) {
                    paths.add(lines[i]);
                }
            }
            String messages = parts.length > 1 ? parts[1] : "";
            List<ConflictFile> files = new ArrayList<>();
            for (String p : paths.stream().sorted().toList()) {
                files.add(new ConflictFile(
                        p,
                        kindOf(messages, p),
                        show(repo, baseId, p),
                        show(repo, ours, p),
                        show(repo, theirs, p),
                        List.of()));
            }
            return new ConflictReport(ours, theirs, baseId, files);
        } catch (GitException e) {
            throw new MergeException(MergeException.Kind.FAILED, e.getMessage(), e);
        }
    }

    /** The kind from git's message lines naming the path, e.g. {@code CONFLICT (modify/delete): a.txt ...}. */
    static FileConflictKind kindOf(String messages, String path) {
        for (String line : messages.split("\n")) {
            if (!line.contains(path)) {
                continue;
            }
            String l = line.toLowerCase(Locale.ROOT);
            if (l.contains("modify/delete") || l.contains("delete/modify") || l.contains("rename/delete")) {
                return FileConflictKind.DELETE_MODIFY;
            }
            if (l.contains("rename/rename")) {
                return FileConflictKind.RENAME_RENAME;
            }
            if (l.contains("binary")) {
                return FileConflictKind.BINARY;
            }
            if (l.contains("add/add")) {
                return FileConflictKind.ADD_ADD;
            }
        }
        return FileConflictKind.CONTENT;
    }

    private String show(Path repo, String rev, String path) throws GitException {
        if (rev == null) {
            return null;
        }
        GitCli.Result r = git.run(repo, "show", rev + ":" + path);
        return r.ok() ? r.stdout() : null;
    }
}
