package dev.paddock.ui.shell;

import dev.paddock.isolation.bubblewrap.BubblewrapProbe;
import dev.paddock.repo.RepoRecord;
import dev.paddock.status.EnvironmentMonitor;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import javafx.scene.control.Label;
import javafx.scene.control.Separator;
import javafx.scene.control.Tooltip;
import org.controlsfx.control.StatusBar;
import org.kordamp.ikonli.materialdesign2.MaterialDesignD;
import org.kordamp.ikonli.materialdesign2.MaterialDesignL;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;

/**
 * The status bar (ControlsFX): the repository and its base branch on the left; whether a Docker
 * engine answers and whether bubblewrap can be used on the right.
 */
final class StatusBarView extends StatusBar {
    StatusBarView(ShellViewModel vm) {
        setId("status-bar");
        getStyleClass().add(Style.STATUS_BAR);
        Label repo = new Label();
        repo.setId("status-repository");
        repo.setGraphic(Icons.of(MaterialDesignS.SOURCE_BRANCH, 14));
        repo.textProperty()
                .bind(vm.currentProperty().map(StatusBarView::describe).orElse("No repository open"));
        setText("");
        getLeftItems().add(repo);

        Label docker = new Label("Docker: checking…", Icons.of(MaterialDesignD.DOCKER, 14));
        docker.setId("status-docker");
        Label bwrap = new Label("bubblewrap: checking…", Icons.of(MaterialDesignL.LINUX, 14));
        bwrap.setId("status-bubblewrap");
        vm.environmentProperty().addListener((o, a, s) -> show(s, docker, bwrap));
        vm.phaseProperty().addListener((o, a, phase) -> {
            if (phase == ShellViewModel.Phase.FAILED) {
                docker.setText("Docker: not checked");
                bwrap.setText("bubblewrap: not checked");
            }
        });
        show(vm.environmentProperty().get(), docker, bwrap);
        Label others = new Label("", Icons.of(MaterialDesignD.DOCKER, 14));
        others.setId("status-engines");
        Separator gap = new Separator(javafx.geometry.Orientation.VERTICAL);
        vm.enginesProperty().addListener((o, a, lines) -> showEngines(lines, others, gap));
        showEngines(vm.enginesProperty().get(), others, gap);
        getRightItems().addAll(docker, gap, others, new Separator(javafx.geometry.Orientation.VERTICAL), bwrap);
    }

    /**
     * The engines registered besides local, when there are any: "Other engines: 1 of 2 up" (green when all answer, red
     * when one does not), each engine's health and load in the tooltip.
     */
    static void showEngines(java.util.List<String> lines, Label label, Separator gap) {
        boolean any = lines != null && !lines.isEmpty();
        label.setVisible(any);
        label.setManaged(any);
        gap.setVisible(any);
        gap.setManaged(any);
        if (!any) {
            return;
        }
        long up = lines.stream().filter(l -> l.contains(": up")).count();
        label.setText("Other engines: " + up + " of " + lines.size() + " up"); // local has the Docker item
        label.getStyleClass().removeAll(Style.OK, Style.BAD);
        label.getStyleClass().add(up == lines.size() ? Style.OK : Style.BAD);
        label.setTooltip(new Tooltip(String.join("\n", lines)));
    }

    private static String describe(RepoRecord r) {
        return r.path() + "   ·   base " + r.baseBranch();
    }

    /**
     * The engine's address, short: "local socket" for the default one, the address with its context's name for a
     * context ("tcp://build:2375 (context remote)"), else the address.
     */
    static String endpoint(dev.paddock.container.EngineStatus d) {
        if (d.endpoint() == null) {
            return "no address";
        }
        if ("default socket".equals(d.source())
                && dev.paddock.container.DockerEndpoint.DEFAULT_HOST.equals(d.endpoint())) {
            return "local socket";
        }
        return d.source() != null && d.source().startsWith("context ") ? d.endpointText() : d.endpoint();
    }

    /**
     * Shows {@code s} on the two labels: green ({@code pd-ok}) when usable, red ({@code pd-bad}) when a check
     * failed, neither (the plain icon) while a check has not run yet ("checking…"). Nothing when {@code s} is null.
     */
    static void show(EnvironmentMonitor.Snapshot s, Label docker, Label bwrap) {
        if (s == null) {
            return;
        }
        docker.getStyleClass().removeAll(Style.OK, Style.BAD);
        bwrap.getStyleClass().removeAll(Style.OK, Style.BAD);
        if (!s.docker().checked()) {
            docker.setText("Docker: checking…");
            docker.setTooltip(new Tooltip("Paddock is checking whether a Docker engine answers."));
        } else if (s.docker().reachable()) {
            docker.setText("Docker " + s.docker().version() + " · " + endpoint(s.docker()));
            docker.getStyleClass().add(Style.OK);
            docker.setTooltip(new Tooltip("Engine at " + s.docker().endpointText() + " answers."));
        } else {
            docker.setText("Docker unreachable · " + endpoint(s.docker()));
            docker.getStyleClass().add(Style.BAD);
            docker.setTooltip(new Tooltip("No engine answers at " + s.docker().endpointText() + ": "
                    + s.docker().error() + "\nContainer sandboxes need one; the other tiers keep working."
                    + " Paddock keeps trying."));
        }
        BubblewrapProbe.Status b = s.bubblewrap();
        bwrap.setText(b.summary());
        if (b.equals(BubblewrapProbe.Status.notChecked())) {
            bwrap.setTooltip(new Tooltip("Paddock is checking whether bubblewrap can be used."));
            return;
        }
        bwrap.getStyleClass().add(b.usable() ? Style.OK : Style.BAD);
        bwrap.setTooltip(new Tooltip(b.usable() ? "The namespace tier can be used." : b.problem()));
    }
}
