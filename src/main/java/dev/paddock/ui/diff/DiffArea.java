package dev.paddock.ui.diff;

import dev.paddock.ui.theme.Style;
import java.util.List;
import java.util.function.Consumer;
import javafx.scene.Node;
import javafx.scene.layout.StackPane;
import javafx.scene.text.Text;
import org.fxmisc.flowless.VirtualizedScrollPane;
import org.fxmisc.richtext.CodeArea;

/**
 * One read-only text of the diff view: a RichTextFX {@link CodeArea} (virtualized: a 100,000-line patch costs what a
 * screenful does) showing a {@link DiffDocument}, with a gutter of the old and the new line numbers (one of them in
 * the side-by-side mode). Double-clicking a line, or its gutter, asks to comment on it.
 */
final class DiffArea extends StackPane {
    /** Which numbers the gutter shows. */
    enum Gutter {
        BOTH,
        OLD,
        NEW
    }

    private final CodeArea area = new CodeArea();
    private final VirtualizedScrollPane<CodeArea> scroll = new VirtualizedScrollPane<>(area);
    private final Gutter gutter;
    private DiffDocument shown = DiffDocument.note("");
    private int digits = 3;
    private Consumer<DiffDocument.Row> onComment = r -> {};

    DiffArea(String id, Gutter gutter) {
        this.gutter = gutter;
        area.setId(id);
        area.setEditable(false);
        area.setWrapText(false);
        area.getStyleClass().addAll(Style.CODE, Style.DIFF_AREA);
        area.setParagraphGraphicFactory(this::gutterOf);
        area.setOnMouseClicked(e -> {
            if (e.getClickCount() == 2) {
                commentAt(area.getCurrentParagraph());
            }
        });
        getChildren().add(scroll);
    }

    /** Shows {@code d} from its top. */
    void show(DiffDocument d) {
        shown = d;
        int max = 0;
        for (DiffDocument.Row r : d.rows()) {
            max = Math.max(max, Math.max(r.oldLine(), r.newLine()));
        }
        digits = Math.max(3, Integer.toString(max).length());
        area.replace(0, area.getLength(), d.document());
        area.getUndoManager().forgetHistory();
        area.moveTo(0);
        area.showParagraphAtTop(0);
    }

    DiffDocument shown() {
        return shown;
    }

    CodeArea area() {
        return area;
    }

    VirtualizedScrollPane<CodeArea> scroll() {
        return scroll;
    }

    /** What is called with a line a person asked to comment on. */
    void setOnComment(Consumer<DiffDocument.Row> c) {
        onComment = c;
    }

    /** The row the caret is on, if it is a line of the file. */
    DiffDocument.Row currentLine() {
        int p = area.getCurrentParagraph();
        List<DiffDocument.Row> rows = shown.rows();
        if (p < 0 || p >= rows.size()) {
            return null;
        }
        DiffDocument.Row r = rows.get(p);
        return r.oldLine() > 0 || r.newLine() > 0 ? r : null;
    }

    /** Moves the caret to paragraph {@code p} and asks to comment on it, when it is a line of the file. */
    void commentAt(int p) {
        if (p < 0 || p >= shown.rows().size()) {
            return;
        }
        DiffDocument.Row r = shown.rows().get(p);
        if (r.oldLine() > 0 || r.newLine() > 0) {
            onComment.accept(r);
        }
    }

    /** Scrolls to the next (or previous) hunk after the caret; false when there is none. */
    boolean nextHunk(boolean forward) {
        List<DiffDocument.Row> rows = shown.rows();
        int p = area.getCurrentParagraph();
        for (int i = forward ? p + 1 : p - 1; i >= 0 && i < rows.size(); i += forward ? 1 : -1) {
            if (rows.get(i).kind() == DiffDocument.Kind.HUNK) {
                area.moveTo(i, 0);
                area.showParagraphAtTop(Math.max(0, i - 1));
                return true;
            }
        }
        return false;
    }

    /**
     * The gutter of paragraph {@code i}: plain {@link Text} in a padded box (lighter than RichTextFX's line number
     * factory, a labelled control per line).
     */
    private Node gutterOf(int i) {
        List<DiffDocument.Row> rows = shown.rows();
        DiffDocument.Row r = i < rows.size() ? rows.get(i) : null;
        String text = switch (gutter) {
            case BOTH -> number(r == null ? 0 : r.oldLine()) + " " + number(r == null ? 0 : r.newLine());
            case OLD -> number(r == null ? 0 : r.oldLine());
            case NEW -> number(r == null ? 0 : r.newLine());
        };
        Text t = new Text(text);
        t.getStyleClass().add(Style.LINENO_TEXT);
        StackPane box = new StackPane(t);
        box.getStyleClass().add(Style.LINENO);
        if (r != null) {
            box.setOnMouseClicked(e -> commentAt(i));
        }
        return box;
    }

    private String number(int n) {
        String s = n == 0 ? "" : Integer.toString(n);
        return " ".repeat(Math.max(0, digits - s.length())) + s;
    }
}
