package dev.paddock.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import javafx.scene.Scene;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.StackPane;
import javafx.scene.text.Font;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

@ExtendWith(ApplicationExtension.class)
class ColumnsStyledTest {
    /** Applied before the table's first CSS pass (a busy machine), the widths are still measured in its own font. */
    @Test
    void widthsAreMeasuredInTheTablesFontEvenBeforeItsFirstStylePass() throws Exception {
        String sample = "a sample of forty characters, or so.....";
        double[] got = WaitForAsyncUtils.asyncFx(() -> {
                    TableView<String> table = new TableView<>();
                    table.setStyle("-fx-font-size: 9px;");
                    TableColumn<String, String> c = new TableColumn<>("Task");
                    Columns.fit(c, null, 0, sample);
                    table.getColumns().add(c);
                    Stage stage = new Stage();
                    stage.setScene(new Scene(new StackPane(table), 800, 300));
                    Columns.apply(table); // before any pulse
                    double w = c.getMinWidth();
                    stage.close();
                    return new double[] {
                        w,
                        Columns.textWidth(sample, Font.font(Font.getDefault().getFamily(), 9)),
                        Columns.textWidth(sample, Font.getDefault())
                    };
                })
                .get(10, TimeUnit.SECONDS);

        assertThat(got[0])
                .as("measured in 9 px (%s wide), not the default font (%s)", got[1], got[2])
                .isLessThan(got[2])
                .isBetween(got[1], got[1] + 40);
    }
}
