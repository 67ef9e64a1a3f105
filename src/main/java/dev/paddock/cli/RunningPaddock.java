package dev.paddock.cli;

import dev.paddock.Wiring;
import dev.paddock.api.ApiClient;
import dev.paddock.api.SandboxClient;
import dev.paddock.common.PaddockException;
import dev.paddock.settings.PaddockHome;
import dev.paddock.store.DatabaseInUseException;
import java.util.Optional;

/**
 * How a command reaches a home: through the running panel or server's API (it holds the store), or, for commands
 * that can do without it, by opening the store itself when none runs.
 */
final class RunningPaddock {
    private RunningPaddock() {}

    /** What a command does through the running Paddock's API. */
    @FunctionalInterface
    interface ViaApi<T> {
        T run(ApiClient api) throws PaddockException;
    }

    /** What a command does on the home's store, opened by the command itself. */
    @FunctionalInterface
    interface ViaStore<T> {
        T run(Wiring wiring) throws PaddockException;
    }

    /**
     * Runs {@code api} when a Paddock runs for {@code home}, else {@code store} on the home's store (opened for
     * this call, closed after it).
     *
     * @throws PaddockException the API's or the store's refusal, or the store held by a Paddock whose API does not
     *     answer
     */
    static <T> T apiElseStore(PaddockHome home, ViaApi<T> api, ViaStore<T> store) throws PaddockException {
        Optional<ApiClient> client = ApiClient.discover(home.instanceFile(), home.tokenFile());
        if (client.isPresent()) {
            return api.run(client.get());
        }
        try (Wiring wiring = Wiring.open(home)) {
            return store.run(wiring);
        } catch (DatabaseInUseException e) {
            throw new PaddockException(
                    "Another Paddock holds the store in " + home + " but its API does not"
                            + " answer (no live instance.json). If it is stuck, stop it and try again.",
                    e);
        }
    }

    /**
     * The API of the Paddock running for {@code home}, for commands that need it (sandboxes need its supervisor,
     * merges its queue).
     *
     * @throws PaddockException when none runs, saying how to start one
     */
    static ApiClient api(PaddockHome home) throws PaddockException {
        return ApiClient.discover(home.instanceFile(), home.tokenFile())
                .orElseThrow(() -> new PaddockException("No Paddock is running for " + home
                        + ": start the panel (paddock) or the" + " server (paddock serve)."));
    }

    /** {@link #api} as a sandbox client. */
    static SandboxClient require(PaddockHome home) throws PaddockException {
        return new SandboxClient(api(home));
    }

    /** Who a change made from the command line is attributed to, e.g. "ann via the CLI". */
    static String who() {
        return System.getProperty("user.name", "someone") + " via the CLI";
    }
}
