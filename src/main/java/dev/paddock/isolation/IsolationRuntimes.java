package dev.paddock.isolation;

/**
 * The runtime of each tier: host process group, bubblewrap, container. The tier picks one of them once; what
 * follows goes through {@link IsolationRuntime} alone.
 */
public record IsolationRuntimes(IsolationRuntime host, IsolationRuntime bubblewrap, IsolationRuntime container) {
}
