package dev.paddock.policy;

import dev.paddock.policy.shell.Word;
import java.util.List;
import java.util.Set;

/**
 * Editors that take their commands from somewhere the analysis cannot read: {@code patch} and Codex's
 * {@code apply_patch} write the files their patch names; {@code ed} and {@code ex} read editing
 * commands from their standard input ({@code ed -s f <<< 'w .claude/x'}), and so does vim in Ex mode
 * ({@code -e}, {@code -E}, {@code -es}). An editor command may write or read any file, or run a program. The
 * other ways vim runs commands ({@code -c}, {@code +cmd}, {@code -S}, {@code -s keys}) are {@link LoadingOptions}'
 * entries.
 */
final class Editors {
    /** Line editors: their commands always come from their input. */
    private static final Set<String> LINE_EDITORS = Set.of("ed", "red", "ex", "exim", "nex");
    /** Programs that write the files their patch (their input or a file) names. */
    private static final Set<String> PATCHERS = Set.of("patch", "apply_patch", "applypatch");
    /** vim's options that make it read commands from its input or a file of keys. */
    private static final Set<String> VIM_SCRIPTED = Set.of("-e", "-E", "-es", "-Es");

    private Editors() {}

    /** Why this run of an editor cannot be judged, or null. */
    static String problem(String name, String key, List<Word> args) {
        if (PATCHERS.contains(name)) {
            return "`" + name + "` writes the files its patch names, which only the patch says";
        }
        if (LINE_EDITORS.contains(name)) {
            return "`" + name + "` runs the editing commands it reads from its standard input, which may write or"
                    + " read any file";
        }
        if (!key.equals("vim")) {
            return null;
        }
        for (Word w : args) {
            String v = w.value();
            if (v.equals("--")) {
                return null;
            }
            if (VIM_SCRIPTED.contains(v)) {
                return "`" + name + " " + v + "` runs editing commands it reads from its input or a file, which may"
                        + " write or read any file";
            }
        }
        return null;
    }
}
