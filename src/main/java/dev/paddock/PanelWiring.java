package dev.paddock;

import dev.paddock.panel.FilePolicyEditorBackend;
import dev.paddock.panel.ServiceSandboxBackend;
import dev.paddock.panel.ServiceShellBackend;
import dev.paddock.sandbox.TierCheck;
import dev.paddock.ui.approvals.BrokerApprovalBackend;
import dev.paddock.ui.conflicts.MergeConflictBackend;
import dev.paddock.ui.layers.ServiceSharedLayersBackend;
import dev.paddock.ui.mergequeue.ServiceMergeQueueBackend;
import dev.paddock.ui.mergesettings.ServiceMergeSettingsBackend;
import dev.paddock.ui.sandboxes.SandboxBackend;
import dev.paddock.ui.shell.PanelBackends;

/**
 * Builds the panel's backends over the services of a {@link Wiring}: one typed backend per view, with actions
 * recorded as the local user's in the panel.
 */
final class PanelWiring {
    private PanelWiring() {}

    /** @param stop what closing the backends stops (the running Host) */
    static PanelBackends backends(Wiring w, AutoCloseable stop) {
        String who = System.getProperty("user.name", "someone") + " in the panel";
        // The panel's views reload on events: on a store several Paddocks share, the others' too.
        dev.paddock.events.EventBus events = dev.paddock.events.StoreEventFeed.start(
                        w.events(), w.bus(), w.database().onServer())
                .bus();
        return new PanelBackends(
                w.home().dir(),
                new ServiceShellBackend(w.workspace(), w.environment(), events, w.settings())
                        .engines(w.engines()::lines, w.engines()::onLines),
                sandboxBackend(w, w.tierChecks()),
                new BrokerApprovalBackend(w.approvals(), events, who),
                new MergeConflictBackend(w.merges(), w.resolutions(), events, who),
                new ServiceMergeQueueBackend(w.merges(), events, who),
                new ServiceMergeSettingsBackend(w.merges()),
                new ServiceSharedLayersBackend(w.layers()),
                new FilePolicyEditorBackend(w.home().dir(), w::approvalTimeoutMs),
                w.containers().metrics(),
                stop);
    }

    /** The sandboxes' backend, with {@code tiers} telling which tiers this machine can run. */
    static SandboxBackend sandboxBackend(Wiring w, TierCheck tiers) {
        return new ServiceSandboxBackend(
                        w.sandboxService(),
                        w.reclaimer(),
                        w.settings(),
                        w.repoService(),
                        tiers,
                        w.git(),
                        w.worktrees(),
                        w.checkpoints(),
                        w.approvals(),
                        w.comparisons(),
                        w.publish())
                .reviews(w.reviews())
                .layers(w.layers())
                .diffs(new dev.paddock.panel.ServiceDiffBackend(
                        w.diffs(), w.reviews(), System.getProperty("user.name", "someone") + " (panel)"));
    }
}
