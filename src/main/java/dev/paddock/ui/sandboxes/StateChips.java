package dev.paddock.ui.sandboxes;

import dev.paddock.status.RepositoryStatus.Sandbox;
import dev.paddock.ui.theme.Style;
import java.util.List;
import javafx.scene.control.Label;
import javafx.scene.layout.Region;

/**
 * The chips and texts of a sandbox's state, in the table's state column and the details pane's header: its state,
 * "waiting for you" (its agent's turn ended) and "waiting for approval" (its agent is blocked on a request in the
 * approval queue).
 */
final class StateChips {
    private StateChips() {}

    /** The last error, with the exit code unless the error already says it. */
    static String describeError(Sandbox s) {
        String e = s.lastError() == null ? "" : s.lastError();
        return s.exitCode() == null || e.contains("exited with " + s.exitCode())
                ? e
                : e + " (exit " + s.exitCode() + ")";
    }

    /** The flag of a sandbox whose agent waits on a person's approval of a request. */
    static final String ASKING = "waiting for approval";

    /**
     * "waiting for approval" in place of its state (as "waiting for you" stands in for its state): a request of its
     * agent waits in the approval queue. Its tooltip says the state.
     */
    static Label askingChip(Sandbox s) {
        Label chip = new Label(ASKING);
        chip.getStyleClass().addAll(Style.CHIP, Style.CHIP_WARNING, Style.ASKING);
        chip.setMinWidth(Region.USE_PREF_SIZE);
        return chip;
    }

    /** What the agent waits on, for the tooltip of its state. */
    static String askingText(Sandbox s, List<String> asks) {
        return "State: " + s.shownState().replace('_', ' ') + ". Its agent is blocked until someone decides "
                + (asks.size() == 1 ? "its request" : "its " + asks.size() + " requests") + " in the Approvals queue:\n"
                + String.join(
                        "\n",
                        asks.stream()
                                .map(a -> a.length() > 120 ? a.substring(0, 119) + "…" : a)
                                .limit(5)
                                .toList());
    }

    /** The flag of a sandbox whose agent waits for a person. */
    static final String WAITING = "waiting for you";

    /** The "waiting for you" chip: unlike a state's, filled, so it stands out in the column. */
    static Label waitingChip() {
        Label chip = new Label(WAITING);
        chip.getStyleClass().addAll(Style.CHIP, Style.WAITING);
        chip.setMinWidth(Region.USE_PREF_SIZE);
        return chip;
    }

    /** What "waiting for you" means for this row, for its tooltip and the details pane. */
    static String waitingText(Sandbox s) {
        String said = s.waitingDetail() == null || s.waitingDetail().isBlank()
                ? ""
                : "\nIts last words: "
                        + (s.waitingDetail().length() > 300
                                ? s.waitingDetail().substring(0, 300) + "…"
                                : s.waitingDetail());
        boolean custom = "custom".equals(s.agent());
        return "Its agent's turn ended (state: " + s.state().replace('_', ' ') + "): "
                + (custom
                        ? "merge, retry or remove it (a custom command takes no follow-up)."
                        : "send a follow-up in the details below, or merge or remove it.")
                + said;
    }

    /** A stored state as people read it: "awaiting human", "ready for review" (a known state's label). */
    static String shown(String state) {
        try {
            return dev.paddock.sandbox.SandboxState.of(state).label();
        } catch (IllegalArgumentException notStored) {
            return state.replace('_', ' ');
        }
    }

    /** A coloured chip for a state ("awaiting human"). */
    static Label stateChip(String state) {
        Label chip = new Label(shown(state));
        chip.getStyleClass().addAll(Style.CHIP, Style.STATE_PREFIX + state);
        chip.setMinWidth(Region.USE_PREF_SIZE);
        return chip;
    }
}
