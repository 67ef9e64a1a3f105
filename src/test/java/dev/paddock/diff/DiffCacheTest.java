package dev.paddock.diff;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;

class DiffCacheTest {
    private final DiffCache cache = new DiffCache();

    @Test
    void hunksAreKeptUpToTheirLineBudgetOldestUseFirstOut() {
        DiffCache.Key k = key(1);
        int each = DiffCache.LINES / 4;
        for (int i = 0; i < 4; i++) {
            cache.putPatch(k, "f" + i, patch("f" + i, each));
        }
        assertThat(cache.patch(k, "f0")).isNotNull(); // used: now the newest

        cache.putPatch(k, "f4", patch("f4", each));

        assertThat(cache.lines()).isLessThanOrEqualTo(DiffCache.LINES);
        assertThat(cache.patch(k, "f1")).as("the least recently used").isNull();
        assertThat(cache.patch(k, "f0")).isNotNull();
        assertThat(cache.patch(k, "f4")).isNotNull();
        assertThat(cache.patch(key(2), "f4")).as("another pair of trees").isNull();
    }

    @Test
    void aPatchOverTheWholeBudgetIsNotKeptAndEvictsNothing() {
        DiffCache.Key k = key(1);
        cache.putPatch(k, "small", patch("small", 10));

        cache.putPatch(k, "huge", patch("huge", DiffCache.LINES + 1));

        assertThat(cache.patch(k, "huge")).isNull();
        assertThat(cache.patch(k, "small")).isNotNull();
        assertThat(cache.lines()).isEqualTo(10);
    }

    @Test
    void listsAreBoundedInNumber() {
        for (int i = 0; i < DiffCache.LISTS + 3; i++) {
            cache.putList(key(i), List.of());
        }

        assertThat(cache.list(key(0))).isNull();
        assertThat(cache.list(key(DiffCache.LISTS + 2))).isEmpty();
    }

    private static DiffCache.Key key(int n) {
        return new DiffCache.Key(Path.of("/repo/.git"), null, ObjectId.fromString(String.format("%040x", n)), false);
    }

    private static FilePatch patch(String path, int lines) {
        List<DiffLine> l = new ArrayList<>();
        for (int i = 0; i < lines; i++) {
            l.add(new DiffLine(DiffLine.Kind.ADDED, 0, i + 1, "x"));
        }
        return new FilePatch(
                new FileChange(path, null, ChangeKind.ADDED, lines, 0, false, lines * 2L),
                List.of(new Hunk(0, 0, 1, lines, "@@ -0,0 +1," + lines + " @@", l)),
                false);
    }
}
