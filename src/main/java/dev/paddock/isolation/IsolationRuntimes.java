package dev.paddock.isolation;

/**
 * The runtime of each tier: host process group, bubblewrap, container. The tier picks one of them once; what
 * follows goes through {@link IsolationRuntime} alone. {@code labelled} is what the engines run under Paddock's
 * label (the container runtime), for the reconciler's orphan pass.
 */
public record IsolationRuntimes(
        IsolationRuntime host, IsolationRuntime bubblewrap, IsolationRuntime container, LabelledRuns labelled) {}
