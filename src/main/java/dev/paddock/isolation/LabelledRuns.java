package dev.paddock.isolation;

import dev.paddock.container.LabelledContainer;
import java.util.List;

/**
 * What an engine runs under Paddock's sandbox label, for the reconciler's orphan pass: a concern of runtimes that
 * keep runs in an engine (containers), not of every {@link IsolationRuntime}.
 */
public interface LabelledRuns {
    /** None: for a Paddock (or a test) without an engine. */
    LabelledRuns NONE = connect -> List.of();

    /**
     * Objects carrying Paddock's sandbox label, oldest first; empty when the engine was never connected to and
     * {@code connect} is false.
     *
     * @param connect connect to the engine first when this Paddock has not (for a status asked while no reconciler
     *     pass has looked)
     * @throws IsolationException when the engine does not answer
     */
    List<LabelledContainer> labelledRuns(boolean connect) throws IsolationException;
}
