package dev.paddock.merge.conflict;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.eclipse.jgit.diff.DiffAlgorithm;
import org.eclipse.jgit.diff.DiffAlgorithm.SupportedAlgorithm;
import org.eclipse.jgit.diff.DiffConfig;
import org.eclipse.jgit.diff.RawText;
import org.eclipse.jgit.diff.RawTextComparator;
import org.eclipse.jgit.diff.RenameDetector;
import org.eclipse.jgit.diff.Sequence;
import org.eclipse.jgit.errors.AmbiguousObjectException;
import org.eclipse.jgit.errors.NoMergeBaseException;
import org.eclipse.jgit.errors.RevisionSyntaxException;
import org.eclipse.jgit.lib.ConfigConstants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.RepositoryCache;
import org.eclipse.jgit.merge.MergeAlgorithm;
import org.eclipse.jgit.merge.MergeChunk;
import org.eclipse.jgit.merge.MergeResult;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevTree;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.util.FS;

/**
 * Finds and classifies the conflicts of merging {@code theirs} into {@code ours} without changing the
 * repository: JGit's recursive merger runs in core on a {@link MemoryInserter} (no ref, index, working-tree
 * or object-store change; {@link BaseCapturingMerger} keeps the base it used), its unmerged paths are the conflicted files, and JGit's {@link MergeAlgorithm}
 * gives each text file's conflict hunks (base/ours/theirs line ranges). Lockfiles and files over
 * {@link TextMergeLimits#LARGE_BYTES} are not merged as text in the JVM (JGit's diff goes quadratic on them):
 * {@link GitConflictedPaths} asks git's own merge which of them conflict, and a large file's conflict is one
 * whole-file hunk. JGit's merger does not detect renames, so {@link SideRenames} runs JGit's
 * {@link RenameDetector} on base→ours and base→theirs where a deletion matters: a file renamed
 * differently on both sides is {@link FileConflictKind#RENAME_RENAME}; a file renamed on one side and
 * changed on the other is merged as git would (reported at the new path only if hunks remain).
 * Each hunk is judged by {@link HunkClassifier}. For a criss-cross history the report's base is the virtual
 * merge base JGit builds from the several merge bases (an id not stored in the repository). Thread-safe (no state).
 */
public final class ConflictClassifier {

    /**
     * The conflicts of merging {@code theirs} into {@code ours} in the repository at {@code repo}.
     *
     * @param repo   a working tree (main or linked) or a bare repository directory
     * @param ours   a revision (branch name, tag, commit id or any git revision expression) of the side merged into
     * @param theirs a revision of the side merged in (the agent's branch)
     * @return the conflicted files with their hunks, sorted by path; no file when the merge is clean
     * @throws ConflictClassifyException bad input ({@link ConflictClassifyException#isBadInput()}): {@code repo}
     *         is not a git repository or a revision names no commit; otherwise the repository could not be read
     */
    public ConflictReport classify(Path repo, String ours, String theirs) throws ConflictClassifyException {
        FileRepositoryBuilder builder = builder(repo);
        try (Repository db = build(repo, builder)) {
            Path objects = builder.getObjectDirectory().toPath();
            ObjectId oursId = resolve(db, ours, "ours");
            ObjectId theirsId = resolve(db, theirs, "theirs");
            try (MemoryInserter inserter = new MemoryInserter(db);
                    ObjectReader reader = inserter.newReader();
                    RevWalk walk = new RevWalk(reader)) {
                return classify(
                        db, objects, inserter, reader, walk, walk.parseCommit(oursId), walk.parseCommit(theirsId));
            } catch (NoMergeBaseException e) {
                throw new ConflictClassifyException(
                        "cannot find a merge base of " + ours + " and " + theirs + ": " + e.getMessage(), false, e);
            }
        } catch (IOException e) {
            throw new ConflictClassifyException("cannot read the repository " + repo + ": " + e.getMessage(), false, e);
        }
    }

    private ConflictReport classify(
            Repository db,
            Path objects,
            MemoryInserter inserter,
            ObjectReader reader,
            RevWalk walk,
            RevCommit ours,
            RevCommit theirs)
            throws IOException {
        BaseCapturingMerger merger = new BaseCapturingMerger(inserter, db.getConfig());
        boolean clean = merger.merge(ours, theirs);
        RevCommit base = merger.base();
        RevTree baseTree = base == null ? null : base.getTree();
        Sides trees = new Sides(reader, baseTree, ours.getTree(), theirs.getTree());
        DiffConfig diffConfig = db.getConfig().get(DiffConfig.KEY);
        SideRenames renames = SideRenames.find(
                reader,
                diffConfig,
                baseTree,
                ours.getTree(),
                theirs.getTree(),
                new java.util.HashSet<>(merger.getUnmergedPaths()));
        Map<String, String> oursRenames = renames.ours();
        Map<String, String> theirsRenames = renames.theirs();
        DiffAlgorithm diff = DiffAlgorithm.getAlgorithm(db.getConfig()
                .getEnum(
                        ConfigConstants.CONFIG_DIFF_SECTION,
                        null,
                        ConfigConstants.CONFIG_KEY_ALGORITHM,
                        SupportedAlgorithm.HISTOGRAM));
        FileClassifier files = new FileClassifier(new MergeAlgorithm(diff), trees, merger.getMergeResults());

        List<ConflictFile> out = new ArrayList<>();
        for (Map.Entry<String, String> r : oursRenames.entrySet()) {
            String theirsPath = theirsRenames.get(r.getKey());
            if (theirsPath != null && !theirsPath.equals(r.getValue())) {
                out.add(files.renameRename(r.getKey(), r.getValue(), theirsPath));
            }
        }
        if (!clean) {
            TreeSet<String> paths = new TreeSet<>(merger.getUnmergedPaths());
            if (merger.getFailingPaths() != null) {
                paths.addAll(merger.getFailingPaths().keySet());
            }
            List<String> skipped =
                    merger.skipped().stream().filter(paths::contains).toList();
            if (!skipped.isEmpty()) {
                // Not merged as text here (lockfiles, very large files): git's own merge says which conflict.
                GitConflictedPaths.of(db.getDirectory().toPath(), objects, ours.name(), theirs.name())
                        .ifPresent(conflicted -> skipped.stream()
                                .filter(p -> !conflicted.contains(p))
                                .forEach(paths::remove));
            }
            Map<String, String> oursSources = inverse(oursRenames);
            Map<String, String> theirsSources = inverse(theirsRenames);
            for (String path : paths) {
                ConflictFile f = files.classify(
                        path,
                        oursRenames.get(path),
                        theirsRenames.get(path),
                        oursSources.get(path),
                        theirsSources.get(path));
                if (f != null) {
                    out.add(f);
                }
            }
        }
        out.sort(Comparator.comparing(ConflictFile::path));
        return new ConflictReport(ours.name(), theirs.name(), base == null ? null : base.name(), out);
    }

    /** The builder for a working tree (its {@code .git} directory or file) or a bare repository. */
    private static FileRepositoryBuilder builder(Path repo) throws ConflictClassifyException {
        Path dir = repo.toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            throw new ConflictClassifyException(dir + " is not a git repository (no such directory)", true, null);
        }
        FileRepositoryBuilder builder = new FileRepositoryBuilder().setMustExist(true);
        if (Files.exists(dir.resolve(".git"))) {
            builder.setWorkTree(dir.toFile());
        } else if (RepositoryCache.FileKey.isGitRepository(dir.toFile(), FS.DETECTED)) {
            builder.setGitDir(dir.toFile());
        } else {
            throw new ConflictClassifyException(
                    dir + " is not a git repository (no .git in it, and not a bare" + " repository)", true, null);
        }
        return builder;
    }

    /** Opens the repository of {@link #builder}. */
    private static Repository build(Path dir, FileRepositoryBuilder builder) throws ConflictClassifyException {
        try {
            return builder.build();
        } catch (IOException | IllegalArgumentException e) {
            throw new ConflictClassifyException(dir + " is not a usable git repository: " + e.getMessage(), true, e);
        }
    }

    /** The commit a revision names. */
    private static ObjectId resolve(Repository db, String revision, String side)
            throws ConflictClassifyException, IOException {
        ObjectId id;
        try {
            id = db.resolve(revision + "^{commit}");
        } catch (AmbiguousObjectException e) {
            throw new ConflictClassifyException(
                    "the " + side + " revision \"" + revision + "\" is an ambiguous"
                            + " abbreviation: give more digits",
                    true,
                    e);
        } catch (RevisionSyntaxException e) {
            throw new ConflictClassifyException(
                    "the " + side + " revision \"" + revision + "\" is not a valid" + " revision: " + e.getMessage(),
                    true,
                    e);
        } catch (org.eclipse.jgit.errors.IncorrectObjectTypeException
                | org.eclipse.jgit.errors.MissingObjectException e) {
            id = null;
        }
        if (id == null || !db.getObjectDatabase().has(id)) {
            throw new ConflictClassifyException(
                    "unknown revision \"" + revision + "\" for " + side + ": no branch,"
                            + " tag or commit of that name in " + db.getIdentifier(),
                    true,
                    null);
        }
        return id;
    }

    private static Map<String, String> inverse(Map<String, String> map) {
        Map<String, String> out = new HashMap<>();
        map.forEach((k, v) -> out.put(v, k));
        return out;
    }

    /** The three trees of a merge and the reader to read them. */
    record Sides(ObjectReader reader, RevTree base, RevTree ours, RevTree theirs) {}

    /** Turns one unmerged path into a {@link ConflictFile}. */
    private static final class FileClassifier {
        /** Lines of ours above a hunk read to find a signature whose parameter list the hunk edits. */
        private static final int ABOVE = 8;

        private final MergeAlgorithm mergeAlgorithm;
        private final Sides trees;
        private final Map<String, MergeResult<? extends Sequence>> mergerResults;

        FileClassifier(
                MergeAlgorithm mergeAlgorithm,
                Sides trees,
                Map<String, MergeResult<? extends Sequence>> mergerResults) {
            this.mergeAlgorithm = mergeAlgorithm;
            this.trees = trees;
            this.mergerResults = mergerResults == null ? Map.of() : mergerResults;
        }

        ConflictFile renameRename(String basePath, String oursPath, String theirsPath) throws IOException {
            FileVersion base = FileVersion.read(trees.reader(), trees.base(), basePath);
            FileVersion ours = FileVersion.read(trees.reader(), trees.ours(), oursPath);
            FileVersion theirs = FileVersion.read(trees.reader(), trees.theirs(), theirsPath);
            return new ConflictFile(
                    oursPath, FileConflictKind.RENAME_RENAME, textOf(base), textOf(ours), textOf(theirs), List.of());
        }

        /**
         * The conflict at an unmerged path, taking renames into account: {@code oursRenamedTo}/{@code
         * theirsRenamedTo} are where a side moved the base file at {@code path}; {@code oursRenamedFrom}/{@code
         * theirsRenamedFrom} the base path a side's file at {@code path} came from. Null when the rename-aware
         * merge is clean or the path is part of a rename/rename already reported.
         */
        ConflictFile classify(
                String path,
                String oursRenamedTo,
                String theirsRenamedTo,
                String oursRenamedFrom,
                String theirsRenamedFrom)
                throws IOException {
            if (oursRenamedTo != null && theirsRenamedTo != null) {
                return null; // both sides moved it: a rename/rename (reported) or the same rename (merged at the new
                // path)
            }
            String basePath = path;
            String oursPath = path;
            String theirsPath = path;
            String reportPath = path;
            if (oursRenamedTo != null) {
                oursPath = oursRenamedTo;
                reportPath = oursRenamedTo;
            } else if (theirsRenamedTo != null) {
                theirsPath = theirsRenamedTo;
                reportPath = theirsRenamedTo;
            } else if (oursRenamedFrom != null && oursRenamedFrom.equals(theirsRenamedFrom)) {
                basePath = oursRenamedFrom; // both renamed the same file to this path: merge against its base
            }
            FileVersion base = FileVersion.read(trees.reader(), trees.base(), basePath);
            FileVersion ours = FileVersion.read(trees.reader(), trees.ours(), oursPath);
            FileVersion theirs = FileVersion.read(trees.reader(), trees.theirs(), theirsPath);
            FileConflictKind kind = kindOf(base, ours, theirs);
            if (kind == FileConflictKind.CONTENT || kind == FileConflictKind.ADD_ADD) {
                boolean asMerged = basePath.equals(path) && oursPath.equals(path) && theirsPath.equals(path);
                List<ConflictHunk> hunks =
                        hunks(reportPath, base, ours, theirs, asMerged ? mergerResults.get(path) : null);
                if (hunks.isEmpty() && (!reportPath.equals(path) || !basePath.equals(path))) {
                    return null; // the rename-aware merge is clean, as git would make it
                }
                return new ConflictFile(reportPath, kind, base.text(), ours.text(), theirs.text(), hunks);
            }
            return new ConflictFile(reportPath, kind, textOf(base), textOf(ours), textOf(theirs), List.of());
        }

        private static FileConflictKind kindOf(FileVersion base, FileVersion ours, FileVersion theirs) {
            if (!ours.present()
                    || !theirs.present()
                    || (base.present() && !base.isBlob())
                    || !ours.isBlob()
                    || !theirs.isBlob()) {
                // A side deleted the file, or replaced it with a directory or a submodule.
                boolean submodule = ours.mode() == FileMode.GITLINK || theirs.mode() == FileMode.GITLINK;
                return submodule && ours.present() && theirs.present()
                        ? FileConflictKind.BINARY
                        : FileConflictKind.DELETE_MODIFY;
            }
            if (base.isBinary()
                    || ours.isBinary()
                    || theirs.isBinary()
                    || ours.mode() == FileMode.SYMLINK
                    || theirs.mode() == FileMode.SYMLINK) {
                // A symbolic link's target is not text to merge line by line either.
                return FileConflictKind.BINARY;
            }
            return base.present() ? FileConflictKind.CONTENT : FileConflictKind.ADD_ADD;
        }

        private static String textOf(FileVersion v) {
            return v.isBinary() ? null : v.text();
        }

        /**
         * The conflict hunks of a text merge, from JGit's merge chunks (0 = base, 1 = ours, 2 = theirs): the
         * merger's own result for the path when it has one, else a merge of the three versions here.
         */
        private List<ConflictHunk> hunks(
                String path,
                FileVersion base,
                FileVersion ours,
                FileVersion theirs,
                MergeResult<? extends Sequence> mergerResult) {
            long largest = Math.max(
                    base.isBlob() ? base.bytes().length : 0, Math.max(ours.bytes().length, theirs.bytes().length));
            if (TextMergeLimits.isLarge(largest)) {
                return List.of(wholeFile(path, base, ours, theirs));
            }
            RawText baseRaw = base.isBlob() ? new RawText(base.bytes()) : RawText.EMPTY_TEXT;
            RawText oursRaw = new RawText(ours.bytes());
            RawText theirsRaw = new RawText(theirs.bytes());
            MergeResult<? extends Sequence> result = mergerResult != null
                            && mergerResult.getSequences().size() == 3
                            && mergerResult.getSequences().get(1).size() == oursRaw.size()
                            && mergerResult.getSequences().get(2).size() == theirsRaw.size()
                            && mergerResult.getSequences().get(0).size() == baseRaw.size()
                    ? mergerResult
                    : mergeAlgorithm.merge(RawTextComparator.DEFAULT, baseRaw, oursRaw, theirsRaw);
            if (!result.containsConflicts()) {
                return List.of();
            }
            List<String> baseLines = lines(base.text(), baseRaw);
            List<String> oursLines = lines(ours.text(), oursRaw);
            List<String> theirsLines = lines(theirs.text(), theirsRaw);
            FileContext context = FileContext.of(path, baseLines, oursLines, theirsLines);
            List<ConflictHunk> hunks = new ArrayList<>();
            LineRange oursRange = null;
            LineRange baseRange = null;
            for (MergeChunk chunk : result) {
                switch (chunk.getConflictState()) {
                    case FIRST_CONFLICTING_RANGE -> oursRange = new LineRange(chunk.getBegin(), chunk.getEnd());
                    case BASE_CONFLICTING_RANGE -> {
                        // JGit can place it past base's end (after a line both sides appended): keep it inside.
                        int begin = Math.min(chunk.getBegin(), baseLines.size());
                        baseRange = new LineRange(begin, Math.min(Math.max(begin, chunk.getEnd()), baseLines.size()));
                    }
                    case NEXT_CONFLICTING_RANGE -> {
                        LineRange theirsRange = new LineRange(chunk.getBegin(), chunk.getEnd());
                        LineRange b = baseRange == null ? new LineRange(0, 0) : baseRange;
                        hunks.add(hunk(
                                context, hunks.size(), b, oursRange, theirsRange, baseLines, oursLines, theirsLines));
                        oursRange = null;
                        baseRange = null;
                    }
                    default -> {}
                }
            }
            return hunks;
        }

        /**
         * A file too large to compare line by line in the JVM ({@link TextMergeLimits}) as one hunk spanning the
         * whole file: a lockfile's is regenerated as any lockfile's; any other is a person's, without suggestion.
         */
        private static ConflictHunk wholeFile(String path, FileVersion base, FileVersion ours, FileVersion theirs) {
            List<String> b = base.isBlob() ? Lines.split(base.text()) : List.of();
            List<String> o = Lines.split(ours.text());
            List<String> t = Lines.split(theirs.text());
            FileContext context = FileContext.of(path, b, o, t);
            HunkClassifier.Judgement j = context.generated()
                    ? HunkClassifier.classify(context, b, o, t, List.of())
                    : HunkClassifier.tooLarge(Math.max(
                            base.isBlob() ? base.bytes().length : 0,
                            Math.max(ours.bytes().length, theirs.bytes().length)));
            return new ConflictHunk(
                    0,
                    new LineRange(0, b.size()),
                    new LineRange(0, o.size()),
                    new LineRange(0, t.size()),
                    b,
                    o,
                    t,
                    j.hunkClass(),
                    j.proposed(),
                    j.why(),
                    j.suggested(),
                    j.confidence());
        }

        private static ConflictHunk hunk(
                FileContext context,
                int index,
                LineRange base,
                LineRange ours,
                LineRange theirs,
                List<String> baseLines,
                List<String> oursLines,
                List<String> theirsLines) {
            List<String> b =
                    baseLines.subList(Math.min(base.start(), baseLines.size()), Math.min(base.end(), baseLines.size()));
            List<String> o = oursLines.subList(ours.start(), ours.end());
            List<String> t = theirsLines.subList(theirs.start(), theirs.end());
            List<String> above = oursLines.subList(Math.max(0, ours.start() - ABOVE), ours.start());
            HunkClassifier.Judgement j = HunkClassifier.classify(context, b, o, t, above);
            return new ConflictHunk(
                    index,
                    base,
                    ours,
                    theirs,
                    b,
                    o,
                    t,
                    j.hunkClass(),
                    j.proposed(),
                    j.why(),
                    j.suggested(),
                    j.confidence());
        }

        /** The lines of a side; split from the decoded text, or per RawText line if the counts disagree. */
        private static List<String> lines(String text, RawText raw) {
            List<String> lines = Lines.split(text);
            if (lines.size() == raw.size()) {
                return lines;
            }
            List<String> out = new ArrayList<>(raw.size());
            for (int i = 0; i < raw.size(); i++) {
                out.add(Lines.stripCr(raw.getString(i)));
            }
            return out;
        }
    }
}
