package dev.paddock.ui.common;

import java.util.List;
import javafx.application.Platform;
import javafx.collections.ListChangeListener;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableColumnBase;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.control.skin.TableColumnHeader;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.Text;

/**
 * Table columns whose header and key values are never cut: a column declares its header tooltip and samples of
 * the text its cells must show whole ("awaiting human", "14:52 left"); once the table is styled, its minimum width
 * becomes the widest of those (and of its header) as measured in the table's own fonts, plus the cell's padding.
 * With a constrained resize policy the other columns then give way, down to their own minimum, and text that may be
 * cut (a task, a progress line) is cut with an ellipsis and whole in its tooltip.
 */
public final class Columns {
    private static final String TIP = "paddock.columns.headerTip";
    private static final String SAMPLES = "paddock.columns.samples";
    private static final String EXTRA = "paddock.columns.sampleExtra";
    private static final String CHIPS = "paddock.columns.sampleChips";
    private static final String INSTALLED = "paddock.columns.installed";
    private static final String CAP = "paddock.columns.capAtContent";
    private static final String FIXED = "paddock.columns.fixedContent";
    private static final String WEIGHT = "paddock.columns.givesWay";
    /** Room a column of fixed content gets beyond its measured minimum. */
    private static final double FIXED_AIR = 12;
    /** Room around a header's text: the header's padding, and a little air. */
    private static final double HEADER_PAD = 22;
    /** Room around a cell's text: the cell's padding and a little air. */
    private static final double CELL_PAD = 16;
    /** A chip's text size (of the cell's), and its own padding (paddock.css, .pd-chip). */
    private static final double CHIP_SCALE = 0.85;

    private static final double CHIP_PAD = 16;
    /** A chip's 12 px icon and the gap to its text (paddock.css, .pd-chip). */
    private static final double CHIP_ICON = 16;

    /** What {@link #fitContent} declared for a column. */
    private record ContentFit(double upTo, java.util.function.Supplier<List<String>> content) {}

    private Columns() {}

    /**
     * Declares what {@code c} must show whole.
     *
     * @param tooltip what the header means (shown over it), or null
     * @param extra   room a cell adds around its text beyond the usual padding (a chip's own padding), in pixels
     * @param samples the widest texts its cells must show whole (the header's own text always counts)
     * @return {@code c}
     */
    public static <S, T> TableColumn<S, T> fit(TableColumn<S, T> c, String tooltip, double extra, String... samples) {
        if (tooltip != null) {
            c.getProperties().put(TIP, tooltip);
        }
        c.getProperties().put(SAMPLES, List.of(samples));
        c.getProperties().put(EXTRA, extra);
        return c;
    }

    /**
     * Makes {@code c} at most as wide as its widest content needs, or {@code upTo} pixels if that is less (measured at
     * each {@link #apply}; never below the minimum {@link #fit} declared): the width beyond goes to the columns
     * without a cap (a task, rather than a short branch), and a long content is cut rather than taking the table.
     *
     * @param content the texts its cells show now
     * @return {@code c}
     */
    public static <S, T> TableColumn<S, T> fitContent(
            TableColumn<S, T> c, double upTo, java.util.function.Supplier<List<String>> content) {
        c.getProperties().put(CAP, new ContentFit(upTo, content));
        return c;
    }

    /**
     * Marks {@code c}, whose content's width is known ({@link #fit}'s samples: a state, a time left), as needing no
     * more than its measured minimum and a little air: on a wide table the width goes to the other columns.
     */
    public static <S, T> TableColumn<S, T> fixed(TableColumn<S, T> c) {
        c.getProperties().put(FIXED, Boolean.TRUE);
        return c;
    }

    /**
     * How readily {@code c} gives way when the table is too narrow for every preferred width, under
     * {@link FitColumnsPolicy}: 1 is the usual, 2 gives twice as many pixels per pixel of room above its minimum
     * (a column cut in its middle, whose ends still tell its rows apart), 0 never.
     */
    public static <S, T> TableColumn<S, T> givesWay(TableColumn<S, T> c, double weight) {
        c.getProperties().put(WEIGHT, weight);
        return c;
    }

    /** What {@link #givesWay} declared for {@code c}, or 1. */
    static double weight(TableColumn<?, ?> c) {
        return c.getProperties().get(WEIGHT) instanceof Double d ? d : 1;
    }

    /** {@link #fit} for a column whose cells show their text in a chip (smaller type, its own padding). */
    public static <S, T> TableColumn<S, T> fitChips(TableColumn<S, T> c, String tooltip, String... samples) {
        fit(c, tooltip, 0, samples);
        c.getProperties().put(CHIPS, Boolean.TRUE);
        return c;
    }

    /**
     * {@link #fitChips} for a column whose cells show a row of chips, each with a 12 px icon: the widest row of
     * {@code rows} must show whole.
     *
     * @param gap the room between two chips of a row, in pixels
     */
    public static <S, T> TableColumn<S, T> fitChipRows(
            TableColumn<S, T> c, String tooltip, double gap, List<List<String>> rows) {
        List<String> widest = List.of();
        double most = -1;
        Font f = Font.font(Font.getDefault().getFamily(), Font.getDefault().getSize() * CHIP_SCALE);
        for (List<String> row : rows) {
            double w = row.stream()
                            .mapToDouble(t -> textWidth(t, f) + CHIP_PAD + CHIP_ICON)
                            .sum()
                    + gap * row.size();
            if (w > most) {
                most = w;
                widest = row;
            }
        }
        // One chip's padding is what fitChips adds; the others', every icon and the gaps are the extra.
        double extra = widest.size() * CHIP_ICON + Math.max(0, widest.size() - 1) * (CHIP_PAD + gap);
        fit(c, tooltip, extra, String.join("", widest));
        c.getProperties().put(CHIPS, Boolean.TRUE);
        return c;
    }

    /**
     * Applies the declarations of {@link #fit} to {@code table}'s columns: measured minimum widths and header
     * tooltips, now if it is styled, and again whenever its skin or its visible columns change.
     */
    public static void install(TableView<?> table) {
        if (table.getProperties().put(INSTALLED, Boolean.TRUE) != null) {
            return;
        }
        Runnable later = () -> Platform.runLater(() -> apply(table));
        table.skinProperty().addListener((o, a, b) -> later.run());
        table.getVisibleLeafColumns().addListener((ListChangeListener<Object>) c -> later.run());
        table.sceneProperty().addListener((o, a, b) -> later.run());
        if (table.getSkin() != null) {
            later.run();
        }
    }

    /** The width of {@code text} in {@code font}. */
    public static double textWidth(String text, Font font) {
        Text t = new Text(text);
        t.setFont(font);
        return Math.ceil(t.getLayoutBounds().getWidth());
    }

    /** Applies the measured widths and tooltips now (the table should be styled: shown, or after applyCss). */
    public static void apply(TableView<?> table) {
        if (table.getScene() != null && table.lookup(".column-header .label") == null) {
            // The headers' font is measured: styled and laid out first (on a busy machine this may run before the
            // first pulse, and the default font is a little larger than the table's: every fixed column came out too
            // wide, and the task was cut).
            table.applyCss();
            table.layout();
        }
        Font headerFont = null;
        for (Node n : table.lookupAll(".column-header")) {
            if (!(n instanceof TableColumnHeader h) || h.getTableColumn() == null) {
                continue;
            }
            TableColumnBase<?, ?> col = h.getTableColumn();
            Label label = (Label) h.lookup(".label");
            if (label != null && headerFont == null) {
                headerFont = label.getFont();
            }
            Object tip = col.getProperties().get(TIP);
            if (tip instanceof String s && !s.equals(h.getProperties().get(TIP))) {
                Tooltip.install(h, new Tooltip(s));
                h.getProperties().put(TIP, s);
            }
        }
        Font header = headerFont != null
                ? headerFont
                : Font.font(
                        Font.getDefault().getFamily(),
                        FontWeight.BOLD,
                        Font.getDefault().getSize());
        Font cell = Font.font(header.getFamily(), FontWeight.NORMAL, header.getSize());
        for (TableColumn<?, ?> col : table.getColumns()) {
            Object samples = col.getProperties().get(SAMPLES);
            if (!(samples instanceof List<?> list)) {
                continue;
            }
            double extra = col.getProperties().get(EXTRA) instanceof Double d ? d : 0;
            double min = textWidth(col.getText() == null ? "" : col.getText(), header) + HEADER_PAD;
            boolean chips = Boolean.TRUE.equals(col.getProperties().get(CHIPS));
            Font f = chips ? Font.font(cell.getFamily(), cell.getSize() * CHIP_SCALE) : cell;
            for (Object s : list) {
                min = Math.max(min, textWidth(String.valueOf(s), f) + CELL_PAD + extra + (chips ? CHIP_PAD : 0));
            }
            col.setMinWidth(Math.ceil(min));
            if (col.getPrefWidth() < min) {
                col.setPrefWidth(Math.ceil(min));
            }
            if (Boolean.TRUE.equals(col.getProperties().get(FIXED))) {
                col.setMaxWidth(Math.ceil(min) + FIXED_AIR);
            }
            if (col.getProperties().get(CAP) instanceof ContentFit fit) {
                double widest = min;
                for (String s : fit.content().get()) {
                    widest = Math.max(widest, textWidth(s, f) + CELL_PAD + extra);
                }
                double upTo = fit.upTo();
                // Not its minimum: where the table is narrow it gives way like any other column.
                double w = Math.ceil(Math.max(min, Math.min(widest, upTo)));
                col.setMaxWidth(w);
                col.setPrefWidth(w);
            }
        }
        // A constrained policy fits the columns to the table when the table resizes, not when a minimum changes:
        // set it again so the columns fit now.
        var policy = table.getColumnResizePolicy();
        if (policy != TableView.UNCONSTRAINED_RESIZE_POLICY) {
            table.setColumnResizePolicy(TableView.UNCONSTRAINED_RESIZE_POLICY);
            table.setColumnResizePolicy((javafx.util.Callback) policy);
        }
    }
}
