package dev.paddock.sandbox;

import java.util.Optional;

/** Tells whether an isolation tier can be used on this machine right now. */
@FunctionalInterface
public interface TierCheck {
    /** Why {@code tier} cannot be used here (shown to the user), or empty when it can. */
    Optional<String> unavailable(Tier tier);
}
