package dev.paddock.approval;

import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Codex's file edits as its PreToolUse hook shows them (Codex CLI 0.171.0): a Bash "command"
 * {@code apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: notes.txt\n+hello\n*** End Patch\nEOF}, which Codex
 * applies itself rather than through a shell. A patch of one file is judged as an edit of that file; one of several
 * files (or a move) stays a shell command, which is asked ({@code apply_patch} writes the files its patch names).
 * Codex trims each line of a patch, so an indented header counts too.
 */
final class CodexPatch {
    private static final Pattern START = Pattern.compile("\\Aapply_patch\\s*<<\\s*'?EOF'?\\n\\*\\*\\* Begin Patch\\n");
    private static final Pattern FILE = Pattern.compile(
            "^[ \\t]*\\*\\*\\* (Add|Update|Delete) File: (.+)$|^[ \\t]*\\*\\*\\* Move to: (.+)$", Pattern.MULTILINE);

    private CodexPatch() {}

    /** The one file a patch command adds, updates or deletes; empty when it is no patch or touches more than one. */
    static Optional<String> onlyFile(String command) {
        if (!START.matcher(command).find()) {
            return Optional.empty();
        }
        // Nothing may follow the here-document: text after its end would be a shell command of its own.
        String[] lines = command.split("\n", -1);
        int end = -1;
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].equals("EOF")) {
                end = i;
                break;
            }
        }
        boolean onlyBlankAfter = end > 1;
        for (int i = end + 1; end > 1 && i < lines.length; i++) {
            onlyBlankAfter &= lines[i].isBlank();
        }
        if (!onlyBlankAfter || !lines[end - 1].equals("*** End Patch")) {
            return Optional.empty();
        }
        Set<String> files = new LinkedHashSet<>();
        Matcher m = FILE.matcher(command);
        while (m.find()) {
            files.add(m.group(2) != null ? m.group(2).strip() : "\u0000move");
        }
        return files.size() == 1 && !files.contains("\u0000move")
                ? Optional.of(files.iterator().next())
                : Optional.empty();
    }
}
