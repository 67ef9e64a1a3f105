package dev.paddock.ui.conflicts;

import dev.paddock.ui.theme.Style;
import java.util.Collection;
import java.util.List;
import java.util.function.IntFunction;
import javafx.scene.control.Label;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.scene.text.Text;
import org.fxmisc.flowless.VirtualizedScrollPane;
import org.fxmisc.richtext.CodeArea;
import org.fxmisc.richtext.model.ReadOnlyStyledDocument;
import org.fxmisc.richtext.model.SegmentOps;

/**
 * One text of the three-way view: a caption over a RichTextFX {@link CodeArea} (virtualized: only the
 * visible lines have nodes, so a 5,000-line file costs what a screenful does) with line numbers. Lines
 * of conflict hunks carry paragraph style classes ({@link #styleLines}).
 */
final class CodePane extends VBox {
    private final CodeArea area = new CodeArea();
    private final Label caption = new Label();

    /** @param id the node id of the code area (for tests and styling) */
    CodePane(String id, boolean editable) {
        getStyleClass().add(Style.CODE_PANE);
        caption.getStyleClass().add(Style.CODE_CAPTION);
        caption.setMaxWidth(Double.MAX_VALUE);
        area.setId(id);
        area.setEditable(editable);
        area.getStyleClass().add(Style.CODE);
        area.setParagraphGraphicFactory(this::lineNumber);
        VirtualizedScrollPane<CodeArea> scroll = new VirtualizedScrollPane<>(area);
        VBox.setVgrow(scroll, Priority.ALWAYS);
        getChildren().addAll(caption, scroll);
    }

    /**
     * The gutter of line {@code i}: a plain {@link Text} in a padded box, right-aligned by padding to
     * the width of the last line's number. Lighter than RichTextFX's {@code LineNumberFactory} (a
     * {@code Label} with its skin per line), which matters: CSS of each new line's nodes is most of the
     * cost of showing a screenful against the theme's large stylesheet (profiled in ThreeWayOpenBench).
     */
    private javafx.scene.Node lineNumber(int i) {
        int digits = Math.max(2, Integer.toString(area.getParagraphs().size()).length());
        String n = Integer.toString(i + 1);
        Text t = new Text(" ".repeat(Math.max(0, digits - n.length())) + n);
        t.getStyleClass().add(Style.LINENO_TEXT);
        javafx.scene.layout.StackPane box = new javafx.scene.layout.StackPane(t);
        box.getStyleClass().add(Style.LINENO);
        return box;
    }

    CodeArea area() {
        return area;
    }

    Label caption() {
        return caption;
    }

    /** A document of a code area: paragraph styles, text, text styles. */
    static final class Doc {
        private final ReadOnlyStyledDocument<Collection<String>, String, Collection<String>> doc;

        private Doc(ReadOnlyStyledDocument<Collection<String>, String, Collection<String>> doc) {
            this.doc = doc;
        }
    }

    /**
     * The document of {@code text} with line {@code i}'s paragraph styles {@code styleOfLine.apply(i)}.
     * Pure and immutable: build it off the FX thread (a 5,000-line text takes tens of ms), show it with
     * {@link #setDocument}.
     */
    static Doc document(String text, IntFunction<List<String>> styleOfLine) {
        Collection<String> none = List.of();
        ReadOnlyStyledDocument<Collection<String>, String, Collection<String>> doc =
                ReadOnlyStyledDocument.fromString(text == null ? "" : text, none, none, SegmentOps.styledTextOps());
        int[] line = {0};
        // mapParagraphs visits the paragraphs in order (checked by ThreeWayViewTest's highlight counts)
        return new Doc(doc.mapParagraphs(p -> {
            List<String> styles = styleOfLine.apply(line[0]++);
            return styles.isEmpty() ? p : p.setParagraphStyle(styles);
        }));
    }

    /** Shows {@code d} in place of the whole text (and forgets the undo history). */
    void setDocument(Doc d) {
        area.replace(0, area.getLength(), d.doc);
        area.getUndoManager().forgetHistory();
        area.moveTo(0);
    }

    /** Replaces the whole text (and forgets the undo history: there is nothing before it). */
    void setText(String text) {
        area.replaceText(text == null ? "" : text);
        area.getUndoManager().forgetHistory();
        area.moveTo(0);
    }

    /** Gives lines {@code [from, to)} (clipped to the text) the paragraph style classes {@code styles}. */
    void styleLines(int from, int to, Collection<String> styles) {
        int n = area.getParagraphs().size();
        for (int p = Math.max(0, from); p < Math.min(to, n); p++) {
            if (!area.getParagraph(p).getParagraphStyle().equals(styles)) {
                area.setParagraphStyle(p, styles);
            }
        }
    }

    /** Removes the paragraph style of line {@code p}, if it exists. */
    void clearLine(int p) {
        styleLines(p, p + 1, List.of());
    }

    /** Scrolls so line {@code line} shows a few lines below the top. */
    void reveal(int line) {
        int n = area.getParagraphs().size();
        area.showParagraphAtTop(Math.max(0, Math.min(line, n - 1) - 3));
    }
}
