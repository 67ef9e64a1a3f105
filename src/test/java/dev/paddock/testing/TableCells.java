package dev.paddock.testing;

import javafx.scene.control.TableCell;

/** Finding a table's cells in a scene the way a person sees them. */
public final class TableCells {
    private TableCells() {}

    /**
     * Whether {@code c} is on screen showing a row of its table: a table keeps spare cells, hidden and still holding
     * the item they showed last, which a lookup finds as well (clicking one hits whatever row lies under its old
     * place; reading one gives old text).
     */
    public static boolean shown(TableCell<?, ?> c) {
        if (!c.isVisible() || c.isEmpty() || c.getTableRow() == null || c.getTableView() == null) {
            return false;
        }
        var row = c.getTableRow();
        int index = row.getIndex();
        var items = c.getTableView().getItems();
        return row.isVisible()
                && !row.isEmpty()
                && index >= 0
                && index < items.size()
                && items.get(index) == row.getItem();
    }
}
