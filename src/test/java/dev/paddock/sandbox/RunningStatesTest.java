package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What the heartbeat's shortcut knows, and what a transition makes it forget. */
class RunningStatesTest {
    private final RunningStates states = new RunningStates();

    @Test
    void aRunningSandboxIsKnownUntilItsNextTransition() {
        states.running("a", states.generation());
        assertThat(states.knownRunning("a")).isTrue();
        assertThat(states.knownRunning("b")).isFalse();
        states.forget("a");
        assertThat(states.knownRunning("a")).isFalse();
    }

    @Test
    void aReadThatRacedATransitionIsNotKept() {
        long readAt = states.generation(); // the heartbeat reads "running" from the store ...
        states.forget("a"); // ... while a transition out of running commits
        states.running("a", readAt);
        assertThat(states.knownRunning("a")).isFalse();
    }

    @Test
    void anotherSandboxsTransitionAlsoDropsARacingRead() {
        long readAt = states.generation();
        states.forget("b");
        states.running("a", readAt);
        assertThat(states.knownRunning("a"))
                .as("dropped: the next heartbeat reads again")
                .isFalse();
        states.running("a", states.generation());
        assertThat(states.knownRunning("a")).isTrue();
    }
}
