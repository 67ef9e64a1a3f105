package dev.paddock.ui.policy;

import dev.paddock.approval.PolicyFileEditor;
import dev.paddock.policy.Decision;
import dev.paddock.policy.Policy;
import dev.paddock.policy.PolicyEngine;
import dev.paddock.policy.PolicyFile;
import dev.paddock.policy.PolicyRule;
import dev.paddock.policy.ToolRequest;
import dev.paddock.policy.Verdict;
import dev.paddock.ui.common.UiError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javafx.animation.PauseTransition;
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
import javafx.util.Duration;

/**
 * The policy editor's state: the text of {@code <repo>/.paddock/policy.json} being edited (a template
 * with empty lists when the file is missing), checked as it is typed (debounced, off the FX thread), the
 * "try a command" decision against that text merged with the global file, and the commands Save (atomic,
 * with a {@code .bak} of the previous file), Import from {@code .claude/settings.json} and Install hook.
 * Use on the FX thread.
 */
public final class PolicyEditorViewModel {
    /** Wait after the last keystroke before the text is checked, in ms. */
    static final long CHECK_DELAY_MS = 300;
    /** The tools the try box offers. */
    public static final List<String> TOOLS = List.of("Bash", "Read", "Edit", "WebFetch");
    /** The contents of a new policy file. */
    public static final String TEMPLATE =
            "{\n  \"permissions\": {\n    \"allow\": [],\n    \"ask\": [],\n" + "    \"deny\": []\n  }\n}\n";

    /** The check of the edited text: its errors (empty when it can be saved) and how many rules it has. */
    public record Validation(List<String> errors, int rules) {
        public Validation {
            errors = List.copyOf(errors);
        }

        /** Whether the text can be saved. */
        public boolean isValid() {
            return errors.isEmpty();
        }
    }

    /** Result of a check: the validation and the try box's decision (null when the input is empty). */
    private record Checked(Validation validation, Decision decision) {}

    private final Path repository;
    private final Path paddockHome;
    private final Path userHome;
    private final Executor io;
    private final Path file;
    private final Path globalFile;

    private final StringProperty text = new SimpleStringProperty("");
    private final ObjectProperty<String> tool = new SimpleObjectProperty<>("Bash");
    private final StringProperty tryInput = new SimpleStringProperty("");
    private final ReadOnlyObjectWrapper<Validation> validation = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<Decision> decision = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper globalNote = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper();
    private final ReadOnlyObjectWrapper<UiError> error = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper(true);
    private final ReadOnlyBooleanWrapper checking = new ReadOnlyBooleanWrapper();
    private final BooleanBinding canSave;
    /** The text as last loaded or saved; null until loaded. */
    private final javafx.beans.property.SimpleStringProperty saved = new javafx.beans.property.SimpleStringProperty();

    private final BooleanBinding unsaved;
    private final PauseTransition checkLater = new PauseTransition(Duration.millis(CHECK_DELAY_MS));
    private volatile PolicyFile.Contents global;
    private final PolicyEditorBackend backend;
    private long checkSeq;

    /**
     * @param repository the repository whose policy is edited (its main worktree's, when given a sandbox's)
     * @param backend reads and writes the policy files, imports rules, installs the hook
     * @param io where the backend is called (tests may pass {@code Runnable::run})
     */
    public PolicyEditorViewModel(Path repository, PolicyEditorBackend backend, Executor io) {
        this.backend = backend;
        this.repository = backend.policyRepository(repository);
        this.paddockHome = backend.home();
        this.userHome = Path.of(System.getProperty("user.home"));
        this.io = io;
        this.file = PolicyFile.repositoryFile(this.repository);
        this.globalFile = PolicyFile.globalFile(paddockHome);
        text.addListener((o, a, b) -> scheduleCheck());
        tool.addListener((o, a, b) -> scheduleCheck());
        tryInput.addListener((o, a, b) -> scheduleCheck());
        checkLater.setOnFinished(e -> check());
        unsaved = Bindings.createBooleanBinding(
                () -> saved.get() != null && !sameText(saved.get(), text.get()), saved, text);
        canSave = Bindings.createBooleanBinding(
                () -> !busy.get()
                        && !checking.get()
                        && validation.get() != null
                        && validation.get().isValid(),
                busy,
                checking,
                validation);
    }

    // Properties --------------------------------------------------------------------------------

    /** The text being edited. */
    public StringProperty textProperty() {
        return text;
    }

    /** The tool of the try box: Bash, Read, Edit or WebFetch. */
    public ObjectProperty<String> toolProperty() {
        return tool;
    }

    /** The try box's input: a command line, a path or a URL. */
    public StringProperty tryInputProperty() {
        return tryInput;
    }

    /** The last check of the text, or null before the first. */
    public ReadOnlyObjectProperty<Validation> validationProperty() {
        return validation.getReadOnlyProperty();
    }

    /** The try box's decision, or null while its input is empty. */
    public ReadOnlyObjectProperty<Decision> decisionProperty() {
        return decision.getReadOnlyProperty();
    }

    /** Which global file also applies, and what it holds. */
    public ReadOnlyStringProperty globalNoteProperty() {
        return globalNote.getReadOnlyProperty();
    }

    /** What the last command did (saved, imported, installed), or null. */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    /** Why the last command failed, or null. */
    public ReadOnlyObjectProperty<UiError> errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** Whether the text differs from what was last loaded or saved (the template counts as loaded). */
    public BooleanBinding unsavedProperty() {
        return unsaved;
    }

    /** Equal but for a final newline, which Save adds. */
    private static boolean sameText(String a, String b) {
        String x = a == null ? "" : a.endsWith("\n") ? a.substring(0, a.length() - 1) : a;
        String y = b == null ? "" : b.endsWith("\n") ? b.substring(0, b.length() - 1) : b;
        return x.equals(y);
    }

    /** True while the file is loaded or a command runs. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** True from a keystroke until its check is done. */
    public ReadOnlyBooleanProperty checkingProperty() {
        return checking.getReadOnlyProperty();
    }

    /** Whether Save can be pressed: the text is checked and valid, nothing running. */
    public BooleanBinding canSaveProperty() {
        return canSave;
    }

    /** The file edited: {@code <repo>/.paddock/policy.json}. */
    public Path file() {
        return file;
    }

    /** The global file, which applies too. */
    public Path globalFile() {
        return globalFile;
    }

    // Commands ----------------------------------------------------------------------------------

    /** Reads the file (or the template) and the global file in the background. */
    public CompletableFuture<Void> load() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        busy.set(true);
        io.execute(() -> {
            String content;
            Exception failure = null;
            boolean missing = false;
            try {
                content = backend.read(file);
                missing = content == null;
                content = missing ? TEMPLATE : content;
            } catch (Exception e) {
                content = null;
                failure = e;
            }
            PolicyFile.Contents g = backend.readGlobal();
            global = g;
            String note = globalNote(g);
            String c = content;
            Exception f = failure;
            boolean fromTemplate = missing;
            Platform.runLater(() -> {
                globalNote.set(note);
                busy.set(false);
                if (f != null) {
                    error.set(UiError.of("Cannot read " + file, f));
                } else {
                    text.set(c);
                    saved.set(c);
                    if (fromTemplate) {
                        message.set(file + " does not exist yet: Save creates it from this template.");
                    }
                }
                scheduleCheck();
                done.complete(null);
            });
        });
        return done;
    }

    private static String globalNote(PolicyFile.Contents g) {
        if (!Files.exists(g.file())) {
            return "Also applies: " + g.file() + " (not present: no global rules).";
        }
        if (!g.isSound()) {
            return "Also applies: " + g.file() + ", which has errors and makes every request denied: "
                    + String.join("; ", g.errors());
        }
        return "Also applies: " + g.file() + " (" + g.rules().size()
                + (g.rules().size() == 1 ? " rule" : " rules") + "); deny beats ask beats allow across both files.";
    }

    /** Checks the text now, skipping the delay (the view calls it before Save). */
    public void checkNow() {
        checkLater.stop();
        check();
    }

    private void scheduleCheck() {
        checkSeq++;
        checking.set(true);
        checkLater.playFromStart();
    }

    private void check() {
        long seq = checkSeq;
        String t = text.get();
        String tl = tool.get();
        String in = tryInput.get();
        io.execute(() -> {
            Checked r = evaluate(t, tl, in);
            Platform.runLater(() -> {
                if (seq == checkSeq) {
                    validation.set(r.validation());
                    decision.set(r.decision());
                    checking.set(false);
                }
            });
        });
    }

    private Checked evaluate(String t, String tl, String in) {
        PolicyFile.Contents c = PolicyFile.parse(t == null ? "" : t, file);
        List<String> errors = new ArrayList<>(c.errors());
        if (t == null || t.isBlank()) {
            errors.add("The file is empty: it needs at least {}.");
        }
        Validation v = new Validation(
                errors.stream().map(this::shorten).toList(), c.rules().size());
        Decision d = null;
        if (in != null && !in.isBlank() && tl != null) {
            PolicyFile.Contents g = global;
            List<PolicyRule> rules = new ArrayList<>();
            List<String> broken = new ArrayList<>();
            Verdict unmatched = Verdict.ASK;
            for (PolicyFile.Contents part : g == null ? List.of(c) : List.of(g, c)) {
                rules.addAll(part.rules());
                broken.addAll(part.errors());
                if (part.unmatched() != null) {
                    unmatched = unmatched.strictest(part.unmatched());
                }
            }
            if (!v.isValid()) {
                broken.addAll(v.errors());
            }
            Policy policy = broken.isEmpty()
                    ? Policy.of(rules, unmatched, repository, userHome)
                    : Policy.broken(String.join("; ", new LinkedHashSet<>(broken)), userHome);
            try {
                d = new PolicyEngine(policy, new dev.paddock.policy.PolicyGuard(paddockHome, repository))
                        .decide(new ToolRequest(tl, in, repository));
            } catch (RuntimeException e) {
                d = new Decision(Verdict.DENY, "Cannot judge this: " + e.getMessage(), null);
            }
        }
        return new Checked(v, d);
    }

    /** Errors name the file being edited: shown in its own editor, "line L, column C: ..." is enough. */
    private String shorten(String e) {
        String prefix = file.toString();
        return e.startsWith(prefix) ? e.substring(prefix.length()).strip() : e;
    }

    /**
     * Writes the text to the file: the previous file is copied to {@code policy.json.bak}, the new one
     * goes through a temporary file and an atomic move. Does nothing while the text is invalid.
     */
    public CompletableFuture<Path> save() {
        CompletableFuture<Path> result = new CompletableFuture<>();
        if (!canSave.get()) {
            result.cancel(false);
            return result;
        }
        String content = text.get().endsWith("\n") ? text.get() : text.get() + "\n";
        run(
                () -> {
                    boolean backup = backend.write(file, content);
                    return file + " saved" + (backup ? "; the previous version is kept as policy.json.bak." : ".");
                },
                "Cannot save the policy",
                result,
                file);
        result.thenRun(() -> saved.set(content)); // completed on the FX thread by run(...)
        return result;
    }

    /**
     * Merges the rules of {@code <repo>/.claude/settings.json} into the text (each list keeps its rules; a
     * rule already there is not added again) and says how many were added and what was skipped. The text
     * must be valid JSON; it is not saved.
     */
    public CompletableFuture<String> importClaudeSettings() {
        CompletableFuture<String> result = new CompletableFuture<>();
        String current = text.get();
        busy.set(true);
        error.set(null);
        message.set(null);
        io.execute(() -> {
            try {
                PolicyFileEditor.Imported imported = backend.importClaudeSettings(repository, current);
                Platform.runLater(() -> {
                    busy.set(false);
                    text.set(imported.text());
                    message.set(imported.message());
                    result.complete(imported.message());
                });
            } catch (Exception e) {
                Platform.runLater(() -> {
                    busy.set(false);
                    error.set(UiError.of("Cannot import from " + repository.resolve(".claude/settings.json"), e));
                    result.completeExceptionally(e);
                });
            }
        });
        return result;
    }

    /**
     * Writes the hook script to Paddock's home and merges its PreToolUse entry into
     * {@code <repo>/.claude/settings.json} (the user's other settings kept, a {@code .bak} of the old file).
     */
    public CompletableFuture<String> installHook() {
        CompletableFuture<String> result = new CompletableFuture<>();
        run(() -> backend.installHook(repository), "Cannot install the hook", result, null);
        return result;
    }

    private interface Work {
        String run() throws Exception;
    }

    private <T> void run(Work work, String doing, CompletableFuture<T> result, T value) {
        busy.set(true);
        error.set(null);
        message.set(null);
        io.execute(() -> {
            try {
                String msg = work.run();
                Platform.runLater(() -> {
                    busy.set(false);
                    message.set(msg);
                    @SuppressWarnings("unchecked")
                    T v = value == null ? (T) msg : value;
                    result.complete(v);
                });
            } catch (Exception e) {
                Platform.runLater(() -> {
                    busy.set(false);
                    error.set(UiError.of(doing, e));
                    result.completeExceptionally(e);
                });
            }
        });
    }
}
