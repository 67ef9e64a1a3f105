package dev.paddock.sandbox;

import dev.paddock.container.ResourceLimits;
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

    /** As {@link #imageProblem(String)}, on the engine {@code engine} (null: local). */
    default Optional<String> imageProblem(String engine, String image) {
        return imageProblem(image);
    }

    /**
     * The engine a new container sandbox goes on (see {@link dev.paddock.isolation.Engines#place}): its name, or null
     * for the local one. The default knows the local engine alone.
     *
     * @throws SandboxException when the engine asked for is unknown, or none fits the labels or answers
     */
    default String placeEngine(String pinned, java.util.Map<String, String> labels, ResourceLimits limits)
            throws SandboxException {
        if ((pinned != null && !pinned.equals("local")) || !labels.isEmpty()) {
            throw new SandboxException("This Paddock has no Docker engines besides local.");
        }
        return null;
    }
}
