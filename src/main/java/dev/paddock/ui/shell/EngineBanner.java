package dev.paddock.ui.shell;

import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import java.time.ZoneId;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.StringBinding;
import javafx.scene.control.Label;
import org.kordamp.ikonli.materialdesign2.MaterialDesignD;

/**
 * The banner over the dashboard while the Docker engine does not answer: which engine (address and where it
 * came from), why, since when, that container sandboxes are shown as unknown (not failed), that the other tiers
 * work on, and that Paddock keeps trying and reconciles when the engine is back. Hidden while the engine
 * answers, and for a person who does not use Docker (the engine never answered in this run, the repository has
 * no container sandboxes and no endpoint was chosen with {@code DOCKER_HOST} or a context): the status bar says
 * "Docker unreachable" for them, which is enough. The text is {@link EngineBannerText}'s.
 */
final class EngineBanner extends Label {
    /** Node id, for tests and styling. */
    static final String ID = "engine-banner";

    EngineBanner(ShellViewModel vm) {
        setId(ID);
        getStyleClass().addAll(Style.PROBLEM, Style.BANNER);
        setWrapText(true);
        setMaxWidth(Double.MAX_VALUE);
        setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE); // wrap the whole text, never cut it short
        setGraphic(Icons.of(MaterialDesignD.DOCKER, 18));
        StringBinding text = Bindings.createStringBinding(
                () -> EngineBannerText.message(
                        vm.environmentProperty().get(), vm.dashboard().sandboxes(), ZoneId.systemDefault()),
                vm.environmentProperty(),
                vm.dashboard().sandboxes());
        textProperty().bind(text);
        visibleProperty().bind(text.isNotNull());
        managedProperty().bind(visibleProperty());
    }
}
