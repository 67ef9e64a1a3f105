package dev.paddock.ui.sandboxes;

import dev.paddock.sandbox.Tier;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.RadioButton;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleGroup;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.materialdesign2.MaterialDesignA;

/**
 * The New Sandbox dialog's isolation fields: the tier choices with why a tier cannot run here, the container's
 * image and limits (with what is wrong with them), and the network switch. Built on the FX thread.
 */
final class TierFields {
    /** The widest values a person is likely to type in the limit fields (CPUs, MiB, processes). */
    private static final String CPUS_SAMPLE = "12.5";

    private static final String MEMORY_SAMPLE = "131072";
    private static final String PIDS_SAMPLE = "32768";

    private final NewSandboxViewModel vm;

    TierFields(NewSandboxViewModel vm) {
        this.vm = vm;
    }

    /** The tier choices, each with why it cannot run here, the container's options and the network switch. */
    Node node() {
        ToggleGroup group = new ToggleGroup();
        RadioButton worktree = tierButton(
                group,
                Tier.WORKTREE,
                "Worktree",
                "A host process in the worktree, in its own process group, with a scrubbed environment.");
        RadioButton namespace = tierButton(
                group,
                Tier.NAMESPACE,
                "Namespace (bubblewrap)",
                "System folders read-only, only the worktree writable, a private /tmp, no network unless granted.");
        RadioButton container = tierButton(
                group,
                Tier.CONTAINER,
                "Container (Docker)",
                "A Docker container from the repository's image: only the worktree mounted read-write, no host home,"
                        + " a read-only root with a private /tmp, CPU, memory and process limits, no network unless"
                        + " granted.");

        Label namespaceProblem = problemLabel("tier-namespace-problem", vm.namespaceProblemProperty());
        namespace.disableProperty().bind(vm.namespaceProblemProperty().isNotNull());
        Label containerProblem =
                problemLabel("tier-container-problem", vm.container().containerProblemProperty());
        container
                .disableProperty()
                .bind(vm.container().containerProblemProperty().isNotNull());
        Node containerOptions = containerOptions();
        containerOptions.visibleProperty().bind(vm.tierProperty().isEqualTo(Tier.CONTAINER));
        containerOptions.managedProperty().bind(containerOptions.visibleProperty());

        CheckBox network = new CheckBox("Give the agent a network");
        network.setId("new-sandbox-network");
        network.selectedProperty().bindBidirectional(vm.networkProperty());
        network.disableProperty().bind(vm.tierProperty().isEqualTo(Tier.WORKTREE));
        network.setTooltip(new Tooltip("Namespace and container sandboxes have no network (only loopback) unless"
                + " granted; a worktree sandbox always shares the host's network."));

        group.selectedToggleProperty().addListener((o, a, t) -> {
            if (t != null) {
                vm.tierProperty().set((Tier) t.getUserData());
            }
        });
        vm.tierProperty().addListener((o, a, t) -> select(group, t));
        select(group, vm.tierProperty().get());
        return new VBox(
                8,
                worktree,
                new VBox(3, namespace, namespaceProblem),
                new VBox(3, container, containerProblem, containerOptions),
                network);
    }

    private static Label problemLabel(String id, javafx.beans.value.ObservableStringValue text) {
        Label l = new Label();
        l.setId(id);
        l.setWrapText(true);
        l.getStyleClass().addAll(Style.FIELD_MESSAGE, Style.FIELD_WARNING);
        l.setGraphic(Icons.of(MaterialDesignA.ALERT_OUTLINE, 14));
        l.setMinHeight(Region.USE_PREF_SIZE);
        l.textProperty().bind(text);
        l.visibleProperty().bind(javafx.beans.binding.Bindings.isNotNull(text));
        l.managedProperty().bind(l.visibleProperty());
        return l;
    }

    /** Image and limits of a container sandbox, with the reason Create is disabled when one is wrong. */
    private Node containerOptions() {
        TextField image = new TextField();
        image.setId("new-sandbox-image");
        image.getStyleClass().add(Style.MONO);
        image.textProperty().bindBidirectional(vm.container().imageProperty());
        image.promptTextProperty()
                .bind(vm.container()
                        .defaultImageProperty()
                        .map(d -> "repository default: " + d)
                        .orElse("an image the engine has, e.g. node:22 (Paddock pulls nothing)"));
        image.setTooltip(new Tooltip("The image the agent runs in; the repository's (paddock sandbox image) unless"
                + " changed here. Paddock never pulls: the engine must have it."));
        TextField cpus = smallField(
                "new-sandbox-cpus",
                vm.container().cpusProperty(),
                CPUS_SAMPLE,
                "CPU time the container may use, in CPUs (docker --cpus): 2, 0.5");
        TextField memory = smallField(
                "new-sandbox-memory",
                vm.container().memoryMibProperty(),
                MEMORY_SAMPLE,
                "Memory in MiB, swap included (docker --memory and --memory-swap); at least 6");
        TextField pids = smallField(
                "new-sandbox-pids",
                vm.container().pidsProperty(),
                PIDS_SAMPLE,
                "Processes and threads at once (docker --pids-limit)");
        // Each field keeps its unit beside it; a pair that does not fit goes to the next line (never squeezed).
        javafx.scene.layout.FlowPane limits = new javafx.scene.layout.FlowPane(
                14,
                6,
                NewSandboxDialog.withUnit(cpus, "CPUs"),
                NewSandboxDialog.withUnit(memory, "MiB memory"),
                NewSandboxDialog.withUnit(pids, "processes"));
        Label problem = new Label();
        problem.setId("new-sandbox-container-check");
        problem.setWrapText(true);
        problem.setMinHeight(Region.USE_PREF_SIZE);
        problem.getStyleClass().addAll(Style.FIELD_MESSAGE, Style.FIELD_ERROR);
        problem.setGraphic(Icons.of(MaterialDesignA.ALERT_CIRCLE_OUTLINE, 14));
        // The engine's absence is said above, next to the tier; here only what the person can fix.
        javafx.beans.binding.StringBinding fixable = javafx.beans.binding.Bindings.createStringBinding(
                () -> vm.container().containerProblemProperty().get() != null
                        ? null
                        : vm.container().formProblemProperty().get(),
                vm.container().containerProblemProperty(),
                vm.container().formProblemProperty());
        problem.textProperty().bind(fixable);
        problem.visibleProperty().bind(fixable.isNotNull());
        problem.managedProperty().bind(problem.visibleProperty());
        HBox imageRow = new HBox(6, new Label("Image"), image);
        imageRow.setAlignment(Pos.CENTER_LEFT);
        HBox.setHgrow(image, Priority.ALWAYS);
        VBox options = new VBox(6, imageRow, limits, problem);
        options.setPadding(new Insets(0, 0, 0, 26)); // under the radio button's text
        return options;
    }

    /** A number field as wide as {@link FieldWidths#fitText} makes it for {@code widest}. */
    private static TextField smallField(
            String id, javafx.beans.property.StringProperty value, String widest, String help) {
        TextField f = new TextField();
        f.setId(id);
        FieldWidths.fitText(f, widest);
        f.textProperty().bindBidirectional(value);
        f.setTooltip(new Tooltip(help));
        return f;
    }

    private static void select(ToggleGroup group, Tier t) {
        group.getToggles().stream()
                .filter(x -> x.getUserData() == t)
                .findFirst()
                .ifPresent(group::selectToggle);
    }

    private static RadioButton tierButton(ToggleGroup group, Tier tier, String text, String help) {
        RadioButton b = new RadioButton(text);
        b.setId("tier-" + tier.id());
        b.setUserData(tier);
        b.setToggleGroup(group);
        b.setTooltip(new Tooltip(help));
        return b;
    }
}
