package dev.paddock.cli;

import dev.paddock.api.SettingsClient;
import dev.paddock.common.PaddockException;
import dev.paddock.settings.PaddockHome;
import dev.paddock.settings.SettingsStore;

/**
 * Reaches the settings of a home for {@code paddock config}: through the running Paddock's API when one runs
 * (it owns the store), else by opening the store directly ({@link RunningPaddock#apiElseStore}). Either way a
 * change is recorded as an event.
 */
final class SettingsAccess {
    private SettingsAccess() {}

    /** What to do through the running Paddock. */
    @FunctionalInterface
    interface ViaApi<T> {
        T run(SettingsClient client) throws PaddockException;
    }

    /** What to do on the store itself. */
    @FunctionalInterface
    interface ViaStore<T> {
        T run(SettingsStore settings) throws PaddockException;
    }

    /**
     * Runs {@code api} when a Paddock runs for {@code home}, else {@code store} on its opened store.
     *
     * @throws PaddockException the API's or the store's refusal (unknown setting, bad value), or the store held
     *     by a Paddock whose API does not answer
     */
    static <T> T run(PaddockHome home, ViaApi<T> api, ViaStore<T> store) throws PaddockException {
        return RunningPaddock.apiElseStore(
                home, client -> api.run(new SettingsClient(client)), wiring -> store.run(wiring.settings()));
    }
}
