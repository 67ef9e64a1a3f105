package dev.paddock.isolation;

/**
 * The runtime of each tier: host process group, bubblewrap, container. The tier picks one of them once; what
 * follows goes through {@link IsolationRuntime} alone. {@code labelled} is what the engines run under Paddock's
 * label (every engine's container runtime), for the reconciler's orphan pass; {@code engines} the container tier's
 * engines by name, {@code container} being the local one.
 */
public record IsolationRuntimes(
        IsolationRuntime host,
        IsolationRuntime bubblewrap,
        IsolationRuntime container,
        LabelledRuns labelled,
        Engines engines) {
    /** With the local engine alone. */
    public IsolationRuntimes(
            IsolationRuntime host, IsolationRuntime bubblewrap, IsolationRuntime container, LabelledRuns labelled) {
        this(host, bubblewrap, container, labelled, Engines.single(container));
    }
}
