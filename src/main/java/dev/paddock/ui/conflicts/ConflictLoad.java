package dev.paddock.ui.conflicts;

import dev.paddock.common.PaddockException;
import dev.paddock.merge.conflict.ConflictFile;
import dev.paddock.merge.conflict.ConflictReport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * What the three-way view reads when it opens (off the FX thread): the conflicted files, the result of each text file
 * (its starting result, or, for a file resolved before, the text it was resolved with), what the view prepares per
 * file, the files already resolved and where the merge request stands.
 *
 * @param results  per file, its result (null for kinds without text)
 * @param prepared per file, what the view prepared for it
 * @param resolved paths of the files resolved before
 */
record ConflictLoad(
        ConflictReport report,
        List<FileResolution> results,
        List<Object> prepared,
        Set<String> resolved,
        ConflictBackend.Progress progress) {

    static ConflictLoad read(
            ConflictBackend backend, long mergeRequestId, BiFunction<ConflictFile, FileResolution, Object> preparer)
            throws PaddockException {
        ConflictReport r = backend.conflicts(mergeRequestId);
        Map<String, ConflictBackend.ResolvedFile> before = new HashMap<>();
        backend.resolvedFiles(mergeRequestId).forEach(f -> before.put(f.path(), f));
        ConflictBackend.Progress now = backend.progress(mergeRequestId);
        List<FileResolution> built = new ArrayList<>();
        List<Object> ready = new ArrayList<>();
        for (ConflictFile f : r.files()) {
            ConflictBackend.ResolvedFile was = before.get(f.path());
            FileResolution res = f.kind().needsHuman()
                    ? null
                    : was != null && was.text() != null
                            ? FileResolution.reopened(f, was.text())
                            : new FileResolution(f);
            built.add(res);
            ready.add(preparer.apply(f, res));
        }
        return new ConflictLoad(r, built, ready, Set.copyOf(before.keySet()), now);
    }

    /**
     * What to tell when every file was resolved before but the merge queue could not finish the merge (it is still
     * resolving: a test failed, the base moved); null otherwise.
     */
    String unfinished() {
        if (report.files().isEmpty()
                || !report.files().stream().allMatch(f -> resolved.contains(f.path()))
                || progress.stage() != ConflictBackend.Stage.RESOLVING) {
            return null;
        }
        return "Every file is resolved, but the merge could not be finished"
                + (progress.detail() == null ? "" : ": " + progress.detail()) + ". Unresolve a file to change it.";
    }
}
