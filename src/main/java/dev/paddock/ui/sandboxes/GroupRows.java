package dev.paddock.ui.sandboxes;

import dev.paddock.status.RepositoryStatus.Sandbox;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sandboxes of one fan-out in the table ({@code sandbox new --agents}, or a count in the New Sandbox dialog): next
 * to each other, in the place of the group's newest, by id ({@code -claude-1}, {@code -claude-2}, {@code -codex-1}),
 * each marked with a fork and {@code 2/3} (the second of three) so their results can be compared row by row.
 */
public final class GroupRows {
    private GroupRows() {}

    /** {@code rows} (newest first) with each group's sandboxes together, where its newest was. */
    public static List<Sandbox> ordered(List<Sandbox> rows) {
        Map<String, List<Sandbox>> byGroup = new LinkedHashMap<>();
        for (Sandbox s : rows) {
            byGroup.computeIfAbsent(s.group() == null ? "\0" + s.id() : s.group(), k -> new ArrayList<>())
                    .add(s);
        }
        List<Sandbox> out = new ArrayList<>(rows.size());
        for (List<Sandbox> members : byGroup.values()) {
            members.sort(Comparator.comparing(Sandbox::id));
            out.addAll(members);
        }
        return out;
    }

    /** {@code 2/3} for the second of three sandboxes of its group in {@code rows} (by id); null when it has none. */
    static String marker(Sandbox s, List<Sandbox> rows) {
        if (s.group() == null) {
            return null;
        }
        List<String> ids = rows.stream()
                .filter(r -> s.group().equals(r.group()))
                .map(Sandbox::id)
                .sorted()
                .toList();
        return (ids.indexOf(s.id()) + 1) + "/" + ids.size();
    }

    /** Each group's number of sandboxes in {@code rows}: when it changes, every mark is drawn again. */
    static Map<String, Long> sizes(List<Sandbox> rows) {
        Map<String, Long> sizes = new LinkedHashMap<>();
        rows.stream().filter(r -> r.group() != null).forEach(r -> sizes.merge(r.group(), 1L, Long::sum));
        return sizes;
    }
}
