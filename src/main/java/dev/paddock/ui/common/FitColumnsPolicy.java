package dev.paddock.ui.common;

import java.util.List;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.util.Callback;

/**
 * A constrained column resize policy whose widths follow from the table's width and each visible column's minimum,
 * preferred and maximum widths alone: the same table lays out the same way whatever widths it had before.
 * (JavaFX's own constrained policies scale the columns from their current widths, so the widths depended on the
 * order in which rows, styles and the window's size arrived.)
 *
 * <ul>
 *   <li>Too little room: each column gives way in proportion to its room above its minimum, times its weight
 *       ({@link Columns#givesWay}); below the sum of the minimums the table scrolls.
 *   <li>Room to spare: columns below their maximum grow in proportion to their preferred width, each up to its
 *       maximum.
 *   <li>A person dragging a column's edge: JavaFX's all-columns policy moves the widths, and the widths that result
 *       become the columns' preferred widths, so a later resize of the window keeps the person's proportions.
 * </ul>
 */
public final class FitColumnsPolicy implements Callback<TableView.ResizeFeatures, Boolean> {
    /** The policy (it holds no state). */
    public static final FitColumnsPolicy INSTANCE = new FitColumnsPolicy();

    private FitColumnsPolicy() {}

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public Boolean call(TableView.ResizeFeatures f) {
        TableView<?> table = f.getTable();
        List<? extends TableColumn<?, ?>> columns = table.getVisibleLeafColumns();
        if (f.getColumn() != null) {
            Boolean moved = TableView.CONSTRAINED_RESIZE_POLICY_ALL_COLUMNS.call(f);
            for (TableColumn<?, ?> c : columns) {
                c.setPrefWidth(c.getWidth());
            }
            return moved;
        }
        int n = columns.size();
        double[] min = new double[n];
        double[] pref = new double[n];
        double[] max = new double[n];
        double[] weight = new double[n];
        for (int i = 0; i < n; i++) {
            TableColumn<?, ?> c = columns.get(i);
            min[i] = c.getMinWidth();
            max[i] = Math.max(min[i], c.getMaxWidth());
            pref[i] = Math.max(min[i], Math.min(max[i], c.getPrefWidth()));
            weight[i] = c.isResizable() ? Columns.weight(c) : 0;
        }
        double[] widths = widths(f.getContentWidth(), min, pref, max, weight);
        for (int i = 0; i < n; i++) {
            f.setColumnWidth((javafx.scene.control.TableColumnBase) columns.get(i), widths[i]);
        }
        return true;
    }

    /**
     * The columns' widths for {@code total} pixels, in whole pixels (see the class comment).
     *
     * @param weight how readily each column gives way (0: never)
     */
    static double[] widths(double total, double[] min, double[] pref, double[] max, double[] weight) {
        int n = pref.length;
        double[] w = pref.clone();
        double sum = java.util.Arrays.stream(w).sum();
        if (sum > total) {
            // Each round takes the excess in proportion to the room above the minimums; a column reaching its
            // minimum stops, and the next round shares what is still over among the others.
            double over = sum - total;
            while (over > 0.5) {
                double give = 0;
                for (int i = 0; i < n; i++) {
                    give += (w[i] - min[i]) * weight[i];
                }
                if (give <= 0) {
                    break;
                }
                double taken = 0;
                for (int i = 0; i < n; i++) {
                    double cut = Math.min(w[i] - min[i], over * (w[i] - min[i]) * weight[i] / give);
                    w[i] -= cut;
                    taken += cut;
                }
                over -= taken;
                if (taken < 0.5) {
                    break;
                }
            }
        } else {
            // Water-filling: grow by preferred width; a column at its maximum stops and the rest share what is left.
            double left = total - sum;
            boolean[] done = new boolean[n];
            while (left > 0.5) {
                double base = 0;
                for (int i = 0; i < n; i++) {
                    if (!done[i] && weight[i] > 0 && w[i] < max[i]) {
                        base += Math.max(1, pref[i]);
                    }
                }
                if (base == 0) {
                    break;
                }
                double given = 0;
                for (int i = 0; i < n; i++) {
                    if (done[i] || weight[i] <= 0 || w[i] >= max[i]) {
                        continue;
                    }
                    double add = Math.min(left * Math.max(1, pref[i]) / base, max[i] - w[i]);
                    w[i] += add;
                    given += add;
                    if (w[i] >= max[i]) {
                        done[i] = true;
                    }
                }
                left -= given;
                if (given < 0.5) {
                    break;
                }
            }
        }
        return whole(w, total, min, max);
    }

    /** Rounds the widths to whole pixels, the pixels lost to rounding down going to the largest fractions. */
    private static double[] whole(double[] w, double total, double[] min, double[] max) {
        double[] out = new double[w.length];
        double sum = 0;
        for (int i = 0; i < w.length; i++) {
            out[i] = Math.max(min[i], Math.floor(w[i]));
            sum += out[i];
        }
        Integer[] order = new Integer[w.length];
        for (int i = 0; i < w.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Double.compare(w[b] - out[b], w[a] - out[a]));
        for (int i : order) {
            if (sum + 1 > total || w[i] - out[i] <= 0) {
                break;
            }
            if (out[i] + 1 <= max[i]) {
                out[i] += 1;
                sum += 1;
            }
        }
        return out;
    }
}
