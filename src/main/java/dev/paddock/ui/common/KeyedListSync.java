package dev.paddock.ui.common;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiPredicate;
import java.util.function.Function;
import javafx.collections.ObservableList;

/**
 * Brings an observable list (a table's items) to a new content by key, touching only the rows that
 * changed, so selection, focus and scroll position survive a refresh. Call on the FX thread.
 */
public final class KeyedListSync {
    private KeyedListSync() {}

    /**
     * Makes {@code target} equal to {@code source} (same order), replacing an element only when it is not
     * {@code equals} to the new one with the same key.
     *
     * @return whether anything changed
     */
    public static <T, K> boolean sync(ObservableList<T> target, List<T> source, Function<T, K> key) {
        return sync(target, source, key, Objects::equals);
    }

    /**
     * Like {@link #sync(ObservableList, List, Function)}, keeping an element that is {@code same} as the new one with
     * the same key (the target then holds the older of the two).
     *
     * @return whether anything changed
     */
    public static <T, K> boolean sync(
            ObservableList<T> target, List<T> source, Function<T, K> key, BiPredicate<T, T> same) {
        if (target.equals(source)) {
            return false;
        }
        Map<K, T> wanted = new HashMap<>();
        source.forEach(t -> wanted.put(key.apply(t), t));
        boolean changed = target.removeIf(t -> !wanted.containsKey(key.apply(t)));
        for (int i = 0; i < source.size(); i++) {
            T want = source.get(i);
            if (i < target.size()) {
                T have = target.get(i);
                if (Objects.equals(key.apply(have), key.apply(want))) {
                    if (!same.test(have, want)) {
                        target.set(i, want);
                        changed = true;
                    }
                    continue;
                }
                int found = indexOfKey(target, key.apply(want), key, i + 1);
                if (found >= 0) {
                    target.remove(found);
                }
                target.add(i, want);
            } else {
                target.add(want);
            }
            changed = true;
        }
        if (target.size() > source.size()) {
            target.remove(source.size(), target.size());
            changed = true;
        }
        return changed;
    }

    private static <T, K> int indexOfKey(List<T> list, K k, Function<T, K> key, int from) {
        for (int i = from; i < list.size(); i++) {
            if (Objects.equals(key.apply(list.get(i)), k)) {
                return i;
            }
        }
        return -1;
    }
}
