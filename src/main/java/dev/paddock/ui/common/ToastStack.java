package dev.paddock.ui.common;

import atlantafx.base.theme.Styles;
import dev.paddock.ui.theme.Style;
import dev.paddock.ui.theme.Theme;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javafx.animation.PauseTransition;
import javafx.beans.InvalidationListener;
import javafx.geometry.Pos;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.Popup;
import javafx.stage.Window;
import javafx.util.Duration;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.materialdesign2.MaterialDesignB;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;

/**
 * The panel's notifications ("toasts"): small popups stacked in the bottom-left corner inside its window, newest at
 * the bottom (the right side holds the approval and conflict queues, where a person acts: toasts never cover them). At most {@link #MAX_SHOWN} show; more make one summary ("2 more waiting") above them instead of a stack
 * over the window's edge. Each has a key (the request or merge it announces): {@link #hide} takes it away as soon as
 * what it announced is dealt with, elsewhere or here. A toast hides by itself after {@link #SHOWN_FOR}, when clicked
 * (its action runs) or closed. One stack per window, shared by everything that announces. FX thread only.
 */
public final class ToastStack {
    /** Style class of every toast, and id of the summary, for tests and styling. */
    public static final String STYLE = Style.TOAST;

    public static final String SUMMARY_ID = Style.TOAST_SUMMARY;
    /** Toasts shown at once; more are counted in the summary. */
    public static final int MAX_SHOWN = 3;

    static final Duration SHOWN_FOR = Duration.seconds(12);
    private static final double WIDTH = 380;
    private static final double GAP = 8;
    /** Room kept free at the window's right edge. */
    private static final double MARGIN = 16;
    /** Room kept free at the window's bottom (its status bar). */
    private static final double BOTTOM = 40;

    private final Window owner;
    private final Map<String, Popup> shown = new LinkedHashMap<>();
    private final Set<String> more = new LinkedHashSet<>();
    private final Popup summary = new Popup();
    private final Label summaryText = new Label();
    private final PauseTransition summaryTimer = new PauseTransition(SHOWN_FOR);
    private Runnable onSummary = () -> {};

    private ToastStack(Window owner) {
        this.owner = owner;
        InvalidationListener relayout = o -> layout();
        owner.xProperty().addListener(relayout);
        owner.yProperty().addListener(relayout);
        owner.widthProperty().addListener(relayout);
        owner.heightProperty().addListener(relayout);
        owner.showingProperty().addListener((o, was, now) -> {
            if (!now) {
                hideAll();
            }
        });
        summaryText.setId(SUMMARY_ID);
        summaryText.getStyleClass().add(Style.TOAST_TITLE);
        Button close = closeButton(() -> {
            more.clear();
            layout();
        });
        HBox row = new HBox(8, Icons.of(MaterialDesignB.BELL_OUTLINE, 16), summaryText, spacer(), close);
        row.setAlignment(Pos.CENTER_LEFT);
        row.getStyleClass().addAll(STYLE, Style.TOAST_SUMMARY);
        row.setPrefWidth(WIDTH);
        row.setOnMouseClicked(e -> {
            more.clear();
            layout();
            onSummary.run();
        });
        summary.getContent().add(row);
        summaryTimer.setOnFinished(e -> {
            more.clear();
            layout();
        });
    }

    /** The stack of {@code owner}'s window (made on first use). */
    public static ToastStack of(Window owner) {
        return (ToastStack) owner.getProperties().computeIfAbsent(ToastStack.class, k -> new ToastStack(owner));
    }

    /** Runs when the summary is clicked (the panel comes to the front). */
    public void setOnSummary(Runnable r) {
        onSummary = r == null ? () -> {} : r;
    }

    /**
     * Shows a toast under {@code key} (one already there with that key is replaced), or counts it in the summary when
     * {@link #MAX_SHOWN} show.
     *
     * @param style  a style class of the toast (what announces it), for tests and styling
     * @param onOpen runs when the toast is clicked (after it hides)
     */
    public void show(String key, String style, Ikon icon, String title, String text, Runnable onOpen) {
        if (!owner.isShowing()) {
            return;
        }
        hide(key);
        if (shown.size() >= MAX_SHOWN) {
            more.add(key);
            summaryTimer.playFromStart();
            layout();
            return;
        }
        Label t = new Label(breakable(title));
        t.getStyleClass().add(Style.TOAST_TITLE);
        // Wrapped, never cut: a long sandbox id would otherwise take the end of "… asks for approval". JavaFX breaks a
        // line only at white space, and inside a word too long for it: a long id breaks after one of its hyphens.
        t.setWrapText(true);
        t.setAccessibleText(title);
        t.setMinHeight(Region.USE_PREF_SIZE);
        t.setMinWidth(0);
        Label body = new Label(text);
        body.getStyleClass().add(Style.TOAST_TEXT);
        body.setWrapText(true);
        body.setMinHeight(Region.USE_PREF_SIZE);
        VBox words = new VBox(2, t, body);
        words.setMinWidth(0);
        HBox.setHgrow(words, Priority.ALWAYS);
        Popup p = new Popup();
        Button close = closeButton(() -> hide(key));
        HBox root = new HBox(10, Icons.of(icon, 28), words, close);
        root.setAlignment(Pos.TOP_LEFT);
        root.getStyleClass().addAll(STYLE, style);
        root.setPrefWidth(WIDTH);
        root.setMaxWidth(WIDTH);
        root.setOnMouseClicked(e -> {
            hide(key);
            onOpen.run();
        });
        p.getContent().add(root);
        PauseTransition timer = new PauseTransition(SHOWN_FOR);
        timer.setOnFinished(e -> {
            if (shown.get(key) == p) {
                hide(key);
            }
        });
        p.getProperties().put(PauseTransition.class, timer);
        shown.put(key, p);
        adoptTheme(root);
        timer.play();
        layout();
    }

    /** A hair space (white space to JavaFX, so a line may break there; hardly wider than nothing). */
    static final char BREAK = '\u200A';

    /**
     * {@code text} with a place to break the line after each hyphen, slash or underscore of its long words (sandbox
     * ids, branches): wrapped, "describe-release-process-20261206-001-claude-3" breaks between its parts, never
     * inside "20261206".
     */
    public static String breakable(String text) {
        if (text == null) {
            return null;
        }
        StringBuilder b = new StringBuilder(text.length() + 8);
        for (String word : text.split(" ", -1)) {
            if (!b.isEmpty()) {
                b.append(' ');
            }
            if (word.length() <= 16) {
                b.append(word);
                continue;
            }
            for (int i = 0; i < word.length(); i++) {
                char c = word.charAt(i);
                b.append(c);
                if ((c == '-' || c == '/' || c == '_') && i > 0 && i < word.length() - 1) {
                    b.append(BREAK);
                }
            }
        }
        return b.toString();
    }

    /** Takes away the toast of {@code key}, shown or counted in the summary; nothing when there is none. */
    public void hide(String key) {
        Popup p = shown.remove(key);
        if (p != null) {
            ((PauseTransition) p.getProperties().get(PauseTransition.class)).stop();
            p.hide();
        }
        if (p != null || more.remove(key)) {
            layout();
        }
    }

    /** Takes away every toast whose key is not in {@code keys} (what is still waiting), of those starting with {@code prefix}. */
    public void keepOnly(String prefix, Set<String> keys) {
        List<String> gone = new ArrayList<>();
        for (String k : shown.keySet()) {
            if (k.startsWith(prefix) && !keys.contains(k)) {
                gone.add(k);
            }
        }
        for (String k : more) {
            if (k.startsWith(prefix) && !keys.contains(k)) {
                gone.add(k);
            }
        }
        gone.forEach(this::hide);
    }

    /** Keys of the toasts shown now, oldest first (for tests). */
    public List<String> shownKeys() {
        return List.copyOf(shown.keySet());
    }

    /** How many toasts the summary counts (for tests). */
    public int moreCount() {
        return more.size();
    }

    private void hideAll() {
        new ArrayList<>(shown.keySet()).forEach(this::hide);
        more.clear();
        summary.hide();
    }

    /** Places the toasts from the window's bottom-left corner upwards, the summary above them. */
    private void layout() {
        if (!owner.isShowing()) {
            return;
        }
        double x = owner.getX() + MARGIN;
        double y = owner.getY() + owner.getHeight() - BOTTOM;
        List<Popup> popups = new ArrayList<>(shown.values());
        for (int i = popups.size() - 1; i >= 0; i--) {
            Popup p = popups.get(i);
            double h = height(p);
            y -= h + GAP;
            place(p, x, y);
        }
        if (more.isEmpty()) {
            summary.hide();
            summaryTimer.stop();
            return;
        }
        summaryText.setText(more.size() == 1 ? "1 more waiting" : more.size() + " more waiting");
        adoptTheme((javafx.scene.Parent) summary.getContent().get(0));
        double h = height(summary);
        place(summary, x, y - h - GAP);
    }

    private void place(Popup p, double x, double y) {
        if (p.isShowing()) {
            p.setX(x);
            p.setY(y);
        } else {
            p.show(owner, x, y);
        }
    }

    /** The popup's content height at the toast width (laid out once, off screen when not shown yet). */
    private static double height(Popup p) {
        javafx.scene.Parent root = (javafx.scene.Parent) p.getContent().get(0);
        root.applyCss();
        return ((Region) root).prefHeight(WIDTH);
    }

    private void adoptTheme(javafx.scene.Parent root) {
        Scene scene = owner.getScene();
        Theme.adopt(root, scene);
    }

    private static Button closeButton(Runnable action) {
        Button close = new Button(null, Icons.of(MaterialDesignC.CLOSE, 14));
        close.getStyleClass().addAll(Styles.BUTTON_ICON, Styles.FLAT, Style.TOAST_CLOSE);
        close.setFocusTraversable(false);
        close.setOnAction(e -> {
            e.consume();
            action.run();
        });
        // Closing is not opening: the click stays on the button.
        close.addEventHandler(javafx.scene.input.MouseEvent.MOUSE_CLICKED, javafx.scene.input.MouseEvent::consume);
        return close;
    }

    private static Region spacer() {
        Region r = new Region();
        HBox.setHgrow(r, Priority.ALWAYS);
        return r;
    }
}
