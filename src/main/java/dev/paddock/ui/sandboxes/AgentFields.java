package dev.paddock.ui.sandboxes;

import dev.paddock.sandbox.AgentCounts;
import dev.paddock.sandbox.Tier;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.StringBinding;
import javafx.beans.value.ObservableValue;
import javafx.collections.FXCollections;
import javafx.scene.Node;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.Spinner;
import javafx.scene.control.SpinnerValueFactory;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.materialdesign2.MaterialDesignA;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;

/**
 * The New Sandbox dialog's agent fields: the preset picker with where its program is and which variables it takes
 * (names only), the model, and the other agents' counts of a fan-out. Built on the FX thread.
 */
final class AgentFields {
    private final AgentChoiceViewModel vm;
    private final ObservableValue<Tier> tier;
    private final Runnable resized;

    /** @param resized run when a part of these fields changes height (the window may grow) */
    AgentFields(AgentChoiceViewModel vm, ObservableValue<Tier> tier, Runnable resized) {
        this.vm = vm;
        this.tier = tier;
        this.resized = resized;
    }

    private <T extends Region> T watched(T r) {
        r.heightProperty().addListener((o, a, b) -> resized.run());
        return r;
    }

    /** The picker, and under it the program's line, a "Check again" link when it is missing, and the variables. */
    Node picker() {
        ComboBox<String> agent = new ComboBox<>(FXCollections.observableArrayList(AgentChoiceViewModel.agents()));
        agent.setId("new-sandbox-agent");
        agent.setCellFactory(l -> new NameCell());
        agent.setButtonCell(new NameCell());
        agent.valueProperty().bindBidirectional(vm.agentProperty());
        agent.setTooltip(new Tooltip("Which agent runs the task: a preset (Paddock builds its command line and resumes"
                + " its session for follow-ups) or a command of your own"));

        Label program = new Label();
        program.setId("new-sandbox-agent-program");
        program.setWrapText(true);
        program.setMinHeight(Region.USE_PREF_SIZE);
        program.getStyleClass().add(Style.FIELD_MESSAGE);
        StringBinding programText = Bindings.createStringBinding(
                () -> vm.programErrorProperty().get() != null
                        ? vm.programErrorProperty().get()
                        : vm.programProperty().get() == null
                                ? "Looking for the program…"
                                : AgentChoiceViewModel.programLine(
                                        vm.programProperty().get(), tier.getValue()),
                vm.programProperty(),
                vm.programErrorProperty(),
                tier);
        program.textProperty().bind(programText);
        javafx.beans.binding.BooleanBinding missing = Bindings.createBooleanBinding(
                () -> vm.programErrorProperty().get() != null
                        || (vm.programProperty().get() != null
                                && tier.getValue() != Tier.CONTAINER
                                && vm.programProperty().get().source() == SandboxBackend.ProgramSource.MISSING),
                vm.programProperty(),
                vm.programErrorProperty(),
                tier);
        missing.addListener((o, a, m) -> mark(program, m, vm.programProperty().get() != null));
        vm.programProperty().addListener((o, a, p) -> mark(program, missing.get(), p != null));
        mark(program, missing.get(), vm.programProperty().get() != null);

        Hyperlink again = new Hyperlink("Check again");
        again.setId("new-sandbox-agent-recheck");
        again.setTooltip(new Tooltip("Look for the program again (after installing it or changing its setting)"));
        again.setOnAction(e -> vm.lookUp());
        again.visibleProperty().bind(missing);
        again.managedProperty().bind(again.visibleProperty());

        Label env = new Label();
        env.setId("new-sandbox-agent-env");
        env.setWrapText(true);
        env.setMinHeight(Region.USE_PREF_SIZE);
        env.getStyleClass().add(Style.FIELD_MESSAGE);
        env.textProperty()
                .bind(vm.programProperty().map(AgentChoiceViewModel::passLine).orElse(""));
        env.visibleProperty().bind(vm.programProperty().isNotNull());
        env.managedProperty().bind(env.visibleProperty());
        vm.programProperty()
                .addListener((o, a, p) -> env.setTooltip(
                        p == null || p.takes().isEmpty()
                                ? null
                                : new Tooltip(
                                        "Variables it takes when set in Paddock's environment (values are never shown or"
                                                + " logged):\n" + String.join(", ", p.takes()))));
        return watched(new VBox(3, agent, program, again, env));
    }

    private static void mark(Label l, boolean missing, boolean known) {
        l.getStyleClass().removeAll(Style.FIELD_WARNING, Style.FIELD_OK);
        if (!known && !missing) {
            l.setGraphic(null);
            return;
        }
        l.getStyleClass().add(missing ? Style.FIELD_WARNING : Style.FIELD_OK);
        l.setGraphic(Icons.of(missing ? MaterialDesignA.ALERT_OUTLINE : MaterialDesignC.CHECK, 14));
    }

    /** The model field, for a preset. */
    Node model() {
        TextField model = new TextField();
        model.setId("new-sandbox-model");
        model.getStyleClass().add(Style.MONO);
        model.textProperty().bindBidirectional(vm.modelProperty());
        model.setPromptText("the agent's default");
        model.setTooltip(new Tooltip("Passed as the agent's --model, e.g. sonnet, gpt-5-codex, gemini-2.5-pro;"
                + " leave empty for the agent's own default"));
        return model;
    }

    /**
     * The other agents of a fan-out, one count each (0: not in it), the chosen agent's own left out; and what keeps
     * Create off (a model with several agents).
     */
    Node others() {
        FlowPane counts = new FlowPane(14, 6);
        for (String id : vm.otherAgents()) {
            Spinner<Integer> n = new Spinner<>();
            n.setId("new-sandbox-count-" + id);
            n.setValueFactory(new SpinnerValueFactory.IntegerSpinnerValueFactory(0, AgentCounts.MAX_COUNT, 0));
            n.getValueFactory().valueProperty().bindBidirectional(vm.otherCountProperty(id));
            n.setEditable(true);
            FieldWidths.fitSpinner(n, "20");
            n.setTooltip(new Tooltip("How many sandboxes " + AgentChoiceViewModel.displayName(id) + " also gets in"
                    + " this fan-out (0: none)"));
            HBox pair = NewSandboxDialog.withUnit(n, AgentChoiceViewModel.displayName(id));
            pair.visibleProperty().bind(vm.agentProperty().isNotEqualTo(id));
            pair.managedProperty().bind(pair.visibleProperty());
            counts.getChildren().add(pair);
        }
        Label also = new Label("Also:");
        also.setMinWidth(Region.USE_PREF_SIZE);
        HBox row = new HBox(8, also, counts);
        row.setAlignment(javafx.geometry.Pos.TOP_LEFT);
        javafx.scene.layout.HBox.setHgrow(counts, javafx.scene.layout.Priority.ALWAYS);
        Label problem = new Label();
        problem.setId("new-sandbox-agent-problem");
        problem.setWrapText(true);
        problem.setMinHeight(Region.USE_PREF_SIZE);
        problem.getStyleClass().addAll(Style.FIELD_MESSAGE, Style.FIELD_ERROR);
        problem.setGraphic(Icons.of(MaterialDesignA.ALERT_CIRCLE_OUTLINE, 14));
        StringBinding text = Bindings.createStringBinding(vm::problem, vm.dependencies());
        problem.textProperty().bind(text);
        problem.visibleProperty().bind(text.isNotNull());
        problem.managedProperty().bind(problem.visibleProperty());
        return watched(new VBox(3, row, problem));
    }

    /** Under the tiers: for several agents on no tier picked, that each gets its own default. */
    Node tierNote() {
        Label note = new Label();
        note.setId("new-sandbox-tier-note");
        note.setWrapText(true);
        note.setMinHeight(Region.USE_PREF_SIZE);
        note.getStyleClass().add(Style.FIELD_MESSAGE);
        StringBinding text = vm.tierNote();
        note.textProperty().bind(text);
        note.visibleProperty().bind(text.isNotNull());
        note.managedProperty().bind(note.visibleProperty());
        return watched(note);
    }

    /** A list cell showing an agent by the name people know it by. */
    private static final class NameCell extends ListCell<String> {
        @Override
        protected void updateItem(String item, boolean empty) {
            super.updateItem(item, empty);
            setText(empty || item == null ? null : AgentChoiceViewModel.displayName(item));
        }
    }
}
