package dev.paddock.ui.conflicts;

import dev.paddock.merge.conflict.ConflictFile;
import dev.paddock.merge.conflict.ConflictHunk;
import dev.paddock.merge.conflict.FileConflictKind;
import dev.paddock.merge.conflict.LineRange;
import dev.paddock.ui.common.ErrorBox;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import javafx.beans.binding.Bindings;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.SplitPane;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.materialdesign2.MaterialDesignA;
import org.kordamp.ikonli.materialdesign2.MaterialDesignD;
import org.kordamp.ikonli.materialdesign2.MaterialDesignF;

/**
 * The three-way resolution view (kdiff3's layout): base, ours (the base branch) and theirs (the agent's
 * branch) read-only on top, base always visible, the editable result below, the conflicted files on
 * the left. Conflict hunks are highlighted in all four texts, unresolved ones in red, resolved ones in
 * green, the one shown outlined. Keys: F7 / Shift+F7 (or Alt+Down / Alt+Up) next / previous conflict;
 * Alt+O ours, Alt+T theirs, Alt+B ours then theirs, Alt+R theirs then ours, Alt+P the proposed
 * resolution; Ctrl+S or Ctrl+Enter mark the file resolved. Binds to a {@link ThreeWayViewModel}.
 */
public final class ThreeWayView extends BorderPane {
    /** Node ids, for tests and styling. */
    public static final String BASE_ID = "threeway-base";

    public static final String OURS_ID = "threeway-ours";
    public static final String THEIRS_ID = "threeway-theirs";
    public static final String RESULT_ID = "threeway-result";
    public static final String FILES_ID = "threeway-files";
    public static final String MARK_ID = "threeway-mark-resolved";
    public static final String ABORT_ID = "threeway-abort";
    public static final String HUNK_LABEL_ID = "threeway-hunk";
    /** Paragraph style classes of hunk lines. */
    public static final String UNRESOLVED = Style.HUNK_UNRESOLVED;

    public static final String RESOLVED = Style.HUNK_RESOLVED;
    public static final String CURRENT = Style.HUNK_CURRENT;
    private static final String CSS = ThreeWayView.class
            .getResource("/dev/paddock/ui/conflicts/conflicts.css")
            .toExternalForm();

    private final ThreeWayViewModel vm;
    private final CodePane base = new CodePane(BASE_ID, false);
    private final CodePane ours = new CodePane(OURS_ID, false);
    private final CodePane theirs = new CodePane(THEIRS_ID, false);
    private final CodePane result = new CodePane(RESULT_ID, true);
    private final ListView<FileRow> fileList;
    private final StackPane lower = new StackPane();
    private final VBox wholeFile = new VBox(10);
    private final Label wholeFileText = new Label();
    private final Button keepOurs = new Button("Keep ours", Icons.of(MaterialDesignA.ARROW_LEFT_BOLD_OUTLINE));
    private final Button keepTheirs = new Button("Keep theirs", Icons.of(MaterialDesignA.ARROW_RIGHT_BOLD_OUTLINE));
    private final Button delete = new Button("Delete file", Icons.of(MaterialDesignD.DELETE_OUTLINE));
    /** Set while the view itself changes the result text: such changes are not hand edits. */
    private boolean applying;
    /** Set from a key press the view acted on until its key is released: its typed character is dropped. */
    private boolean swallowTyped;

    private final javafx.beans.binding.BooleanBinding over;
    private final javafx.beans.binding.BooleanBinding currentDone;

    /** The view of {@code vm}; call {@link ThreeWayViewModel#load} to fill it. */
    public ThreeWayView(ThreeWayViewModel vm) {
        this.vm = vm;
        over = Bindings.createBooleanBinding(vm::isOver, vm.progressProperty(), vm.abortedProperty());
        currentDone = Bindings.createBooleanBinding(this::currentFileDone, vm.fileIndexProperty(), vm.files());
        getStyleClass().add(Style.THREEWAY);
        getStylesheets().add(CSS);

        fileList = new ListView<>(vm.files());
        fileList.setId(FILES_ID);
        fileList.getStyleClass().add(Style.THREEWAY_FILES);
        fileList.setCellFactory(v -> new FileCell());
        fileList.setPrefWidth(250);
        fileList.getSelectionModel().selectedIndexProperty().addListener((o, a, i) -> {
            if (i.intValue() >= 0 && i.intValue() != vm.fileIndexProperty().get()) {
                vm.selectFile(i.intValue());
            }
        });
        vm.fileIndexProperty()
                .addListener((o, a, i) -> fileList.getSelectionModel().select(i.intValue()));
        Label filesCaption = new Label("Conflicted files");
        filesCaption.getStyleClass().add(Style.CODE_CAPTION);
        filesCaption.setMaxWidth(Double.MAX_VALUE);
        VBox left = new VBox(filesCaption, fileList);
        VBox.setVgrow(fileList, Priority.ALWAYS);

        SplitPane upper = new SplitPane(base, ours, theirs);
        upper.setDividerPositions(1 / 3.0, 2 / 3.0);
        buildWholeFilePanel();
        lower.getChildren().addAll(result, wholeFile);
        SplitPane texts = new SplitPane(upper, lower);
        texts.setOrientation(Orientation.VERTICAL);
        texts.setDividerPositions(0.45);

        VBox center = new VBox(new HunkBar(vm), texts);
        VBox.setVgrow(texts, Priority.ALWAYS);
        SplitPane body = new SplitPane(left, center);
        body.setDividerPositions(0.17);
        SplitPane.setResizableWithParent(left, false);

        ErrorBox error = new ErrorBox(vm::dismissError).bindTo(vm.errorProperty());
        error.setId("threeway-error");
        ThreeWayHeader header = new ThreeWayHeader(vm, over, currentDone, new ThreeWayHeader.Commands() {
            @Override
            public void markResolved() {
                ThreeWayView.this.markResolved();
            }

            @Override
            public void unresolve() {
                vm.unresolve();
            }

            @Override
            public void abort() {
                confirmAbort();
            }

            @Override
            public void close() {
                if (getScene() != null && getScene().getWindow() != null) {
                    getScene().getWindow().hide();
                }
            }
        });
        setTop(new VBox(6, header, error));
        setCenter(body);

        vm.fileProperty().addListener((o, a, f) -> showFile(f));
        // A file marked resolved is written: its result is no longer edited here (until it is unresolved), nor
        // anything once the merge is over.
        vm.files().addListener((javafx.collections.ListChangeListener<Object>) c -> updateEditable());
        over.addListener((o, a, b) -> updateEditable());
        vm.hunkProperty().addListener((o, a, h) -> {
            restyle(List.of(a.intValue(), h.intValue()));
            revealHunk();
        });
        vm.setOnSplice(this::applySplice);
        vm.setPreparer(ThreeWayView::prepare);
        vm.setOnHunksChanged(this::restyle);
        result.area().plainTextChanges().subscribe(c -> {
            if (!applying) {
                vm.edited(c.getPosition(), c.getRemoved(), c.getInserted());
            }
        });
        result.area().caretPositionProperty().addListener((o, a, p) -> {
            if (!applying && result.area().isFocused()) {
                vm.caretAtLine(result.area().getCurrentParagraph());
            }
        });
        addEventFilter(KeyEvent.KEY_PRESSED, this::onKey);
        // A key this view acted on must not also type its letter into the result (Alt+O would insert "o").
        addEventFilter(KeyEvent.KEY_TYPED, e -> {
            if (swallowTyped || e.isAltDown() && !e.isShortcutDown()) {
                e.consume();
            }
        });
        addEventFilter(KeyEvent.KEY_RELEASED, e -> swallowTyped = false);
        showFile(null);
    }

    private void buildWholeFilePanel() {
        wholeFile.getStyleClass().add(Style.THREEWAY_WHOLEFILE);
        wholeFile.setAlignment(Pos.CENTER);
        wholeFileText.setWrapText(true);
        wholeFileText.setMaxWidth(560);
        keepOurs.setId("threeway-keep-ours");
        keepTheirs.setId("threeway-keep-theirs");
        delete.setId("threeway-delete");
        keepOurs.setOnAction(e -> vm.keep(ConflictBackend.Side.OURS));
        keepTheirs.setOnAction(e -> vm.keep(ConflictBackend.Side.THEIRS));
        delete.setOnAction(e -> vm.deleteFile());
        for (Button b : List.of(keepOurs, keepTheirs, delete)) {
            b.disableProperty().bind(vm.busyProperty().or(currentDone).or(over));
        }
        HBox buttons = new HBox(10, keepOurs, keepTheirs, delete);
        buttons.setAlignment(Pos.CENTER);
        wholeFile.getChildren().addAll(Icons.of(MaterialDesignF.FILE_ALERT_OUTLINE, 28), wholeFileText, buttons);
    }

    // Showing ------------------------------------------------------------------------------------

    private void showFile(ConflictFile f) {
        boolean text = f != null && !f.kind().needsHuman();
        result.setVisible(f == null || text);
        wholeFile.setVisible(f != null && !text);
        Prepared ready = f == null
                ? null
                : (Prepared) vm.takePrepared(vm.fileIndexProperty().get());
        if (ready == null && f != null) {
            ready = prepare(f, null);
        }
        base.setDocument(ready == null ? CodePane.document("", i -> List.of()) : ready.base());
        ours.setDocument(ready == null ? CodePane.document("", i -> List.of()) : ready.ours());
        theirs.setDocument(ready == null ? CodePane.document("", i -> List.of()) : ready.theirs());
        base.caption().setText("Base" + absent(f, f == null ? "" : f.baseText()));
        ours.caption().setText("Ours: the base branch" + absent(f, f == null ? "" : f.oursText()));
        theirs.caption().setText("Theirs: the agent's branch" + absent(f, f == null ? "" : f.theirsText()));
        result.caption().setText(f == null ? "Result" : "Result: " + f.path() + " (editable)");
        applying = true;
        try {
            if (ready != null && ready.result() != null) {
                result.setDocument(ready.result());
            } else {
                result.setText(text ? vm.resultText() : "");
            }
        } finally {
            applying = false;
        }
        updateEditable();
        if (f != null && !text) {
            describeWholeFile(f);
        }
        if (f != null) {
            List<Integer> all = new ArrayList<>();
            for (int h = 0; h < f.hunks().size(); h++) {
                all.add(h);
            }
            restyle(all);
            revealHunk();
        }
    }

    /** The four documents of a file as first shown, built off the FX thread when the conflicts are read. */
    private record Prepared(CodePane.Doc base, CodePane.Doc ours, CodePane.Doc theirs, CodePane.Doc result) {}

    /**
     * The documents of {@code f} with every hunk styled unresolved and the first outlined (how a file
     * starts); {@code r} null when it has no result yet (then the result is filled and styled on show).
     */
    private static Prepared prepare(ConflictFile f, FileResolution r) {
        int n = f.hunks().size();
        java.util.function.Function<java.util.function.IntFunction<int[]>, java.util.function.IntFunction<List<String>>>
                styler = span -> {
                    java.util.Map<Integer, List<String>> byLine = new java.util.HashMap<>();
                    for (int h = 0; h < n; h++) {
                        int[] s = span.apply(h);
                        for (int line = s[0]; line < s[1]; line++) {
                            byLine.put(line, h == 0 ? List.of(UNRESOLVED, CURRENT) : List.of(UNRESOLVED));
                        }
                    }
                    return line -> byLine.getOrDefault(line, List.of());
                };
        List<ConflictHunk> hs = f.hunks();
        return new Prepared(
                CodePane.document(
                        f.baseText(), styler.apply(h -> range(hs.get(h).base()))),
                CodePane.document(
                        f.oursText(), styler.apply(h -> range(hs.get(h).ours()))),
                CodePane.document(
                        f.theirsText(), styler.apply(h -> range(hs.get(h).theirs()))),
                r == null ? null : CodePane.document(r.text(), styler.apply(h -> new int[] {r.start(h), r.end(h)})));
    }

    private static int[] range(LineRange r) {
        return new int[] {r.start(), r.end()};
    }

    private static String absent(ConflictFile f, String text) {
        if (f == null || text != null) {
            return "";
        }
        return f.kind() == FileConflictKind.BINARY ? " (binary)" : " (absent: deleted or not there)";
    }

    private void describeWholeFile(ConflictFile f) {
        String what = switch (f.kind()) {
            case DELETE_MODIFY ->
                (f.oursText() == null
                                ? "Ours deleted " + f.path() + "; theirs changed it."
                                : "Theirs deleted " + f.path() + "; ours changed it.")
                        + " Keep the changed version or delete the file.";
            case RENAME_RENAME -> "Both sides renamed " + f.path() + " differently. Keep one side's version.";
            case BINARY ->
                f.path() + " is binary and changed on both sides: there is no text to merge."
                        + " Keep one side's version, or delete it.";
            default -> "";
        };
        wholeFileText.setText(what);
        keepOurs.setText(
                f.oursText() == null && f.kind() != FileConflictKind.BINARY ? "Keep ours (deleted)" : "Keep ours");
        keepTheirs.setText(
                f.theirsText() == null && f.kind() != FileConflictKind.BINARY
                        ? "Keep theirs (deleted)"
                        : "Keep theirs");
    }

    /** Restyles hunks {@code hunks} (ignoring -1) in the four texts. */
    private void restyle(List<Integer> hunks) {
        ConflictFile f = vm.fileProperty().get();
        if (f == null) {
            return;
        }
        for (int h : hunks) {
            if (h < 0 || h >= f.hunks().size()) {
                continue;
            }
            ConflictHunk hunk = f.hunks().get(h);
            List<String> styles = styles(h);
            styleRange(base, hunk.base(), styles);
            styleRange(ours, hunk.ours(), styles);
            styleRange(theirs, hunk.theirs(), styles);
            if (!f.kind().needsHuman()) {
                int[] span = vm.resultSpan(h);
                result.styleLines(span[0], span[1], styles);
                // A replacement can leave its old style on the line after (or before) the hunk.
                clearIfOutside(span[1]);
                clearIfOutside(span[0] - 1);
            }
        }
    }

    private void clearIfOutside(int line) {
        ConflictFile f = vm.fileProperty().get();
        for (int h = 0; h < f.hunks().size(); h++) {
            int[] s = vm.resultSpan(h);
            if (line >= s[0] && line < s[1]) {
                return;
            }
        }
        result.clearLine(line);
    }

    private List<String> styles(int h) {
        String state = vm.choice(h).isResolved() ? RESOLVED : UNRESOLVED;
        return h == vm.hunkProperty().get() ? List.of(state, CURRENT) : List.of(state);
    }

    private static void styleRange(CodePane pane, LineRange r, List<String> styles) {
        pane.styleLines(r.start(), r.end(), styles);
    }

    private void revealHunk() {
        ConflictHunk h = vm.currentHunk();
        if (h == null) {
            return;
        }
        base.reveal(h.base().start());
        ours.reveal(h.ours().start());
        theirs.reveal(h.theirs().start());
        int[] span = vm.resultSpan(h.index());
        result.reveal(span[0]);
        if (result.area().getCurrentParagraph() != span[0]
                && span[0] < result.area().getParagraphs().size()) {
            applying = true;
            try {
                result.area().moveTo(span[0], 0);
            } finally {
                applying = false;
            }
        }
    }

    private void applySplice(FileResolution.Splice s) {
        applying = true;
        try {
            result.area().replaceText(s.from(), s.to(), s.text());
        } finally {
            applying = false;
        }
    }

    // Commands ------------------------------------------------------------------------------------

    private void updateEditable() {
        ConflictFile f = vm.fileProperty().get();
        result.area().setEditable(f != null && !f.kind().needsHuman() && !vm.currentFileResolved() && !vm.isOver());
    }

    private boolean currentFileDone() {
        int i = vm.fileIndexProperty().get();
        return i < 0 || i >= vm.files().size() || vm.files().get(i).resolved();
    }

    private void markResolved() {
        ConflictFile f = vm.fileProperty().get();
        if (f == null || currentFileDone()) {
            return;
        }
        if (f.kind().needsHuman()) {
            return; // the whole-file buttons say what happens to it
        }
        int left = vm.unresolvedProperty().get();
        if (left > 0
                && !confirm(
                        "Mark " + f.path() + " resolved?",
                        left + (left == 1 ? " conflict is" : " conflicts are")
                                + " still unresolved: the result keeps their text as it shows now (base's lines, or ours where base"
                                + " has none).",
                        "Mark resolved")) {
            return;
        }
        vm.markResolved();
    }

    private void confirmAbort() {
        // Cancel is the default: Enter out of habit must not drop every resolution.
        if (dev.paddock.ui.common.SafeQuestion.ask(
                getScene(),
                "threeway-abort-question",
                "Paddock",
                "Abort this merge?",
                "Every resolution made here is dropped and everything is restored as it was before the merge started."
                        + " The branch waits for a human.",
                new ButtonType("Abort merge", javafx.scene.control.ButtonBar.ButtonData.OK_DONE),
                ButtonType.CANCEL)) {
            vm.abort();
        }
    }

    private boolean confirm(String header, String text, String yes) {
        ButtonType ok = new ButtonType(yes, javafx.scene.control.ButtonBar.ButtonData.OK_DONE);
        Alert alert = new Alert(Alert.AlertType.CONFIRMATION, text, ok, ButtonType.CANCEL);
        alert.setHeaderText(header);
        alert.setTitle("Paddock");
        if (getScene() != null) {
            alert.initOwner(getScene().getWindow());
            dev.paddock.ui.theme.Theme.adopt(alert.getDialogPane(), getScene());
        }
        Optional<ButtonType> answer = alert.showAndWait();
        return answer.isPresent() && answer.get() == ok;
    }

    private void onKey(KeyEvent e) {
        KeyCode k = e.getCode();
        Runnable action = null;
        if (k == KeyCode.F7) {
            action = e.isShiftDown() ? vm::previous : vm::next;
        } else if (e.isAltDown() && k == KeyCode.DOWN) {
            action = vm::next;
        } else if (e.isAltDown() && k == KeyCode.UP) {
            action = vm::previous;
        } else if (e.isShortcutDown() && (k == KeyCode.S || k == KeyCode.ENTER)) {
            action = this::markResolved;
        } else if (e.isShortcutDown() && !e.isShiftDown() && k == KeyCode.U) {
            action = vm::unresolve;
        } else if (e.isAltDown() && !e.isShortcutDown()) {
            Function<KeyCode, HunkState> keys = c -> switch (c) {
                case O -> HunkState.OURS;
                case T -> HunkState.THEIRS;
                case B -> HunkState.OURS_THEN_THEIRS;
                case R -> HunkState.THEIRS_THEN_OURS;
                case P -> HunkState.PROPOSED;
                default -> null;
            };
            HunkState c = keys.apply(k);
            action = c == null ? null : () -> vm.choose(c);
        }
        if (action != null) {
            e.consume();
            swallowTyped = true;
            action.run();
        }
    }

    /** The model this view shows (tests wait on its state). */
    public ThreeWayViewModel viewModel() {
        return vm;
    }

    /** The code area of the result (tests read and type into it). */
    public org.fxmisc.richtext.CodeArea resultArea() {
        return result.area();
    }
}
