package dev.paddock.ui.sandboxes;

import dev.paddock.agent.AgentPreset;
import dev.paddock.sandbox.AgentCounts;
import dev.paddock.sandbox.Tier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javafx.application.Platform;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The New Sandbox dialog's agent part: which preset runs the task (Claude Code, Codex, Gemini CLI, Aider, or a command
 * of the person's own), its model, how many sandboxes each other agent gets in a fan-out, and what the chosen agent
 * would run: where its program was found (its setting or PATH, as the presets decide) and which environment variables
 * it would take from Paddock's (names only). The program is looked up off the FX thread each time the agent changes.
 * Use on the FX thread.
 */
public final class AgentChoiceViewModel {
    /** The agent a new dialog starts with: a command of the person's own, as {@code paddock sandbox new} without
     * {@code --agent}. */
    public static final String DEFAULT_AGENT = AgentPreset.CUSTOM.id();

    private final SandboxBackend backend;
    private final Executor io;
    private final ObjectProperty<String> agent = new SimpleObjectProperty<>(DEFAULT_AGENT);
    private final StringProperty model = new SimpleStringProperty("");
    private final Map<String, ObjectProperty<Integer>> others = new LinkedHashMap<>();
    private final ReadOnlyObjectWrapper<SandboxBackend.AgentProgram> program = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<String> programError = new ReadOnlyObjectWrapper<>();
    private long lookupSeq;
    private ObjectProperty<Tier> tier = new SimpleObjectProperty<>();
    private final javafx.beans.property.ReadOnlyBooleanWrapper tierPicked =
            new javafx.beans.property.ReadOnlyBooleanWrapper();
    private boolean settingTier;

    AgentChoiceViewModel(SandboxBackend backend, Executor io) {
        this.backend = backend;
        this.io = io;
        for (AgentPreset p : AgentPreset.ALL) {
            if (p != AgentPreset.CUSTOM) {
                others.put(p.id(), new SimpleObjectProperty<>(0));
            }
        }
        agent.addListener((o, a, b) -> lookUp());
    }

    /** The presets a person picks from, in order. */
    public static List<String> agents() {
        return AgentPreset.ALL.stream().map(AgentPreset::id).toList();
    }

    /** The name people know an agent by: "Claude Code", "Codex", "Gemini CLI", "Aider", "Custom command". */
    public static String displayName(String agent) {
        return switch (agent == null ? "" : agent) {
            case "claude" -> "Claude Code";
            case "codex" -> "Codex";
            case "gemini" -> "Gemini CLI";
            case "aider" -> "Aider";
            case "custom" -> "Custom command";
            default -> agent;
        };
    }

    /**
     * The tier a new sandbox of {@code agent} gets unless the person picks another: the preset's; for a custom command
     * the worktree tier, as {@code PresetPrograms#defaultTier} decides.
     */
    public static Tier defaultTier(String agent) {
        AgentPreset p = AgentPreset.of(agent);
        return p == AgentPreset.CUSTOM ? Tier.WORKTREE : p.defaultTier();
    }

    /** The chosen agent's preset id ({@code claude}, ..., {@code custom}). */
    public ObjectProperty<String> agentProperty() {
        return agent;
    }

    /** The model for the preset's {@code --model}; blank for the agent's own default. Not for a custom command. */
    public StringProperty modelProperty() {
        return model;
    }

    /**
     * How many sandboxes {@code agent} gets besides the chosen agent's (0 to {@link AgentCounts#MAX_COUNT}): a fan-out
     * over several agents at once. Each preset but {@code custom} has one; the chosen agent's own is not counted here.
     */
    public ObjectProperty<Integer> otherCountProperty(String agent) {
        ObjectProperty<Integer> p = others.get(agent);
        if (p == null) {
            throw new IllegalArgumentException("no count for " + agent);
        }
        return p;
    }

    /** The agents that can be added to a fan-out, in order (every preset but {@code custom}). */
    public List<String> otherAgents() {
        return List.copyOf(others.keySet());
    }

    /** Where the chosen agent's program is and what it would take from the environment; null until looked up. */
    public ReadOnlyObjectProperty<SandboxBackend.AgentProgram> programProperty() {
        return program.getReadOnlyProperty();
    }

    /** Why the program could not be looked up (the setting cannot be read), or null. */
    public ReadOnlyObjectProperty<String> programErrorProperty() {
        return programError.getReadOnlyProperty();
    }

    /** Whether the chosen agent is a command of the person's own. */
    public boolean isCustom() {
        return DEFAULT_AGENT.equals(agent.get());
    }

    /**
     * The agents and counts Create makes, the chosen agent first with {@code count}, then the others given a count,
     * in the presets' order: {@code claude:2,codex:1}, as {@code paddock sandbox new --agents} takes it.
     */
    public AgentCounts counts(int count) {
        List<AgentCounts.Entry> entries = new ArrayList<>();
        entries.add(new AgentCounts.Entry(agent.get(), count));
        others.forEach((id, n) -> {
            if (!id.equals(agent.get()) && n.get() != null && n.get() > 0) {
                entries.add(new AgentCounts.Entry(id, Math.min(AgentCounts.MAX_COUNT, n.get())));
            }
        });
        return new AgentCounts(entries);
    }

    /** Whether another agent than the chosen one has a count: the fan-out runs several agents. */
    public boolean severalAgents() {
        return others.entrySet().stream()
                .anyMatch(e -> !e.getKey().equals(agent.get())
                        && e.getValue().get() != null
                        && e.getValue().get() > 0);
    }

    /** The model as the request takes it: null when blank or for a custom command. */
    String requestedModel() {
        return isCustom() || model.get() == null || model.get().isBlank()
                ? null
                : model.get().strip();
    }

    /**
     * What keeps Create from making the fan-out as chosen, or null: a model with several agents (a model is one
     * agent's).
     */
    public String problem() {
        if (requestedModel() != null && severalAgents()) {
            return "A model is one agent's: this fan-out runs "
                    + String.join(", ", counts(1).agents()) + ". Clear the" + " model, or fan out to "
                    + displayName(agent.get()) + " alone.";
        }
        return null;
    }

    /** Whether the person set something here that closing the dialog would lose (a model, a count). */
    boolean edited() {
        return !(model.get() == null || model.get().isBlank())
                || others.values().stream().anyMatch(n -> n.get() != null && n.get() > 0);
    }

    /** The properties whose change may change {@link #problem()}, {@link #edited()} or the counts, and {@code more}. */
    javafx.beans.Observable[] dependencies(javafx.beans.Observable... more) {
        List<javafx.beans.Observable> all = new ArrayList<>(List.of(agent, model));
        all.addAll(others.values());
        all.addAll(List.of(more));
        return all.toArray(javafx.beans.Observable[]::new);
    }

    /**
     * Makes {@code t} follow the chosen agent's default tier ({@link #defaultTier}) until the person picks one (the
     * worktree tier where the namespace tier cannot run).
     */
    void drive(ObjectProperty<Tier> t, javafx.beans.value.ObservableStringValue namespaceProblem) {
        this.tier = t;
        agent.addListener((o, a, id) -> {
            if (!tierPicked.get()) {
                Tier d = defaultTier(id);
                setTier(d == Tier.NAMESPACE && namespaceProblem.get() != null ? Tier.WORKTREE : d);
            }
        });
        t.addListener((o, a, b) -> {
            if (!settingTier) {
                tierPicked.set(true);
            }
        });
    }

    /** Sets the tier for the person (a default, a fallback): not their choice. */
    void setTier(Tier t) {
        settingTier = true;
        try {
            tier.set(t);
        } finally {
            settingTier = false;
        }
    }

    /** Whether the person picked the tier (else it is the chosen agent's default). */
    boolean tierPicked() {
        return tierPicked.get();
    }

    /**
     * For a fan-out over several agents on the tier nobody picked: that each runs on its own default tier ("Claude
     * Code on worktree, Codex on namespace"); else null.
     */
    public javafx.beans.binding.StringBinding tierNote() {
        return javafx.beans.binding.Bindings.createStringBinding(
                () -> {
                    if (!severalAgents() || tierPicked.get()) {
                        return null;
                    }
                    return "Each agent runs on its own default tier unless you pick one: "
                            + String.join(
                                    ", ",
                                    counts(1).agents().stream()
                                            .map(a -> displayName(a) + " on "
                                                    + defaultTier(a).id())
                                            .toList())
                            + ".";
                },
                dependencies(tierPicked));
    }

    /**
     * One line on where the program is: "/usr/bin/claude, found on Paddock's PATH", "... from the setting
     * agents.claude.executable", or that it is missing and how to fix it. In a container the image's program runs.
     */
    public static String programLine(SandboxBackend.AgentProgram p, Tier tier) {
        String name = displayName(p.agent());
        String line = switch (p.source()) {
            case COMMAND -> "Runs your command with /bin/sh -c in the worktree; the task is in PADDOCK_TASK.";
            case SETTING -> "Runs " + p.program() + " (the setting " + p.setting() + ").";
            case PATH -> "Runs " + p.program() + ", found on Paddock's PATH.";
            case MISSING ->
                p.problem() != null
                        ? "Not found: the setting " + p.setting() + " names a program where " + p.problem() + ". Fix it"
                                + " with paddock config set " + p.setting() + " /path/to/" + p.executable()
                                + ", or reset it"
                                + " (paddock config reset " + p.setting() + ") to use " + p.executable() + " on PATH."
                        : "Not found: no " + p.executable() + " on Paddock's PATH. Install " + name + ", or point the"
                                + " setting at it: paddock config set " + p.setting() + " /path/to/" + p.executable()
                                + ".";
        };
        if (tier == Tier.CONTAINER && p.source() != SandboxBackend.ProgramSource.COMMAND) {
            return "In a container, the image's own " + p.executable() + " runs (found on the image's PATH).";
        }
        return line;
    }

    /** Which variables it takes from Paddock's environment: names only, never values. */
    public static String passLine(SandboxBackend.AgentProgram p) {
        if (p.source() == SandboxBackend.ProgramSource.COMMAND) {
            return "Takes no API keys from Paddock's environment.";
        }
        if (p.passes().isEmpty()) {
            return "Takes nothing from Paddock's environment: none of its "
                    + p.takes().size() + " variables ("
                    + String.join(
                            ", ", p.takes().subList(0, Math.min(2, p.takes().size()))) + ", …) is set there.";
        }
        return "Takes from Paddock's environment: " + String.join(", ", p.passes()) + ".";
    }

    /** Looks up the chosen agent's program again (after the person installed it or changed its setting). */
    public CompletableFuture<Void> lookUp() {
        long seq = ++lookupSeq;
        String id = agent.get();
        program.set(null);
        programError.set(null);
        CompletableFuture<Void> done = new CompletableFuture<>();
        io.execute(() -> {
            SandboxBackend.AgentProgram found = null;
            String failure = null;
            try {
                found = backend.agentProgram(id);
            } catch (Exception e) {
                failure = "Cannot tell where the " + displayName(id) + " program is: " + e.getMessage();
            }
            SandboxBackend.AgentProgram f = found;
            String why = failure;
            Platform.runLater(() -> {
                if (seq == lookupSeq) {
                    program.set(f);
                    programError.set(why);
                }
                done.complete(null);
            });
        });
        return done;
    }
}
