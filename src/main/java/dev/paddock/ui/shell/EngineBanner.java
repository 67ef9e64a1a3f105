package dev.paddock.ui.shell;

import dev.paddock.container.EngineStatus;
import dev.paddock.container.EngineWatch;
import dev.paddock.status.EnvironmentMonitor;
import dev.paddock.status.RepositoryStatus;
import dev.paddock.ui.common.Icons;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
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
 * "Docker unreachable" for them, which is enough.
 */
final class EngineBanner extends Label {
    /** Node id, for tests and styling. */
    static final String ID = "engine-banner";
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    EngineBanner(ShellViewModel vm) {
        setId(ID);
        getStyleClass().addAll("pd-problem", "pd-banner");
        setWrapText(true);
        setMaxWidth(Double.MAX_VALUE);
        setGraphic(Icons.of(MaterialDesignD.DOCKER, 18));
        StringBinding text = Bindings.createStringBinding(() -> message(vm.environmentProperty().get(),
                vm.dashboard().sandboxes(), ZoneId.systemDefault()), vm.environmentProperty(), vm.dashboard().sandboxes());
        textProperty().bind(text);
        visibleProperty().bind(text.isNotNull());
        managedProperty().bind(visibleProperty());
    }

    /**
     * The banner's text, or null when no banner is shown.
     *
     * @param env the latest environment snapshot (null before the first)
     * @param sandboxes the open sandboxes of the repository shown
     * @param zone the zone the outage's start is shown in
     */
    static String message(EnvironmentMonitor.Snapshot env, List<RepositoryStatus.Sandbox> sandboxes, ZoneId zone) {
        if (env == null) {
            return null;
        }
        EngineStatus docker = env.docker();
        EngineWatch.State watch = env.engine();
        if (!docker.checked() || docker.reachable()) {
            return null;
        }
        long containers = sandboxes.stream().filter(s -> "container".equals(s.tier())).count();
        long unknown = sandboxes.stream().filter(RepositoryStatus.Sandbox::engineUnreachable).count();
        boolean chosen = docker.source() != null && !"default socket".equals(docker.source());
        if (containers == 0 && !watch.everReachable() && !chosen) {
            return null;
        }
        StringBuilder b = new StringBuilder("The Docker engine at ").append(docker.endpointText())
                .append(" does not answer");
        if (watch.awaySince() != null) {
            b.append(" (since ").append(TIME.format(watch.awaySince().atZone(zone))).append(")");
        }
        b.append(": ").append(docker.error() == null ? "no reason given" : docker.error()).append(". ");
        if (unknown > 0) {
            b.append(unknown == 1 ? "1 container sandbox is" : unknown + " container sandboxes are")
                    .append(" shown as unknown: not failed, not stopped. ");
        }
        b.append("New container sandboxes cannot start; the worktree and namespace tiers work on. Paddock keeps"
                + " trying to reconnect and reconciles the containers when the engine is back.");
        return b.toString();
    }
}
