package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.common.TokenHash;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventLog;
import dev.paddock.repo.RepoStore;
import dev.paddock.store.Database;
import dev.paddock.testing.StoreKind;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Sandbox tokens in a real store, an H2 file and a PostgreSQL database: only their hash is kept, each new one
 * replaces the last, lookups follow.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(StoreKind.class)
class SandboxTokensTest {
    @TempDir
    Path tmp;

    private final StoreKind kind;

    private Database db;
    private SandboxStore store;

    SandboxTokensTest(StoreKind kind) {
        this.kind = kind;
    }

    @BeforeEach
    void open() throws Exception {
        db = kind.open(tmp);
        Clock clock = Clock.systemUTC();
        long repo = new RepoStore(db, clock)
                .register(tmp.resolve("repo"), "main")
                .repo()
                .id();
        store = new SandboxStore(db, new EventLog(db, clock), clock);
        Instant now = Instant.now();
        for (String id : List.of("a-001", "b-001")) {
            store.insert(
                    SandboxRecord.builder()
                            .id(id)
                            .repositoryId(repo)
                            .task("task")
                            .agentCommand("true")
                            .tier(Tier.WORKTREE)
                            .branch("agent/" + id)
                            .baseBranch("main")
                            .worktreePath(tmp.resolve(id).toString())
                            .state(SandboxState.PENDING)
                            .createdAt(now)
                            .stateChangedAt(now)
                            .leaseMs(60_000)
                            .build(),
                    null,
                    List.<EventDraft>of());
        }
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void aNewSandboxHasNoTokenAndAnIssuedOneIsStoredAsItsHashOnly() throws Exception {
        assertThat(hashOf("a-001")).isNull();

        String token = store.issueToken("a-001");

        assertThat(token).hasSize(43).matches("[A-Za-z0-9_-]+");
        assertThat(hashOf("a-001")).isEqualTo(TokenHash.of(token)).hasSize(64);
        assertThat(store.sandboxOfToken(token)).contains("a-001");
        assertThat(store.sandboxOfToken(TokenHash.of(token)))
                .as("the hash is no token")
                .isEmpty();
        assertThat(store.sandboxOfToken(token + "x")).isEmpty();
        assertThat(store.sandboxOfToken("")).isEmpty();
        assertThat(store.sandboxOfToken(null)).isEmpty();
    }

    @Test
    void aNewTokenReplacesTheLastEvenWhenTheLastWasJustLookedUp() throws Exception {
        String first = store.issueToken("a-001");
        String other = store.issueToken("b-001");
        assertThat(store.sandboxOfToken(first)).contains("a-001"); // now remembered

        String second = store.issueToken("a-001");

        assertThat(store.sandboxOfToken(first)).isEmpty();
        assertThat(store.sandboxOfToken(second)).contains("a-001");
        assertThat(store.sandboxOfToken(other))
                .as("another sandbox's token is untouched")
                .contains("b-001");
    }

    @Test
    void aLookupRacingNewTokensNeverLeavesAReplacedTokenWorking() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        Set<String> replaced = ConcurrentHashMap.newKeySet();
        AtomicBoolean stop = new AtomicBoolean();
        java.util.concurrent.atomic.AtomicReference<String> current =
                new java.util.concurrent.atomic.AtomicReference<>(store.issueToken("a-001"));
        CountDownLatch done = new CountDownLatch(3);
        try {
            for (int t = 0; t < 3; t++) {
                pool.execute(() -> {
                    try {
                        while (!stop.get()) {
                            store.sandboxOfToken(current.get());
                            for (String old : replaced) {
                                store.sandboxOfToken(old);
                            }
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    } finally {
                        done.countDown();
                    }
                });
            }
            for (int i = 0; i < 200; i++) {
                String old = current.get();
                current.set(store.issueToken("a-001"));
                replaced.add(old);
            }
            stop.set(true);
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            pool.shutdownNow();
        }
        for (String old : replaced) {
            assertThat(store.sandboxOfToken(old)).as("a replaced token").isEmpty();
        }
        assertThat(store.sandboxOfToken(current.get())).contains("a-001");
    }

    @Test
    void noTokenIsIssuedForASandboxThatDoesNotExist() {
        assertThatThrownBy(() -> store.issueToken("nope-001"))
                .isInstanceOf(SandboxNotFoundException.class)
                .hasMessage("No sandbox nope-001.");
    }

    private String hashOf(String id) throws Exception {
        return db.jdbc()
                .queryOne("SELECT COALESCE(token_hash, '-') FROM sandboxes WHERE id = ?", rs -> rs.getString(1), id)
                .filter(h -> !h.equals("-"))
                .orElse(null);
    }
}
