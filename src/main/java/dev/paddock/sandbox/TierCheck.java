package dev.paddock.sandbox;

import java.util.Optional;

/** Tells whether an isolation tier can be used on this machine right now. */
@FunctionalInterface
public interface TierCheck {
    /** Why {@code tier} cannot be used here (shown to the user), or empty when it can. */
    Optional<String> unavailable(Tier tier);

    /**
     * Why a container sandbox cannot be made from {@code image} (none given, not on the engine), or empty
     * when it can. The default accepts any image that is named.
     */
    default Optional<String> imageProblem(String image) {
        return image == null || image.isBlank() ? Optional.of("no container image is set.") : Optional.empty();
    }
}
