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
 * Resolves a conflicted merge without a person, only when verified
 * (docs/decisions/0010-what-safe-means-for-a-conflict-hunk.md): the repository's mode is {@link AutoResolveMode#APPLY},
 * it has a test command (the queue then runs it on the result and applies nothing unless it passes), and every file
 * git left conflicted is a UTF-8 text file the classifier also lists, none policy or hook configuration
 * ({@link dev.paddock.policy.PolicyGuard#isConfigPath}), and each either has only hunks of classes that
 * {@link HunkClass#appliesAutomatically() apply automatically}, or is a lockfile ({@link HunkClass#LOCKFILE}) with a
 * regenerate command configured. Then each text file's {@link ResolvedText#resolveProposed} (the proposals plus
 * both sides' clean edits) is written into the merge worktree and staged; a lockfile gets ours' whole file and, once
 * the other files are written, its regenerate command runs in the merge worktree ({@link Regenerator}, the sandbox's
 * tier) and its result is staged. Each is stored as a resolution by {@code paddock (auto: <class ids>)} with a
 * {@code merge.resolved} event, as {@link ResolutionService} stores a person's. Anything else: nothing is written and
 * the entry waits for a person with the proposals shown. The queue then finishes the merge as after a person's
 * resolution ({@link MergeAttempt#completeResolved}), tests included; a failed test sends it back to the
 * conflict queue with the proposals pre-filled.
 */
final class AutoResolver {
    /** Start of the {@code resolved_by} of an automatic resolution; the class ids and {@code )} follow. */
    static final String WHO_PREFIX = "paddock (auto: ";

    /** Runs a lockfile's regenerate command in the merge worktree (in the tier of the entry's sandbox). */
    interface Regenerator {
        /**
         * @throws PaddockException when the command fails or cannot run (nothing more is applied)
         */
        void run(MergeEntry e, Path wt, String path, String command) throws PaddockException;
    }

    /**
     * One file's automatic resolution.
     *
     * @param path       repository-relative path
     * @param text       the whole resolved file (UTF-8, ours' line terminators); for a lockfile, ours' file
     * @param classes    the classes of its hunks, in first-seen order without repeats
     * @param regenerate the command that regenerates it after {@code text} is written (lockfiles); null otherwise
     */
    record FileResolution(String path, String text, List<HunkClass> classes, String regenerate) {
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
                return "; every hunk is of a class that applies automatically, so it is resolved automatically and"
                        + " merged only if the tests pass (auto-resolve apply)";
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
     * @param settings   the repository's merge settings (mode, test command)
     * @param regenerate the repository's regenerate commands: file name or path → command
     * @param report     the classifier's report of the same merge
     * @param unmerged   the paths git left unmerged in {@code wt}
     * @param wt         the merge worktree
     */
    Decision decide(
            MergeSettings settings,
            Map<String, String> regenerate,
            ConflictReport report,
            List<String> unmerged,
            Path wt) {
        if (settings.autoResolve() != AutoResolveMode.APPLY) {
            return Decision.PROPOSE;
        }
        for (ConflictFile f : report.files()) { // the strongest reason first: a person writes these whatever the tests
            if (dev.paddock.policy.PolicyGuard.isConfigPath(f.path())) {
                return Decision.no(f.path() + " is policy or hook configuration, which a person resolves");
            }
        }
        if (!settings.hasTest()) {
            return Decision.no("no test command is set, and proposals are applied automatically only when the tests"
                    + " pass on the result, so a person decides");
        }
        Set<String> byGit = new TreeSet<>(unmerged);
        Set<String> classified =
                report.files().stream().map(ConflictFile::path).collect(Collectors.toCollection(TreeSet::new));
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
            if (f.hunks().stream().allMatch(h -> h.hunkClass() == HunkClass.LOCKFILE)) {
                String command = regenerateCommand(regenerate, f.path());
                if (command == null) {
                    return Decision.no(f.path() + " is a lockfile or generated file and no regenerate command is set"
                            + " for it (paddock merge config --regenerate '" + fileName(f.path()) + "=COMMAND')");
                }
                out.add(new FileResolution(f.path(), f.oursText(), List.of(HunkClass.LOCKFILE), command));
                continue;
            }
            String text;
            try {
                text = ResolvedText.resolveProposed(f);
            } catch (IllegalArgumentException e) {
                return Decision.no(f.path() + ": " + e.getMessage());
            }
            out.add(new FileResolution(
                    f.path(),
                    text,
                    f.hunks().stream().map(ConflictHunk::hunkClass).distinct().toList(),
                    null));
        }
        out.sort(java.util.Comparator.comparing(r -> r.regenerate() != null)); // lockfiles last: after the manifests
        return new Decision(out, null);
    }

    /** The command regenerating {@code path}: set for its path, else for its file name; null when none is. */
    static String regenerateCommand(Map<String, String> regenerate, String path) {
        String command = regenerate.get(path);
        return command != null ? command : regenerate.get(fileName(path));
    }

    private static String fileName(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
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
        boolean lockfile = f.hunks().stream().allMatch(h -> h.hunkClass() == HunkClass.LOCKFILE);
        for (ConflictHunk h : f.hunks()) {
            if (lockfile) {
                break;
            }
            if (!h.hunkClass().isSafe() || h.proposed() == null) {
                return "hunk " + (h.index() + 1) + " of " + f.path() + " needs a person (" + h.why() + ")";
            }
            if (!h.hunkClass().appliesAutomatically()) {
                return "hunk " + (h.index() + 1) + " of " + f.path() + " is "
                        + h.hunkClass().describe() + ", a class"
                        + " whose proposals are not certain enough to apply without a person (" + h.why() + ")";
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
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes));
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
     * @param e           the entry, in state conflict with its merge worktree
     * @param files       from {@link #decide} (lockfiles last)
     * @param regenerator runs a lockfile's regenerate command
     * @throws MergeException FAILED when a file cannot be written or read back (the files before it stay resolved)
     * @throws PaddockException when git cannot stage a file, a regenerate command fails or the store cannot be written
     */
    void apply(MergeEntry e, List<FileResolution> files, Regenerator regenerator) throws PaddockException {
        Path wt = e.attempt().worktree();
        for (FileResolution r : files) {
            Path target = wt.resolve(r.path()).normalize();
            String text = r.text();
            try {
                Files.writeString(target, text, StandardCharsets.UTF_8);
                if (r.regenerate() != null) {
                    regenerator.run(e, wt, r.path(), r.regenerate());
                    text = Files.readString(target, StandardCharsets.UTF_8);
                }
            } catch (IOException ex) {
                throw new MergeException(
                        MergeException.Kind.FAILED, "Cannot write or read " + target + ": " + ex.getMessage(), ex);
            }
            git.stage(wt, r.path(), false);
            String how = r.regenerate() == null ? "" : " (ours' file regenerated with `" + r.regenerate() + "`)";
            store.resolve(
                    e.id(),
                    r.path(),
                    text,
                    r.who(),
                    EventDraft.of(
                            e.repositoryId(),
                            e.request().sandboxId(),
                            EventKinds.MERGE_RESOLVED,
                            "paddock resolved automatically: " + r.what() + " in " + r.path() + how + " (" + e.label()
                                    + ")",
                            Map.of(
                                    "path",
                                    r.path(),
                                    "by",
                                    r.who(),
                                    "auto",
                                    true,
                                    "classes",
                                    r.classes().stream().map(HunkClass::id).toList())));
        }
    }
}
