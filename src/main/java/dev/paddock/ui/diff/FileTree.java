package dev.paddock.ui.diff;

import dev.paddock.diff.FileChange;
import dev.paddock.ui.theme.Style;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.TreeCell;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;

/**
 * The files of a change as a tree of folders (a chain of folders with one child each is one node, as
 * {@code src/main/java}), each file with its kind (A added, M modified, D deleted, R renamed, C copied, T a file
 * that became a link or the other way) and its
 * added and deleted line counts. Selecting a file selects it in the view model, and the other way round.
 */
final class FileTree extends TreeView<FileTree.Node> {
    /** A folder (file null) or a file. */
    record Node(String name, FileChange file) {}

    private final DiffViewModel vm;
    private boolean syncing;

    FileTree(DiffViewModel vm) {
        this.vm = vm;
        setId("diff-files");
        setShowRoot(false);
        getStyleClass().add(Style.DIFF_FILES);
        setCellFactory(t -> new Cell());
        vm.files().addListener((javafx.collections.ListChangeListener<FileChange>) c -> rebuild());
        getSelectionModel().selectedItemProperty().addListener((o, a, item) -> {
            if (!syncing && item != null && item.getValue().file() != null) {
                vm.selectedProperty().set(item.getValue().file());
            }
        });
        vm.selectedProperty().addListener((o, a, f) -> reveal(f));
        rebuild();
    }

    private void rebuild() {
        TreeItem<Node> root = new TreeItem<>(new Node("", null));
        folders(vm.files()).fill(root);
        root.setExpanded(true);
        syncing = true;
        try {
            setRoot(root);
        } finally {
            syncing = false;
        }
        reveal(vm.selectedProperty().get());
    }

    /**
     * {@code files} in the order the tree shows them: a folder's folders by name (each with all it holds) before its
     * files, as the change lists them. The first is the file at the top of the tree; the next file is the one below.
     */
    static List<FileChange> inTreeOrder(List<FileChange> files) {
        List<FileChange> out = new ArrayList<>(files.size());
        folders(files).collect(out);
        return out;
    }

    private static Folder folders(List<FileChange> files) {
        Folder top = new Folder();
        for (FileChange f : files) {
            Folder at = top;
            String[] parts = f.path().split("/");
            for (int i = 0; i < parts.length - 1; i++) {
                at = at.folders.computeIfAbsent(parts[i], k -> new Folder());
            }
            at.files.add(f);
        }
        return top;
    }

    private void reveal(FileChange f) {
        if (f == null || getRoot() == null) {
            return;
        }
        TreeItem<Node> item = find(getRoot(), f);
        if (item != null && getSelectionModel().getSelectedItem() != item) {
            syncing = true;
            try {
                getSelectionModel().select(item);
                int row = getRow(item);
                if (row >= 0) {
                    scrollTo(Math.max(0, row - 3));
                }
            } finally {
                syncing = false;
            }
        }
    }

    private static TreeItem<Node> find(TreeItem<Node> at, FileChange f) {
        if (at.getValue() != null && Objects.equals(at.getValue().file(), f)) {
            return at;
        }
        for (TreeItem<Node> c : at.getChildren()) {
            TreeItem<Node> found = find(c, f);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** Folders by name, then files, as the change lists them. */
    private static final class Folder {
        final Map<String, Folder> folders = new TreeMap<>();
        final List<FileChange> files = new ArrayList<>();

        void fill(TreeItem<Node> into) {
            for (Map.Entry<String, Folder> e : folders.entrySet()) {
                String name = e.getKey();
                Folder f = e.getValue();
                while (f.files.isEmpty() && f.folders.size() == 1) {
                    Map.Entry<String, Folder> only =
                            f.folders.entrySet().iterator().next();
                    name = name + "/" + only.getKey();
                    f = only.getValue();
                }
                TreeItem<Node> item = new TreeItem<>(new Node(name, null));
                item.setExpanded(true);
                f.fill(item);
                into.getChildren().add(item);
            }
            for (FileChange c : files) {
                into.getChildren()
                        .add(new TreeItem<>(new Node(c.path().substring(c.path().lastIndexOf('/') + 1), c)));
            }
        }

        void collect(List<FileChange> out) {
            folders.values().forEach(f -> f.collect(out));
            out.addAll(files);
        }
    }

    /** The letter of a change's kind. */
    static String letter(FileChange f) {
        return switch (f.kind()) {
            case ADDED -> "A";
            case MODIFIED -> "M";
            case DELETED -> "D";
            case RENAMED -> "R";
            case COPIED -> "C";
            case TYPE_CHANGED -> "T";
        };
    }

    private static final class Cell extends TreeCell<Node> {
        private final Label kind = new Label();
        private final Label name = new Label();
        private final Label counts = new Label();
        private final HBox box = new HBox(6, kind, name, new Region(), counts);

        Cell() {
            box.setAlignment(Pos.CENTER_LEFT);
            HBox.setHgrow(box.getChildren().get(2), Priority.ALWAYS);
            name.setMinWidth(0);
            counts.setMinWidth(Region.USE_PREF_SIZE);
            kind.getStyleClass().add(Style.DIFF_KIND);
            counts.getStyleClass().add(Style.MUTED);
        }

        @Override
        protected void updateItem(Node n, boolean empty) {
            super.updateItem(n, empty);
            setText(null);
            if (empty || n == null) {
                setGraphic(null);
                setTooltip(null);
                return;
            }
            FileChange f = n.file();
            name.setText(n.name());
            if (f == null) {
                kind.setText("");
                kind.setVisible(false);
                kind.setManaged(false);
                counts.setText("");
                setTooltip(null);
            } else {
                kind.setVisible(true);
                kind.setManaged(true);
                kind.setText(letter(f));
                kind.getStyleClass()
                        .setAll(
                                Style.DIFF_KIND,
                                Style.DIFF_KIND_PREFIX + letter(f).toLowerCase());
                counts.setText(f.binary() ? "binary" : "+" + f.added() + " −" + f.deleted());
                setTooltip(new javafx.scene.control.Tooltip(
                        (f.oldPath() == null ? f.path() : f.oldPath() + " → " + f.path())
                                + (f.kind() == dev.paddock.diff.ChangeKind.TYPE_CHANGED
                                        ? "\nA file that became a symbolic link, or a link that became a file:"
                                                + " the old content deleted, the new added"
                                        : "")));
            }
            setGraphic(box);
        }
    }
}
