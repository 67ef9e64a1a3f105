package dev.paddock.policy;

import java.util.Set;

/**
 * Editors that take their commands from somewhere the analysis cannot read: {@code patch} and Codex's
 * {@code apply_patch} write the files their patch names; {@code ed} and {@code ex} read editing
 * commands from their standard input ({@code ed -s f <<< 'w .claude/x'}). An editor command may write or read any
 * file, or run a program. vim's ways to run commands ({@code -c}, {@code +cmd}, {@code -S}, {@code -s keys}, Ex
 * mode {@code -e} and {@code -es}) are {@link LoadingOptions}' entries.
 */
final class Editors {
    /** Line editors: their commands always come from their input. */
    private static final Set<String> LINE_EDITORS = Set.of("ed", "red", "ex", "nex");
    /** Programs that write the files their patch (their input or a file) names. */
    private static final Set<String> PATCHERS = Set.of("patch", "apply_patch", "applypatch");

    private Editors() {}

    /** Why this run of an editor cannot be judged, or null. */
    static String problem(String name) {
        if (PATCHERS.contains(name)) {
            return "`" + name + "` writes the files its patch names, which only the patch says";
        }
        if (LINE_EDITORS.contains(name)) {
            return "`" + name + "` runs the editing commands it reads from its standard input, which may write or"
                    + " read any file";
        }
        return null;
    }
}
