package dev.paddock.ui.approvals;

import dev.paddock.approval.Approval;
import dev.paddock.approval.ApprovalBroker.AllowResult;
import dev.paddock.approval.ApprovalException;
import dev.paddock.common.PaddockException;
import dev.paddock.common.Threads;
import dev.paddock.events.EventSeverity;
import dev.paddock.ui.common.FxCoalescer;
import dev.paddock.ui.common.KeyedListSync;
import dev.paddock.ui.common.ThrottledLoader;
import dev.paddock.ui.common.UiError;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.ObservableSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The approval queue of the repository shown: its pending requests (oldest first), the clock their ages
 * and countdowns are shown against, and the decisions a person makes (approve, deny, approve and always
 * allow).
 *
 * <p>Pending requests are reloaded on the {@code approvals-refresh} thread (one indexed query for the pending rows)
 * when the backend reports a change (every request queued or decided is an event), through one
 * {@link ThrottledLoader} (bursts coalesce); only applying them runs on the FX thread, at most once per pulse. The
 * clock of the ages and countdowns ticks every {@link #REFRESH_MS} ms without reading the store. Decisions run on
 * the {@code io} executor.
 */
public final class ApprovalsViewModel implements AutoCloseable {
    // Looked up when needed: the first logger initialises Logback, which the first frame must not wait for.
    private static Logger log() {
        return LoggerFactory.getLogger(ApprovalsViewModel.class);
    }
    /** Period of the clock of the ages and countdowns, in ms. */
    public static final long REFRESH_MS = 1_000;
    /** At most this many pending requests are loaded. */
    static final int LIMIT = 500;

    /**
     * A short message about the last decision, with its severity as the events of that decision have it
     * ({@link EventSeverity}): an approval a success, a denial an error, a request decided
     * elsewhere a warning (it did not happen as asked).
     */
    public record Note(String text, EventSeverity severity) {}

    /** One reload: every pending request, the names of their repositories by id, and when it was read. */
    private record Snapshot(List<Approval> pending, java.util.Map<Long, String> names, Instant at, Exception error) {}

    private final Executor io;
    // Properties
    private final ObservableList<Approval> rows = FXCollections.observableArrayList();
    private final ObservableList<Approval> rowsView = FXCollections.unmodifiableObservableList(rows);
    private final ObservableSet<Long> deciding = FXCollections.observableSet(new HashSet<>());
    private final ObservableSet<Long> decidingView = FXCollections.unmodifiableObservableSet(deciding);
    private final ReadOnlyObjectWrapper<Instant> now = new ReadOnlyObjectWrapper<>(Instant.now());
    private final ReadOnlyIntegerWrapper elsewhere = new ReadOnlyIntegerWrapper();
    private final ReadOnlyStringWrapper elsewhereText = new ReadOnlyStringWrapper();
    /** Names of repositories by id, read once each (off the FX thread). */
    private final java.util.Map<Long, String> names = new java.util.concurrent.ConcurrentHashMap<>();

    private final ReadOnlyObjectWrapper<Note> note = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<UiError> error = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<String> problem = new ReadOnlyObjectWrapper<>();

    private final ThrottledLoader<Snapshot> loader =
            new ThrottledLoader<>("approvals-refresh", this::load, this::apply);
    private final ScheduledExecutorService clockTicks =
            Executors.newSingleThreadScheduledExecutor(Threads.daemon("approvals-clock"));
    private final FxCoalescer<Instant> clock = new FxCoalescer<>(t -> now.set(t));
    private volatile ApprovalBackend backend;
    private Long repositoryId;
    private Set<Long> known;
    /** Decided here: kept out of a reload that was read before the decision and applied after it. */
    private final Set<Long> decided = new HashSet<>();

    private Consumer<List<Approval>> onArrived = a -> {};
    private Consumer<Set<Long>> onPending = p -> {};
    private Runnable unsubscribe = () -> {};
    private ScheduledFuture<?> ticking;

    /** @param io where the broker's decisions run */
    public ApprovalsViewModel(Executor io) {
        this.io = io;
    }

    // Properties --------------------------------------------------------------------------------

    /** Pending requests of the repository shown, oldest first. */
    public ObservableList<Approval> rows() {
        return rowsView;
    }

    /** Ids of the requests whose decision is being sent (their buttons are disabled meanwhile). */
    public ObservableSet<Long> deciding() {
        return decidingView;
    }

    /** The time of the last reload (about every second): ages and countdowns re-render with it. */
    public ReadOnlyObjectProperty<Instant> nowProperty() {
        return now.getReadOnlyProperty();
    }

    /** How many requests wait in other repositories than the one shown. */
    public ReadOnlyIntegerProperty elsewhereProperty() {
        return elsewhere.getReadOnlyProperty();
    }

    /**
     * Which other repositories have requests waiting, and how many ("2 more requests wait in api (1) and docs (1)."),
     * or null when none do.
     */
    public ReadOnlyStringProperty elsewhereTextProperty() {
        return elsewhereText.getReadOnlyProperty();
    }

    /** What the last decision did, or null. */
    public ReadOnlyObjectProperty<Note> noteProperty() {
        return note.getReadOnlyProperty();
    }

    /** Why the last decision failed, or null. */
    public ReadOnlyObjectProperty<UiError> errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** Why the queue cannot be read, or null. */
    public ReadOnlyObjectProperty<String> problemProperty() {
        return problem.getReadOnlyProperty();
    }

    /** Who decisions are recorded as ("ann in the panel"). */
    public String who() {
        ApprovalBackend b = backend;
        return b == null ? "you" : b.who();
    }

    // Commands ----------------------------------------------------------------------------------

    /**
     * Shows the queue of a repository, read through {@code b} (null disconnects). Requests already pending
     * at the first reload are not announced; later ones are, once each, to {@link #setOnArrived}.
     */
    public void connect(ApprovalBackend b, Long repository) {
        boolean sameRepository = Objects.equals(repository, repositoryId) && b == backend;
        unsubscribe.run();
        backend = b;
        repositoryId = repository;
        if (!sameRepository) {
            rows.clear();
            note.set(null);
            error.set(null);
        }
        unsubscribe = b == null ? () -> {} : b.onChange(this::refresh);
        if (ticking == null && !clockTicks.isShutdown()) {
            ticking = clockTicks.scheduleWithFixedDelay(
                    () -> clock.publish(Instant.now()), REFRESH_MS, REFRESH_MS, TimeUnit.MILLISECONDS);
        }
        refresh();
    }

    /** Called on the FX thread with the requests that arrived since the last reload (in any repository). */
    public void setOnArrived(Consumer<List<Approval>> c) {
        onArrived = c == null ? a -> {} : c;
    }

    /** Called on the FX thread after every reload with the ids of every request still pending (any repository). */
    public void setOnPending(Consumer<Set<Long>> c) {
        onPending = c == null ? p -> {} : c;
    }

    /** Reloads soon (from any thread); requests close together make one reload. */
    public void refresh() {
        loader.request();
    }

    /** Clears the note (it is transient). */
    public void dismissNote() {
        note.set(null);
    }

    /** Clears the error (the close button of the error box). */
    public void dismissError() {
        error.set(null);
    }

    /** The agent of {@code a} is told "allow". */
    public CompletableFuture<Void> approve(Approval a) {
        return decide(
                a, "Cannot approve", EventSeverity.SUCCESS, b -> b.approve(a.id()), x -> "Approved " + label(a) + ".");
    }

    /**
     * The agent of {@code a} is told "deny".
     *
     * @param reason why, for the agent; blank for the default ("denied by ann in the panel")
     */
    public CompletableFuture<Void> deny(Approval a, String reason) {
        String why = reason == null || reason.isBlank() ? null : reason.strip();
        return decide(
                a,
                "Cannot deny",
                EventSeverity.ERROR,
                b -> b.deny(a.id(), why),
                x -> "Denied " + label(a) + (why == null ? "." : ": " + why));
    }

    /** Approves {@code a} and writes an allow rule for its prefix to its repository's policy file. */
    public CompletableFuture<Void> approveAndAllow(Approval a) {
        return decide(a, "Cannot allow", EventSeverity.SUCCESS, b -> b.approveAndAllow(a.id()), x -> {
            AllowResult r = (AllowResult) x;
            return "Approved " + label(a) + ". From now on the " + r.deciding() + " allows such requests"
                    + (r.droppedAsks().isEmpty()
                            ? "."
                            : "; the " + String.join(", the ", r.droppedAsks())
                                    + " that asked about them was removed.");
        });
    }

    /** A decision, sent to the broker. */
    @FunctionalInterface
    private interface Decision {
        Object send(ApprovalBackend b) throws PaddockException;
    }

    private CompletableFuture<Void> decide(
            Approval a,
            String failed,
            EventSeverity severity,
            Decision d,
            java.util.function.Function<Object, String> said) {
        ApprovalBackend b = backend;
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (b == null || a == null || !deciding.add(a.id())) {
            done.complete(null);
            return done;
        }
        error.set(null);
        io.execute(() -> {
            Object result = null;
            Exception failure = null;
            try {
                result = d.send(b);
            } catch (PaddockException | RuntimeException e) {
                failure = e;
            }
            Object r = result;
            Exception f = failure;
            Platform.runLater(() -> {
                deciding.remove(a.id());
                finished(a, failed, severity, r, f, said);
                done.complete(null);
            });
        });
        return done;
    }

    private void finished(
            Approval a,
            String failed,
            EventSeverity severity,
            Object result,
            Exception failure,
            java.util.function.Function<Object, String> said) {
        if (failure == null) {
            decided.add(a.id());
            rows.removeIf(x -> x.id() == a.id());
            note.set(new Note(said.apply(result), severity));
        } else if (failure instanceof ApprovalException ae && ae.kind() != ApprovalException.Kind.BAD_REQUEST) {
            // Decided elsewhere (API, CLI, timeout, stopped sandbox) or gone: nothing to do here any more.
            decided.add(a.id());
            rows.removeIf(x -> x.id() == a.id());
            note.set(new Note("Already decided elsewhere: " + ae.getMessage(), EventSeverity.WARNING));
        } else {
            error.set(UiError.of(failed + " " + label(a), failure));
        }
        refresh();
    }

    /** "#12 (git push origin main)": the id and the start of the request, for messages. */
    static String label(Approval a) {
        String what = a.request() == null || a.request().isBlank()
                ? a.tool()
                : a.request().strip();
        String line = what.lines().findFirst().orElse("");
        if (line.length() > 60 || what.lines().count() > 1) {
            line = line.substring(0, Math.min(line.length(), 57)) + "…";
        }
        return "#" + a.id() + " (" + line + ")";
    }

    private Snapshot load() {
        ApprovalBackend b = backend;
        if (b == null) {
            return null;
        }
        try {
            List<Approval> pending = b.pending(LIMIT);
            for (Approval a : pending) {
                if (!names.containsKey(a.repositoryId())) {
                    names.put(a.repositoryId(), b.repositoryName(a.repositoryId()));
                }
            }
            return new Snapshot(pending, java.util.Map.copyOf(names), Instant.now(), null);
        } catch (PaddockException | RuntimeException e) {
            log().warn("Cannot read the approval queue: {}", e.getMessage());
            return new Snapshot(null, java.util.Map.of(), Instant.now(), e);
        }
    }

    private void apply(Snapshot s) {
        now.set(s.at());
        if (s.error() != null) {
            problem.set("Cannot read the approval queue: " + s.error().getMessage());
            return;
        }
        problem.set(null);
        Long repo = repositoryId;
        Set<Long> pendingIds = new HashSet<>();
        s.pending().forEach(a -> pendingIds.add(a.id()));
        decided.retainAll(pendingIds);
        List<Approval> mine = s.pending().stream()
                .filter(a -> !decided.contains(a.id()))
                .filter(a -> repo == null || repo.equals(a.repositoryId()))
                .toList();
        KeyedListSync.sync(rows, mine, Approval::id);
        List<Approval> others = s.pending().stream()
                .filter(a -> repo != null && !repo.equals(a.repositoryId()))
                .toList();
        elsewhere.set(others.size());
        elsewhereText.set(elsewhereText(others, s.names()));
        onPending.accept(pendingIds);
        if (known != null) {
            List<Approval> arrived =
                    s.pending().stream().filter(a -> !known.contains(a.id())).toList();
            if (!arrived.isEmpty()) {
                onArrived.accept(arrived);
            }
        }
        known = pendingIds;
    }

    /**
     * "1 more request waits in docs.", "3 more requests wait in api (2) and docs (1).": the requests of other
     * repositories, named (the three with the most requests, then how many other repositories); null for none.
     */
    static String elsewhereText(List<Approval> others, java.util.Map<Long, String> names) {
        if (others.isEmpty()) {
            return null;
        }
        java.util.Map<String, Long> byRepo = others.stream()
                .collect(java.util.stream.Collectors.groupingBy(
                        a -> names.getOrDefault(a.repositoryId(), "repository #" + a.repositoryId()),
                        java.util.TreeMap::new,
                        java.util.stream.Collectors.counting()));
        List<String> listed = byRepo.entrySet().stream()
                .sorted(java.util.Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(3)
                .map(e -> byRepo.size() == 1 ? e.getKey() : e.getKey() + " (" + e.getValue() + ")")
                .toList();
        List<String> parts = new java.util.ArrayList<>(listed);
        if (byRepo.size() > listed.size()) {
            int rest = byRepo.size() - listed.size();
            parts.add(rest + (rest == 1 ? " other repository" : " other repositories"));
        }
        String where = parts.size() == 1
                ? parts.get(0)
                : String.join(", ", parts.subList(0, parts.size() - 1)) + " and " + parts.get(parts.size() - 1);
        return others.size() == 1
                ? "1 more request waits in " + where + "."
                : others.size() + " more requests wait in " + where + ".";
    }

    /** Stops reloading. */
    @Override
    public void close() {
        unsubscribe.run();
        backend = null;
        loader.close();
        clockTicks.shutdownNow();
    }
}
