package dev.paddock.ui.sandboxes;

import dev.paddock.container.ResourceLimits;
import dev.paddock.sandbox.Tier;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The container tier's part of the New Sandbox form: the image (the repository's configured one until the person
 * types another), the resource limits as typed, and whether a Docker engine answers. Use on the FX thread.
 */
public final class ContainerFormViewModel {
    /** Shown for the container tier while the engine is being asked. */
    public static final String CONTAINER_CHECKING = "Checking whether a Docker engine answers…";

    private static final String DEFAULT_CPUS = LimitFields.cpusText(ResourceLimits.DEFAULTS.nanoCpus());
    private static final String DEFAULT_MEMORY_MIB =
            Long.toString(ResourceLimits.DEFAULTS.memoryBytes() / ResourceLimits.MIB);
    private static final String DEFAULT_PIDS = Long.toString(ResourceLimits.DEFAULTS.pids());

    private final StringProperty image = new SimpleStringProperty("");
    private final StringProperty cpus = new SimpleStringProperty(DEFAULT_CPUS);
    private final StringProperty memoryMib = new SimpleStringProperty(DEFAULT_MEMORY_MIB);
    private final StringProperty pids = new SimpleStringProperty(DEFAULT_PIDS);
    private final ReadOnlyStringWrapper containerProblem = new ReadOnlyStringWrapper(CONTAINER_CHECKING);
    private final ReadOnlyStringWrapper defaultImage = new ReadOnlyStringWrapper();
    private final StringBinding formProblem;

    ContainerFormViewModel(ObjectProperty<Tier> tier) {
        formProblem = Bindings.createStringBinding(
                () -> tier.get() != Tier.CONTAINER
                        ? null
                        : containerProblem.get() != null ? containerProblem.get() : problem(),
                tier,
                containerProblem,
                image,
                defaultImage,
                cpus,
                memoryMib,
                pids);
    }

    /** The container tier: the image; the repository's configured image until the person types another. */
    public StringProperty imageProperty() {
        return image;
    }

    /** CPUs as typed ("2", "0.5"); docker's {@code --cpus}. */
    public StringProperty cpusProperty() {
        return cpus;
    }

    /** Memory in MiB as typed (swap included: memory + swap is set to the same value). */
    public StringProperty memoryMibProperty() {
        return memoryMib;
    }

    /** At most this many processes and threads at once; docker's {@code --pids-limit}. */
    public StringProperty pidsProperty() {
        return pids;
    }

    /** Why the container tier cannot be used (no engine answers), or null when it can. */
    public ReadOnlyStringProperty containerProblemProperty() {
        return containerProblem.getReadOnlyProperty();
    }

    /** The repository's configured container image ({@code paddock sandbox image}), or null when none is set. */
    public ReadOnlyStringProperty defaultImageProperty() {
        return defaultImage.getReadOnlyProperty();
    }

    /**
     * What is wrong with the container part of the form (no engine, no image, a limit that is not a number or
     * that docker would refuse), or null when the tier is not chosen or all is well. Create stays disabled while
     * it is not null.
     */
    public StringBinding formProblemProperty() {
        return formProblem;
    }

    /** This part's fields, which {@link NewSandboxViewModel#editedProperty()} watches, followed by {@code more}. */
    javafx.beans.Observable[] dependencies(javafx.beans.Observable... more) {
        List<javafx.beans.Observable> all = new ArrayList<>(List.of(image, defaultImage, cpus, memoryMib, pids));
        all.addAll(List.of(more));
        return all.toArray(javafx.beans.Observable[]::new);
    }

    /** Whether an image other than the repository's, or limits other than the defaults, were typed. */
    boolean edited() {
        return (!isBlank(image.get()) && !image.get().strip().equals(defaultImage.get()))
                || !DEFAULT_CPUS.equals(cpus.get())
                || !DEFAULT_MEMORY_MIB.equals(memoryMib.get())
                || !DEFAULT_PIDS.equals(pids.get());
    }

    /** Loading failed: why the engine's state is not known. */
    void unavailable(String problem) {
        containerProblem.set(problem);
    }

    /**
     * What loading found: why the engine cannot be used (null when it can) and the repository's image (null when
     * none is set), which fills the image field unless something was typed there.
     */
    void loaded(String problem, String repositoryImage) {
        containerProblem.set(problem);
        defaultImage.set(repositoryImage);
        if (isBlank(image.get()) && repositoryImage != null) {
            image.set(repositoryImage);
        }
    }

    /** The image as typed, stripped. */
    String image() {
        return image.get().strip();
    }

    /**
     * The limits the form describes.
     *
     * @throws IllegalArgumentException with a message for the person when a field is not a number or docker would
     *     refuse the value
     */
    ResourceLimits limits() {
        return LimitFields.limits(cpus.get(), memoryMib.get(), pids.get());
    }

    private String problem() {
        return LimitFields.problem(image.get(), defaultImage.get(), cpus.get(), memoryMib.get(), pids.get());
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }
}
