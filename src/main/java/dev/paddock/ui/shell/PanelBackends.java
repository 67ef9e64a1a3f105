package dev.paddock.ui.shell;

import dev.paddock.container.ContainerMetricsBoard;
import dev.paddock.ui.approvals.ApprovalBackend;
import dev.paddock.ui.conflicts.ConflictBackend;
import dev.paddock.ui.layers.SharedLayersBackend;
import dev.paddock.ui.mergequeue.MergeQueueBackend;
import dev.paddock.ui.mergesettings.MergeSettingsBackend;
import dev.paddock.ui.policy.PolicyEditorBackend;
import dev.paddock.ui.sandboxes.SandboxBackend;
import java.nio.file.Path;

/**
 * A running Paddock as the panel sees it: one typed backend per view, built by {@code Wiring}, and how to stop it.
 * The panel holds this, never the services themselves.
 *
 * @param home Paddock's home directory (global policy, hook script)
 * @param metrics live CPU and memory of Paddock's containers
 * @param stop stops Paddock (API, monitors, store) when the panel closes
 */
public record PanelBackends(
        Path home,
        ShellBackend shell,
        SandboxBackend sandboxes,
        ApprovalBackend approvals,
        ConflictBackend conflicts,
        MergeQueueBackend mergeQueue,
        MergeSettingsBackend mergeSettings,
        SharedLayersBackend sharedLayers,
        PolicyEditorBackend policies,
        ContainerMetricsBoard metrics,
        AutoCloseable stop)
        implements AutoCloseable {

    /** Starts Paddock for the panel (store, API, probes) and hands its backends over. */
    @FunctionalInterface
    public interface Starter {
        PanelBackends start(dev.paddock.settings.PaddockHome home) throws Exception;
    }

    /** Stops Paddock; a failure is logged. */
    @Override
    public void close() {
        try {
            stop.close();
        } catch (Exception e) {
            org.slf4j.LoggerFactory.getLogger(PanelBackends.class).warn("Stopping Paddock: {}", e.toString());
        }
    }
}
