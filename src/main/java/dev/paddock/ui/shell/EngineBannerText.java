package dev.paddock.ui.shell;

import dev.paddock.container.EngineStatus;
import dev.paddock.container.EngineWatch;
import dev.paddock.status.EnvironmentMonitor;
import dev.paddock.status.RepositoryStatus;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** The words of the {@link EngineBanner} (no JavaFX here, so they are tested without a toolkit). */
final class EngineBannerText {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    private EngineBannerText() {}

    /**
     * The banner's text, or null when no banner is shown.
     *
     * @param env the latest environment snapshot (null before the first)
     * @param sandboxes the open sandboxes of the repository shown
     * @param zone the zone the outage's start is shown in
     */
    static String message(EnvironmentMonitor.Snapshot env, List<RepositoryStatus.Sandbox> sandboxes, ZoneId zone) {
        if (env == null) {
            return null;
        }
        EngineStatus docker = env.docker();
        EngineWatch.State watch = env.engine();
        if (docker.reachable()) {
            return null;
        }
        long containers =
                sandboxes.stream().filter(s -> "container".equals(s.tier())).count();
        long unknown = sandboxes.stream()
                .filter(RepositoryStatus.Sandbox::engineUnreachable)
                .count();
        if (!docker.checked()) {
            // Before the engine's first answer: only worth a word when container sandboxes wait for it.
            return unknown == 0
                    ? null
                    : "Paddock has not heard from the Docker engine yet: "
                            + (unknown == 1 ? "1 container sandbox is" : unknown + " container sandboxes are")
                            + " shown as unknown until it answers (not failed, not stopped).";
        }
        boolean chosen = docker.source() != null && !"default socket".equals(docker.source());
        if (containers == 0 && !watch.everReachable() && !chosen) {
            return null;
        }
        StringBuilder b = new StringBuilder("The Docker engine at ")
                .append(docker.endpointText())
                .append(" does not answer");
        if (watch.awaySince() != null) {
            b.append(" (since ")
                    .append(TIME.format(watch.awaySince().atZone(zone)))
                    .append(")");
        }
        b.append(": ")
                .append(docker.error() == null ? "no reason given" : docker.error())
                .append(". ");
        if (unknown > 0) {
            b.append(unknown == 1 ? "1 container sandbox is" : unknown + " container sandboxes are")
                    .append(" shown as unknown: not failed, not stopped. ");
        }
        b.append("New container sandboxes cannot start; the worktree and namespace tiers work on. Paddock keeps"
                + " trying to reconnect and reconciles the containers when the engine is back.");
        return b.toString();
    }
}
