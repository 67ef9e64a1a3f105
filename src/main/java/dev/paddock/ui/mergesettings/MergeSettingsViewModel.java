package dev.paddock.ui.mergesettings;

import dev.paddock.merge.AutoResolveMode;
import dev.paddock.merge.MergeSettings;
import dev.paddock.merge.MergeStrategy;
import dev.paddock.ui.common.UiError;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The Merge settings dialog's state: one repository's merge strategy, test command, test timeout (typed in
 * seconds), maximum attempts and auto-resolve mode, each field checked as it is typed (the same limits as
 * {@code MergeService#configure}: a timeout of at least 1 s, at least 1 attempt), and the commands Load and
 * Save. Save sends only the values that differ from those loaded, so a change made meanwhile from the CLI or
 * the API to another setting is kept. Use on the FX thread; the backend is called on {@code io}.
 */
public final class MergeSettingsViewModel {
    private final Path repository;
    private final MergeSettingsBackend backend;
    private final Executor io;

    private final ObjectProperty<MergeStrategy> strategy = new SimpleObjectProperty<>(MergeStrategy.MERGE);
    private final StringProperty testCommand = new SimpleStringProperty("");
    private final StringProperty timeoutSeconds = new SimpleStringProperty("");
    private final StringProperty maxAttempts = new SimpleStringProperty("");
    private final ObjectProperty<AutoResolveMode> autoResolve = new SimpleObjectProperty<>(AutoResolveMode.PROPOSE);
    private final ObjectProperty<dev.paddock.merge.ReviewMode> review =
            new SimpleObjectProperty<>(dev.paddock.merge.ReviewMode.REQUIRED);
    private final ReadOnlyStringWrapper timeoutMessage = new ReadOnlyStringWrapper();
    private final ReadOnlyStringWrapper attemptsMessage = new ReadOnlyStringWrapper();
    private final ReadOnlyObjectWrapper<MergeSettings> saved = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<UiError> error = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper(true);
    private final BooleanBinding valid;
    private final BooleanBinding unsaved;
    private final BooleanBinding canSave;

    /**
     * @param repository the repository whose settings are shown (any folder inside it)
     * @param backend reads and writes the settings
     * @param io where the backend is called (tests may pass {@code Runnable::run})
     */
    public MergeSettingsViewModel(Path repository, MergeSettingsBackend backend, Executor io) {
        this.repository = repository.toAbsolutePath().normalize();
        this.backend = Objects.requireNonNull(backend, "backend");
        this.io = Objects.requireNonNull(io, "io");
        timeoutMessage.bind(Bindings.createStringBinding(
                () -> parseTimeout(timeoutSeconds.get()).problem(), timeoutSeconds));
        attemptsMessage.bind(Bindings.createStringBinding(
                () -> parseAttempts(maxAttempts.get()).problem(), maxAttempts));
        valid = timeoutMessage.isNull().and(attemptsMessage.isNull());
        unsaved = Bindings.createBooleanBinding(
                this::differs, saved, strategy, testCommand, timeoutSeconds, maxAttempts, autoResolve, review);
        canSave = Bindings.createBooleanBinding(
                () -> !busy.get() && saved.get() != null && valid.get() && unsaved.get(), busy, saved, valid, unsaved);
    }

    // Properties --------------------------------------------------------------------------------

    /** The repository whose settings these are (absolute). */
    public Path repository() {
        return repository;
    }

    /** The repository's folder name, for the title. */
    public String repositoryName() {
        Path name = repository.getFileName();
        return name == null ? repository.toString() : name.toString();
    }

    /** How a branch is brought up to date with base. */
    public ObjectProperty<MergeStrategy> strategyProperty() {
        return strategy;
    }

    /** The test command as typed; blank: no test. */
    public StringProperty testCommandProperty() {
        return testCommand;
    }

    /** The test timeout as typed, in seconds (decimals allowed, at least 1). */
    public StringProperty timeoutSecondsProperty() {
        return timeoutSeconds;
    }

    /** The maximum attempts as typed (a whole number, at least 1). */
    public StringProperty maxAttemptsProperty() {
        return maxAttempts;
    }

    /** What happens to a conflict whose every hunk is safe. */
    public ObjectProperty<AutoResolveMode> autoResolveProperty() {
        return autoResolve;
    }

    /** Whether a person approves each finished sandbox's change before it is merged. */
    public ObjectProperty<dev.paddock.merge.ReviewMode> reviewProperty() {
        return review;
    }

    /** Why the typed timeout cannot be saved, or null when it can. */
    public ReadOnlyStringProperty timeoutMessageProperty() {
        return timeoutMessage.getReadOnlyProperty();
    }

    /** Why the typed number of attempts cannot be saved, or null when it can. */
    public ReadOnlyStringProperty attemptsMessageProperty() {
        return attemptsMessage.getReadOnlyProperty();
    }

    /** The settings as last loaded or saved; null until loaded. */
    public ReadOnlyObjectProperty<MergeSettings> savedProperty() {
        return saved.getReadOnlyProperty();
    }

    /** Why the last load or save failed, or null. */
    public ReadOnlyObjectProperty<UiError> errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** True while the settings are loaded or saved. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** Whether every field holds a value that can be saved. */
    public BooleanBinding validProperty() {
        return valid;
    }

    /** Whether a field differs from the settings last loaded or saved (a field that cannot be read counts). */
    public BooleanBinding unsavedProperty() {
        return unsaved;
    }

    /** Whether Save can be pressed: loaded, nothing running, every field valid and something changed. */
    public BooleanBinding canSaveProperty() {
        return canSave;
    }

    // Commands ----------------------------------------------------------------------------------

    /** Reads the repository's settings on {@code io} and shows them; a failure is shown in {@link #errorProperty}. */
    public CompletableFuture<MergeSettings> load() {
        return call(() -> backend.settings(repository), "Cannot read the merge settings of " + repository);
    }

    /**
     * Stores the fields that changed (on {@code io}); the dialog stays as it is and shows the error when the
     * backend refuses a value or cannot be reached.
     *
     * @return completes with the settings as stored, or exceptionally with the backend's error
     * @throws IllegalStateException when Save cannot be pressed ({@link #canSaveProperty()} is false)
     */
    public CompletableFuture<MergeSettings> save() {
        if (!canSave.get()) {
            throw new IllegalStateException("nothing to save, or a field is not valid");
        }
        MergeSettings was = saved.get();
        MergeStrategy st = strategy.get() == was.strategy() ? null : strategy.get();
        String cmd = strip(testCommand.get()).equals(strip(was.testCommand())) ? null : strip(testCommand.get());
        Duration timeout = parseTimeout(timeoutSeconds.get()).value();
        Duration to = timeout.equals(was.testTimeout()) ? null : timeout;
        int attempts = parseAttempts(maxAttempts.get()).value();
        Integer at = attempts == was.maxAttempts() ? null : attempts;
        AutoResolveMode auto = autoResolve.get() == was.autoResolve() ? null : autoResolve.get();
        dev.paddock.merge.ReviewMode rev = review.get() == was.review() ? null : review.get();
        return call(
                () -> backend.configure(repository, st, cmd, to, at, auto, rev),
                "Cannot save the merge settings of " + repository);
    }

    private interface Work {
        MergeSettings run() throws Exception;
    }

    private CompletableFuture<MergeSettings> call(Work work, String doing) {
        CompletableFuture<MergeSettings> result = new CompletableFuture<>();
        busy.set(true);
        error.set(null);
        io.execute(() -> {
            try {
                MergeSettings s = work.run();
                Platform.runLater(() -> {
                    show(s);
                    busy.set(false);
                    result.complete(s);
                });
            } catch (Exception e) {
                Platform.runLater(() -> {
                    busy.set(false);
                    error.set(UiError.of(doing, e));
                    result.completeExceptionally(e);
                });
            }
        });
        return result;
    }

    private void show(MergeSettings s) {
        strategy.set(s.strategy());
        testCommand.set(s.hasTest() ? s.testCommand() : "");
        timeoutSeconds.set(seconds(s.testTimeout()));
        maxAttempts.set(String.valueOf(s.maxAttempts()));
        autoResolve.set(s.autoResolve());
        review.set(s.review());
        saved.set(s);
    }

    private boolean differs() {
        MergeSettings s = saved.get();
        if (s == null) {
            return false;
        }
        Parsed<Duration> timeout = parseTimeout(timeoutSeconds.get());
        Parsed<Integer> attempts = parseAttempts(maxAttempts.get());
        return strategy.get() != s.strategy()
                || autoResolve.get() != s.autoResolve()
                || review.get() != s.review()
                || !strip(testCommand.get()).equals(strip(s.testCommand()))
                || timeout.value() == null
                || !timeout.value().equals(s.testTimeout())
                || attempts.value() == null
                || attempts.value() != s.maxAttempts();
    }

    // Parsing -----------------------------------------------------------------------------------

    /** A typed value: the value, or null and why it cannot be used. */
    record Parsed<T>(T value, String problem) {
        static <T> Parsed<T> ok(T value) {
            return new Parsed<>(value, null);
        }

        static <T> Parsed<T> bad(String problem) {
            return new Parsed<>(null, problem);
        }
    }

    /** A duration in whole seconds when it is one ("30"), else with up to three decimals ("1.5"). */
    static String seconds(Duration d) {
        return BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString();
    }

    /**
     * Reads a timeout typed in seconds ("30", "1.5"; rounded to the millisecond). At least 1 s, as
     * {@code MergeService#configure} requires.
     */
    static Parsed<Duration> parseTimeout(String text) {
        String t = strip(text);
        if (t.isEmpty()) {
            return Parsed.bad("Enter the test timeout in seconds (1 or more).");
        }
        BigDecimal secs;
        try {
            secs = new BigDecimal(t);
        } catch (NumberFormatException e) {
            return Parsed.bad("\"" + t + "\" is not a number of seconds.");
        }
        if (secs.compareTo(BigDecimal.ONE) < 0) {
            return Parsed.bad("The test timeout must be at least 1 second.");
        }
        try {
            long ms = secs.movePointRight(3)
                    .setScale(0, java.math.RoundingMode.HALF_UP)
                    .longValueExact();
            return Parsed.ok(Duration.ofMillis(ms));
        } catch (ArithmeticException e) {
            return Parsed.bad("\"" + t + "\" seconds is too long.");
        }
    }

    /** Reads a maximum number of attempts: a whole number, at least 1. */
    static Parsed<Integer> parseAttempts(String text) {
        String t = strip(text);
        if (t.isEmpty()) {
            return Parsed.bad("Enter how many attempts (1 or more).");
        }
        if (!t.matches("[+-]?\\d+")) {
            return Parsed.bad("\"" + t + "\" is not a whole number of attempts.");
        }
        int n;
        try {
            n = Integer.parseInt(t);
        } catch (NumberFormatException e) {
            return Parsed.bad("\"" + t + "\" attempts is too many.");
        }
        return n < 1 ? Parsed.bad("At least 1 attempt is needed.") : Parsed.ok(n);
    }

    private static String strip(String s) {
        return s == null ? "" : s.strip();
    }
}
