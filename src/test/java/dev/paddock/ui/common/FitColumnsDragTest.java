package dev.paddock.ui.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.Scene;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * A real table under {@link FitColumnsPolicy}: a person's drag of a column's edge moves the widths and the table
 * still fills its width, and a later resize of the window keeps what the person chose.
 */
@ExtendWith(ApplicationExtension.class)
class FitColumnsDragTest {
    private TableView<String> table;
    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        table = new TableView<>();
        for (String title : List.of("A", "B", "C")) {
            TableColumn<String, String> c = new TableColumn<>(title);
            c.setPrefWidth(100);
            c.setMinWidth(40);
            table.getColumns().add(c);
        }
        table.setColumnResizePolicy(FitColumnsPolicy.INSTANCE);
        stage.setScene(new Scene(table, 600, 200));
        stage.show();
    }

    @Test
    void aDraggedWidthStaysWhenTheWindowResizes() throws Exception {
        WaitForAsyncUtils.waitForFxEvents();
        double before = fx(() -> table.getColumns().get(0).getWidth());
        assertThat(fx(this::sum)).isCloseTo(fx(this::content), offset(2.0));

        WaitForAsyncUtils.asyncFx(() -> table.resizeColumn(table.getColumns().get(0), 60))
                .get(10, TimeUnit.SECONDS);
        WaitForAsyncUtils.waitForFxEvents();
        double dragged = fx(() -> table.getColumns().get(0).getWidth());
        assertThat(dragged).isGreaterThan(before + 30);
        assertThat(fx(this::sum)).isCloseTo(fx(this::content), offset(2.0));

        WaitForAsyncUtils.asyncFx(() -> stage.setWidth(stage.getWidth() + 150)).get(10, TimeUnit.SECONDS);
        WaitForAsyncUtils.waitForFxEvents();
        // The widths grow by their preferred widths, which are now the dragged ones: A stays the widest.
        double a = fx(() -> table.getColumns().get(0).getWidth());
        double b = fx(() -> table.getColumns().get(1).getWidth());
        assertThat(a).isGreaterThan(dragged);
        assertThat(a).isGreaterThan(b);
        assertThat(fx(this::sum)).isCloseTo(fx(this::content), offset(2.0));
    }

    private double sum() {
        return table.getColumns().stream().mapToDouble(TableColumn::getWidth).sum();
    }

    /** The width the columns share: the table's, less its insets (no vertical scroll bar: no rows). */
    private double content() {
        return table.getWidth() - table.snappedLeftInset() - table.snappedRightInset();
    }

    private static <T> T fx(java.util.concurrent.Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(10, TimeUnit.SECONDS);
    }
}
