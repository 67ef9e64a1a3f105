package dev.paddock.merge;

import dev.paddock.common.PaddockException;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventKinds;
import dev.paddock.merge.conflict.ConflictFile;
import dev.paddock.merge.conflict.ConflictHunk;
import dev.paddock.merge.conflict.ConflictReport;
import dev.paddock.merge.conflict.HunkClass;
import dev.paddock.merge.conflict.ResolvedText;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Resolves a conflicted merge without a person (issue "safe conflicts may be resolved automatically when the
 * repository setting allows"): only when the repository's mode is {@link AutoResolveMode#APPLY} and every file git
 * left conflicted is a UTF-8 text file the classifier also lists, whose every hunk is safe with a proposal, and none
 * is policy or hook configuration ({@link dev.paddock.policy.PolicyGuard#isConfigPath}). Then
 * each file's {@link ResolvedText#resolveProposed} (the proposals plus both sides' clean edits) is written into the
 * merge worktree and staged, and stored as a resolution by {@code paddock (auto: <class ids>)} with a
 * {@code merge.resolved} event, as {@link ResolutionService} stores a person's. Anything else: nothing is written
 * and the entry waits for a person with the proposals shown. The queue then finishes the merge as after a
 * person's resolution ({@code MergeQueue.Attempt#completeResolved}).
 */
final class AutoResolver {
    /** Start of the {@code resolved_by} of an automatic resolution; the class ids and {@code )} follow. */
    static final String WHO_PREFIX = "paddock (auto: ";

    /**
     * One file's automatic resolution.
     *
     * @param path    repository-relative path
     * @param text    the whole resolved file (UTF-8, ours' line terminators)
     * @param classes the classes of its hunks, in first-seen order without repeats
     */
    record FileResolution(String path, String text, List<HunkClass> classes) {
        /** Who the stored resolution names, e.g. {@code paddock (auto: import_block)}. */
        String who() {
            return WHO_PREFIX + classes.stream().map(HunkClass::id).collect(Collectors.joining(", ")) + ")";
        }

        /** The classes for people, e.g. {@code import-block union}. */
        String what() {
            return classes.stream().map(HunkClass::describe).collect(Collectors.joining(" + "));
        }
    }

    /**
     * Whether a conflict is resolved automatically.
     *
     * @param files  the resolutions to apply (empty when not)
     * @param whyNot why not, for the conflict event; null when the mode is {@code propose} or it applies
     */
    record Decision(List<FileResolution> files, String whyNot) {
        static final Decision PROPOSE = new Decision(List.of(), null);

        static Decision no(String why) {
            return new Decision(List.of(), why);
        }

        /** Whether the resolutions are to be applied. */
        boolean applies() {
            return !files.isEmpty();
        }

        /** What the conflict event adds: nothing for {@code propose}. */
        String note() {
            if (applies()) {
                return "; every hunk is safe, so it is resolved automatically (auto-resolve apply)";
            }
            return whyNot == null ? "" : "; not resolved automatically: " + whyNot;
        }
    }

    private final MergeStore store;
    private final MergeGit git;

    AutoResolver(MergeStore store, MergeGit git) {
        this.store = store;
        this.git = git;
    }

    /**
     * Decides whether the conflicts of a merge are resolved automatically. Pure but for reading the conflicted
     * files of the merge worktree (to check they are UTF-8 text).
     *
     * @param mode     the repository's mode
     * @param report   the classifier's report of the same merge
     * @param unmerged the paths git left unmerged in {@code wt}
     * @param wt       the merge worktree
     */
    Decision decide(AutoResolveMode mode, ConflictReport report, List<String> unmerged, Path wt) {
        if (mode != AutoResolveMode.APPLY) {
            return Decision.PROPOSE;
        }
        Set<String> byGit = new TreeSet<>(unmerged);
        Set<String> classified = report.files().stream().map(ConflictFile::path).collect(Collectors.toCollection(TreeSet::new));
        if (byGit.isEmpty() || !byGit.equals(classified)) {
            return Decision.no("git left " + byGit + " conflicted but the classifier found " + classified
                    + ", so a person decides");
        }
        List<FileResolution> out = new ArrayList<>();
        for (ConflictFile f : report.files()) {
            String why = whyNot(f, wt);
            if (why != null) {
                return Decision.no(why);
            }
            String text;
            try {
                text = ResolvedText.resolveProposed(f);
            } catch (IllegalArgumentException e) {
                return Decision.no(f.path() + ": " + e.getMessage());
            }
            out.add(new FileResolution(f.path(), text, f.hunks().stream().map(ConflictHunk::hunkClass).distinct().toList()));
        }
        return new Decision(out, null);
    }

    /** Why a file cannot be resolved automatically; null when it can. */
    private static String whyNot(ConflictFile f, Path wt) {
        if (dev.paddock.policy.PolicyGuard.isConfigPath(f.path())) {
            // Its merged text is neither side a person approved: a person writes it.
            return f.path() + " is policy or hook configuration, which a person resolves";
        }
        if (f.kind().needsHuman() || f.oursText() == null) {
            return f.path() + " is a " + f.kind().id().replace('_', '/') + " conflict";
        }
        if (f.hunks().isEmpty()) {
            return f.path() + " has no classified hunks";
        }
        for (ConflictHunk h : f.hunks()) {
            if (!h.hunkClass().isSafe() || h.proposed() == null) {
                return "hunk " + (h.index() + 1) + " of " + f.path() + " needs a person (" + h.why() + ")";
            }
        }
        Path file = wt.resolve(f.path()).normalize();
        if (!file.startsWith(wt) || !Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return f.path() + " is not a regular file in the merge worktree";
        }
        try {
            byte[] bytes = Files.readAllBytes(file);
            for (byte b : bytes) {
                if (b == 0) {
                    return f.path() + " is binary";
                }
            }
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
        } catch (CharacterCodingException e) {
            return f.path() + " is not UTF-8 text";
        } catch (IOException e) {
            return "cannot read " + file + ": " + e.getMessage();
        }
        return null;
    }

    /**
     * Writes, stages and stores each resolution of a conflicted entry (each with its {@code merge.resolved} event).
     *
     * @param e     the entry, in state conflict with its merge worktree
     * @param files from {@link #decide}
     * @throws MergeException FAILED when a file cannot be written (the files before it stay resolved)
     * @throws PaddockException when git cannot stage a file or the store cannot be written
     */
    void apply(MergeEntry e, List<FileResolution> files) throws PaddockException {
        Path wt = e.worktree();
        for (FileResolution r : files) {
            Path target = wt.resolve(r.path()).normalize();
            try {
                Files.writeString(target, r.text(), StandardCharsets.UTF_8);
            } catch (IOException ex) {
                throw new MergeException(MergeException.Kind.FAILED, "Cannot write " + target + ": " + ex.getMessage(), ex);
            }
            git.stage(wt, r.path(), false);
            store.resolve(e.id(), r.path(), r.text(), r.who(), EventDraft.of(e.repositoryId(), e.sandboxId(),
                    EventKinds.MERGE_RESOLVED, "paddock resolved automatically: " + r.what() + " in " + r.path()
                            + " (" + e.label() + ")", Map.of("path", r.path(), "by", r.who(), "auto", true,
                            "classes", r.classes().stream().map(HunkClass::id).toList())));
        }
    }
}
