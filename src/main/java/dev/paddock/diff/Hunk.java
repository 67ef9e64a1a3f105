package dev.paddock.diff;

import java.util.List;

/**
 * One hunk of a file's patch; starts are 1-based as in a unified diff's header.
 *
 * @param header the {@code @@ -a,b +c,d @@} line
 */
public record Hunk(int oldStart, int oldCount, int newStart, int newCount, String header, List<DiffLine> lines) {

    public Hunk {
        lines = List.copyOf(lines);
    }
}
