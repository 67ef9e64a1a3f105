package dev.paddock.ui.conflicts;

import dev.paddock.merge.conflict.ConflictFile;
import dev.paddock.merge.conflict.ConflictHunk;
import dev.paddock.merge.conflict.ConflictReport;
import dev.paddock.merge.conflict.FileConflictKind;
import dev.paddock.merge.conflict.LineRange;
import dev.paddock.ui.common.ErrorBox;
import dev.paddock.ui.common.Icons;
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
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.materialdesign2.MaterialDesignA;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;
import org.kordamp.ikonli.materialdesign2.MaterialDesignD;
import org.kordamp.ikonli.materialdesign2.MaterialDesignF;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;

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
    public static final String UNRESOLVED = "pd-hunk-unresolved";
    public static final String RESOLVED = "pd-hunk-resolved";
    public static final String CURRENT = "pd-hunk-current";
    private static final String CSS = ThreeWayView.class.getResource("/dev/paddock/ui/conflicts/conflicts.css")
            .toExternalForm();

    private final ThreeWayViewModel vm;
    private final CodePane base = new CodePane(BASE_ID, false);
    private final CodePane ours = new CodePane(OURS_ID, false);
    private final CodePane theirs = new CodePane(THEIRS_ID, false);
    private final CodePane result = new CodePane(RESULT_ID, true);
    private final ListView<ThreeWayViewModel.FileRow> fileList;
    private final StackPane lower = new StackPane();
    private final VBox wholeFile = new VBox(10);
    private final Label wholeFileText = new Label();
    private final Button keepOurs = new Button("Keep ours", Icons.of(MaterialDesignA.ARROW_LEFT_BOLD_OUTLINE));
    private final Button keepTheirs = new Button("Keep theirs", Icons.of(MaterialDesignA.ARROW_RIGHT_BOLD_OUTLINE));
    private final Button delete = new Button("Delete file", Icons.of(MaterialDesignD.DELETE_OUTLINE));
    /** Set while the view itself changes the result text: such changes are not hand edits. */
    private boolean applying;

    /** The view of {@code vm}; call {@link ThreeWayViewModel#load} to fill it. */
    public ThreeWayView(ThreeWayViewModel vm) {
        this.vm = vm;
        getStyleClass().add("pd-threeway");
        getStylesheets().add(CSS);

        fileList = new ListView<>(vm.files());
        fileList.setId(FILES_ID);
        fileList.getStyleClass().add("pd-threeway-files");
        fileList.setCellFactory(v -> new FileCell());
        fileList.setPrefWidth(250);
        fileList.getSelectionModel().selectedIndexProperty().addListener((o, a, i) -> {
            if (i.intValue() >= 0 && i.intValue() != vm.fileIndexProperty().get()) {
                vm.selectFile(i.intValue());
            }
        });
        vm.fileIndexProperty().addListener((o, a, i) -> fileList.getSelectionModel().select(i.intValue()));
        Label filesCaption = new Label("Conflicted files");
        filesCaption.getStyleClass().add("pd-code-caption");
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

        VBox center = new VBox(hunkBar(), texts);
        VBox.setVgrow(texts, Priority.ALWAYS);
        SplitPane body = new SplitPane(left, center);
        body.setDividerPositions(0.17);
        SplitPane.setResizableWithParent(left, false);

        ErrorBox error = new ErrorBox(vm::dismissError).bindTo(vm.errorProperty());
        error.setId("threeway-error");
        setTop(new VBox(6, header(), error));
        setCenter(body);

        vm.fileProperty().addListener((o, a, f) -> showFile(f));
        // A file marked resolved is written: its result is no longer edited here.
        vm.files().addListener((javafx.collections.ListChangeListener<Object>) c -> {
            ConflictFile f = vm.fileProperty().get();
            result.area().setEditable(f != null && !f.kind().needsHuman() && !vm.currentFileResolved());
        });
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
        showFile(null);
    }

    private HBox header() {
        Label title = new Label(null, Icons.of(MaterialDesignS.SOURCE_MERGE, 20));
        title.getStyleClass().add("pd-threeway-title");
        title.textProperty().bind(vm.reportProperty().map(this::titleOf).orElse("Reading the conflicts…"));
        Label status = new Label();
        status.getStyleClass().add("pd-muted");
        status.textProperty().bind(vm.statusProperty());
        status.setMinWidth(0);
        HBox.setHgrow(status, Priority.ALWAYS);
        status.setMaxWidth(Double.MAX_VALUE);
        ProgressIndicator progress = new ProgressIndicator();
        progress.setPrefSize(20, 20);
        progress.visibleProperty().bind(vm.busyProperty());
        Button abort = new Button("Abort merge…", Icons.of(MaterialDesignC.CLOSE_OCTAGON_OUTLINE));
        abort.setId(ABORT_ID);
        abort.getStyleClass().add("danger");
        abort.setTooltip(new Tooltip("Abandon this merge: everything is restored as it was before it started"));
        abort.disableProperty().bind(vm.busyProperty().or(vm.finishedProperty()).or(vm.abortedProperty())
                .or(vm.reportProperty().isNull()));
        abort.setOnAction(e -> confirmAbort());
        Button mark = new Button("Mark resolved", Icons.of(MaterialDesignC.CHECK_BOLD));
        mark.setId(MARK_ID);
        mark.getStyleClass().add("accent");
        mark.setTooltip(new Tooltip("Hand this file's result to the merge queue (Ctrl+S or Ctrl+Enter)"));
        mark.disableProperty().bind(vm.busyProperty().or(vm.fileProperty().isNull())
                .or(Bindings.createBooleanBinding(this::currentFileDone, vm.fileIndexProperty(), vm.files())));
        mark.setOnAction(e -> markResolved());
        // The buttons keep their labels; the title and the status give way (ellipsis, full text in a tooltip).
        abort.setMinWidth(Region.USE_PREF_SIZE);
        mark.setMinWidth(Region.USE_PREF_SIZE);
        title.setMinWidth(0);
        Tooltip statusTip = new Tooltip();
        statusTip.textProperty().bind(status.textProperty());
        status.setTooltip(statusTip);
        HBox bar = new HBox(10, title, status, progress, abort, mark);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.getStyleClass().add("pd-threeway-header");
        return bar;
    }

    private String titleOf(ConflictReport r) {
        return "Merge request #" + vm.mergeRequestId() + ": theirs " + shortId(r.theirs()) + " into ours "
                + shortId(r.ours()) + (r.base() == null ? " (no merge base)" : ", base " + shortId(r.base()));
    }

    private HBox hunkBar() {
        Button prev = iconButton(MaterialDesignA.ARROW_UP, "Previous conflict (Shift+F7, Alt+Up)", vm::previous);
        prev.setId("threeway-previous");
        Button next = iconButton(MaterialDesignA.ARROW_DOWN, "Next conflict (F7, Alt+Down)", vm::next);
        next.setId("threeway-next");
        Label where = new Label();
        where.setId(HUNK_LABEL_ID);
        where.getStyleClass().add("pd-threeway-hunk");
        where.textProperty().bind(Bindings.createStringBinding(this::hunkText, vm.hunkProperty(),
                vm.unresolvedProperty(), vm.fileProperty()));
        where.setMinWidth(Region.USE_PREF_SIZE);
        Label why = new Label();
        why.setId("threeway-why");
        why.getStyleClass().add("pd-muted");
        why.textProperty().bind(Bindings.createStringBinding(this::whyText, vm.hunkProperty(), vm.fileProperty()));
        why.setMinWidth(0);
        Tooltip whyTip = new Tooltip();
        whyTip.textProperty().bind(why.textProperty());
        why.setTooltip(whyTip);
        why.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(why, Priority.ALWAYS);
        HBox bar = new HBox(6, prev, next, where, why,
                choiceButton("Ours", HunkState.OURS, "Take ours' lines (Alt+O)", "threeway-take-ours"),
                choiceButton("Theirs", HunkState.THEIRS, "Take theirs' lines (Alt+T)", "threeway-take-theirs"),
                choiceButton("Ours + theirs", HunkState.OURS_THEN_THEIRS, "Ours' lines, then theirs' (Alt+B)",
                        "threeway-take-ours-theirs"),
                choiceButton("Theirs + ours", HunkState.THEIRS_THEN_OURS, "Theirs' lines, then ours' (Alt+R)",
                        "threeway-take-theirs-ours"),
                choiceButton("Apply proposed", HunkState.PROPOSED,
                        "Apply the resolution proposed for this safe class (Alt+P)", "threeway-take-proposed"));
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.getStyleClass().add("pd-threeway-hunkbar");
        return bar;
    }

    private Button iconButton(Ikon icon, String tip, Runnable action) {
        Button b = new Button(null, Icons.of(icon));
        b.getStyleClass().add("button-icon");
        b.setTooltip(new Tooltip(tip));
        b.setOnAction(e -> action.run());
        b.disableProperty().bind(vm.hunkProperty().lessThan(0));
        return b;
    }

    private Button choiceButton(String text, HunkState choice, String tip, String id) {
        Button b = new Button(text);
        b.setId(id);
        b.setTooltip(new Tooltip(tip));
        b.setMinWidth(Region.USE_PREF_SIZE);
        b.setOnAction(e -> vm.choose(choice));
        b.disableProperty().bind(Bindings.createBooleanBinding(() -> !vm.canChoose(choice), vm.hunkProperty(),
                vm.fileProperty(), vm.busyProperty(), vm.files()));
        return b;
    }

    private void buildWholeFilePanel() {
        wholeFile.getStyleClass().add("pd-threeway-wholefile");
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
            b.disableProperty().bind(vm.busyProperty()
                    .or(Bindings.createBooleanBinding(this::currentFileDone, vm.fileIndexProperty(), vm.files())));
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
        Prepared ready = f == null ? null : (Prepared) vm.takePrepared(vm.fileIndexProperty().get());
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
        result.area().setEditable(text && !vm.currentFileResolved());
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
    private record Prepared(CodePane.Doc base, CodePane.Doc ours, CodePane.Doc theirs, CodePane.Doc result) {
    }

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
                CodePane.document(f.baseText(), styler.apply(h -> range(hs.get(h).base()))),
                CodePane.document(f.oursText(), styler.apply(h -> range(hs.get(h).ours()))),
                CodePane.document(f.theirsText(), styler.apply(h -> range(hs.get(h).theirs()))),
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
            case DELETE_MODIFY -> (f.oursText() == null ? "Ours deleted " + f.path() + "; theirs changed it."
                    : "Theirs deleted " + f.path() + "; ours changed it.")
                    + " Keep the changed version or delete the file.";
            case RENAME_RENAME -> "Both sides renamed " + f.path() + " differently. Keep one side's version.";
            case BINARY -> f.path() + " is binary and changed on both sides: there is no text to merge."
                    + " Keep one side's version, or delete it.";
            default -> "";
        };
        wholeFileText.setText(what);
        keepOurs.setText(f.oursText() == null && f.kind() != FileConflictKind.BINARY ? "Keep ours (deleted)" : "Keep ours");
        keepTheirs.setText(f.theirsText() == null && f.kind() != FileConflictKind.BINARY
                ? "Keep theirs (deleted)" : "Keep theirs");
    }

    private String hunkText() {
        ConflictFile f = vm.fileProperty().get();
        if (f == null) {
            return "";
        }
        if (f.hunks().isEmpty()) {
            return f.kind().needsHuman() ? f.kind().id().replace('_', '/') + ": no hunks" : "No conflict hunks";
        }
        int h = vm.hunkProperty().get();
        return "Conflict " + (h + 1) + " of " + f.hunks().size() + " · " + vm.unresolvedProperty().get()
                + " unresolved";
    }

    private String whyText() {
        ConflictHunk h = vm.currentHunk();
        if (h == null) {
            return "";
        }
        HunkState c = vm.choice(h.index());
        return h.hunkClass().id().replace('_', ' ') + confidenceText(h) + (h.why() == null ? "" : ": " + h.why())
                + (c.isResolved() ? " · resolved: " + c.label() : "");
    }

    /** " · proposal 100% sure" for a safe hunk, " · suggestion 40% sure" for a person's, "" without either. */
    static String confidenceText(ConflictHunk h) {
        if (h.suggested() == null) {
            return "";
        }
        return (h.proposed() != null ? " · proposal " : " · suggestion ") + Math.round(h.confidence() * 100)
                + "% sure";
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
        if (result.area().getCurrentParagraph() != span[0] && span[0] < result.area().getParagraphs().size()) {
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
        if (left > 0 && !confirm("Mark " + f.path() + " resolved?", left + (left == 1 ? " conflict is" : " conflicts are")
                + " still unresolved: the result keeps their text as it shows now (base's lines, or ours where base"
                + " has none).", "Mark resolved")) {
            return;
        }
        vm.markResolved();
    }

    private void confirmAbort() {
        if (confirm("Abort this merge?", "Every resolution made here is dropped and everything is restored as it"
                + " was before the merge started. The branch waits for a human.", "Abort merge")) {
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

    private static String shortId(String id) {
        return id == null ? "?" : id.substring(0, Math.min(8, id.length()));
    }

    /** A conflicted file: an icon for its state, its path, its kind and what is left. */
    private static final class FileCell extends ListCell<ThreeWayViewModel.FileRow> {
        @Override
        protected void updateItem(ThreeWayViewModel.FileRow r, boolean empty) {
            super.updateItem(r, empty);
            getStyleClass().removeAll("pd-file-resolved", "pd-file-open");
            if (empty || r == null) {
                setText(null);
                setGraphic(null);
                return;
            }
            String detail = r.resolved() ? "resolved"
                    : !r.isText() ? r.kind().id().replace('_', '/')
                    : r.unresolved() + " of " + r.hunks() + " unresolved";
            setText(r.path() + "\n" + detail);
            setGraphic(Icons.of(r.resolved() ? MaterialDesignC.CHECK_CIRCLE_OUTLINE
                    : r.isText() ? MaterialDesignF.FILE_DOCUMENT_EDIT_OUTLINE : MaterialDesignF.FILE_ALERT_OUTLINE));
            getStyleClass().add(r.resolved() ? "pd-file-resolved" : "pd-file-open");
        }
    }
}
