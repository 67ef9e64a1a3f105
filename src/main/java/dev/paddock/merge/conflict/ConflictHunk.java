package dev.paddock.merge.conflict;

import java.util.List;

/**
 * One conflict hunk of a file: where it is in base, ours (the base branch) and theirs (the agent's branch),
 * the lines of each side, its class, and the proposed resolution when the class is safe.
 *
 * @param index    0-based position of the hunk in its file
 * @param base     lines of the hunk in the base version (merge base)
 * @param ours     lines of the hunk in ours
 * @param theirs   lines of the hunk in theirs
 * @param baseLines   the base lines of the range, without line terminators
 * @param oursLines   the ours lines of the range
 * @param theirsLines the theirs lines of the range
 * @param hunkClass   how it is judged
 * @param proposed    the lines that would replace the hunk; {@code null} when the class is {@link HunkClass#HUMAN}
 * @param why         one short sentence saying why it got its class (for people)
 */
public record ConflictHunk(int index, LineRange base, LineRange ours, LineRange theirs,
                           List<String> baseLines, List<String> oursLines, List<String> theirsLines,
                           HunkClass hunkClass, List<String> proposed, String why) {
    public ConflictHunk {
        baseLines = List.copyOf(baseLines);
        oursLines = List.copyOf(oursLines);
        theirsLines = List.copyOf(theirsLines);
        proposed = proposed == null ? null : List.copyOf(proposed);
    }
}
