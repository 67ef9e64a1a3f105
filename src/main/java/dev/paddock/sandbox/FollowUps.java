package dev.paddock.sandbox;

import dev.paddock.common.PaddockException;
import java.time.Clock;
import java.util.Optional;

/**
 * A person's follow-up prompts ({@code paddock sandbox say}) and the agents' turn signals that come by the API: the
 * two ends of "waiting for you" (docs/decisions/0016-waiting-for-you.md). The supervisor's tick starts the run a
 * follow-up asks for, and reads the turn files.
 */
final class FollowUps {
    private final SandboxStore store;
    private final SandboxLifecycle lifecycle;
    private final AgentLauncher launcher;
    private final Clock clock;
    private final Runnable poke;

    /** @param poke asks the supervisor for a tick */
    FollowUps(SandboxStore store, SandboxLifecycle lifecycle, AgentLauncher launcher, Clock clock, Runnable poke) {
        this.store = store;
        this.lifecycle = lifecycle;
        this.launcher = launcher;
        this.clock = clock;
        this.poke = poke;
    }

    /**
     * Takes a signal of sandbox {@code id}'s agent that came by the API ({@code POST /v1/hooks/claude/turn}): the
     * sandbox is then waiting for you, unless the same signal came by its turn file already. Who listens hears of it
     * by its event on the bus.
     *
     * @param payload the hook's input as sent
     * @throws SandboxNotFoundException when there is no such sandbox
     */
    AgentTurns.Outcome signal(String id, AgentSignal signal, String payload) throws PaddockException {
        return store.turns().record(id, signal, payload, "api");
    }

    /** Why the sandbox's agent cannot take a follow-up (a custom command; no known session), or empty. */
    Optional<String> refusal(SandboxRecord s) {
        return launcher.followUpRefusal(s);
    }

    /**
     * Sends a person's follow-up prompt to a sandbox whose agent's run ended: the sandbox moves to {@code retrying}
     * and its next run resumes the agent's session (same worktree, same tier) with {@code text}; it is no longer
     * waiting for you from that moment.
     *
     * @return the record as it entered {@code retrying} (the run starts on the tick this pokes)
     * @throws SandboxException when the text is empty or too long, or the agent cannot take a follow-up (a custom
     *     command; an agent whose session Paddock does not know)
     * @throws SandboxNotFoundException when there is no such sandbox
     * @throws SandboxConflictException when its agent still runs, or it is in the merge queue, merged or removed
     */
    SandboxRecord followUp(String id, String text, String who) throws PaddockException {
        String prompt = text == null ? "" : text.strip();
        if (prompt.isEmpty()) {
            throw new SandboxException("The follow-up is empty: say what the agent should do next.");
        }
        if (prompt.length() > AgentTurns.FOLLOW_UP_MAX) {
            throw new SandboxException("The follow-up is " + prompt.length() + " characters long; at most "
                    + AgentTurns.FOLLOW_UP_MAX + " are taken.");
        }
        SandboxRecord s = store.find(id).orElseThrow(() -> new SandboxNotFoundException(id));
        if (s.state() == SandboxState.PENDING
                || s.state() == SandboxState.RUNNING
                || s.state() == SandboxState.RETRYING) {
            throw new SandboxConflictException(id + " is " + s.state().id() + ": its agent is still at work. Send the"
                    + " follow-up once its turn ended (it shows \"waiting for you\"), or stop it first.");
        }
        Optional<String> refusal = launcher.followUpRefusal(s);
        if (refusal.isPresent()) {
            throw new SandboxException(id + " cannot take a follow-up: " + refusal.get() + ".");
        }
        if (!s.state().canBecome(SandboxState.RETRYING)) {
            throw new SandboxConflictException(id + " is " + s.state().id() + ": a follow-up goes to a sandbox whose"
                    + " agent's run ended (done, failed, timeout or awaiting_human), not to one in the merge queue,"
                    + " merged or removed.");
        }
        if (!lifecycle.followUpBy(s, prompt, who, clock.instant())) {
            throw new SandboxConflictException(id + " changed state meanwhile; look again.");
        }
        SandboxRecord asked = store.find(id).orElseThrow();
        poke.run();
        return asked;
    }
}
