package dev.paddock.cli;

import dev.paddock.api.ApiClient;
import dev.paddock.api.SandboxClient;
import dev.paddock.common.PaddockException;
import dev.paddock.settings.PaddockHome;

/** The running panel or server of a home, for commands that need it (sandboxes need its supervisor). */
final class RunningPaddock {
    private RunningPaddock() {
    }

    /**
     * A client of the Paddock running for {@code home}.
     *
     * @throws PaddockException when none runs, saying how to start one
     */
    static SandboxClient require(PaddockHome home) throws PaddockException {
        ApiClient api = ApiClient.discover(home.instanceFile(), home.tokenFile()).orElseThrow(() ->
                new PaddockException("No Paddock is running for " + home + ": start the panel (paddock) or the"
                        + " server (paddock serve)."));
        return new SandboxClient(api);
    }

    /** Who a change made from the command line is attributed to, e.g. "ann via the CLI". */
    static String who() {
        return System.getProperty("user.name", "someone") + " via the CLI";
    }
}
