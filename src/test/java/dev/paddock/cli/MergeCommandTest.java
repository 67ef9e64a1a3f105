package dev.paddock.cli;

import static dev.paddock.cli.StatusCommandTest.paddock;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.Paddock;
import dev.paddock.api.ApiClient;
import dev.paddock.cli.StatusCommandTest.Run;
import dev.paddock.common.Json;
import dev.paddock.testing.ChildJvm;
import dev.paddock.testing.TempRepo;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code paddock merge list|enqueue|cancel|retry} and {@code GET /v1/conflicts} against a real {@code paddock
 * serve}, whose merge queue merges real branches; the Merged (24 h) tile counts the merges.
 */
class MergeCommandTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path tmp;

    private Path home;
    private ChildJvm serve;
    private TempRepo repo;

    @BeforeEach
    void setUp() {
        home = tmp.resolve("home");
        repo = TempRepo.init(tmp.resolve("repo")).excludeWorktreesDir();
        repo.commitFile("f.txt", "one\n", "Add f");
        for (String b : List.of("agent/a", "agent/b")) {
            repo.git("branch", b, "main");
            Path wt = repo.addWorktreeOnBranch(tmp.resolve(b.replace('/', '-')), b);
            TempRepo.write(wt, "f.txt", "edited on " + b + "\n");
            TempRepo.commitAll(wt, "edit on " + b);
        }
        serve = ChildJvm.start(
                tmp.resolve("serve-out"),
                Map.of(),
                Paddock.class.getName(),
                List.of("--home", home.toString(), "serve"));
        serve.awaitStdout("Paddock serving on 127.0.0.1:", WAIT);
    }

    @AfterEach
    void tearDown() {
        serve.close();
    }

    private Run merge(String... args) {
        String[] all = new String[args.length + 3];
        all[0] = "--home";
        all[1] = home.toString();
        all[2] = "merge";
        System.arraycopy(args, 0, all, 3, args.length);
        return paddock(all);
    }

    @Test
    void enqueueMergesTheFirstSendsTheSecondToTheConflictQueueAndTheTileCountsTheMerge() throws Exception {
        Run a = merge("enqueue", "--repo", repo.dir().toString(), "--branch", "agent/a");
        assertThat(a.exit()).as(a.describe()).isZero();
        assertThat(a.out()).startsWith("Queued #1 agent/a.");
        serve.await("agent/a merged", () -> states().contains("merged"), WAIT);
        Run b = merge("enqueue", "--repo", repo.dir().toString(), "--branch", "agent/b");
        assertThat(b.exit()).as(b.describe()).isZero();
        serve.await("agent/b in conflict", () -> states().contains("conflict"), WAIT);

        Run table = merge("list", "--repo", repo.dir().toString());
        assertThat(table.out()).contains("#1", "merged", "#2", "conflict", "conflicts in f.txt");
        assertThat(table.out())
                .as("ATTEMPTS counts the attempt that merged")
                .containsPattern("(?m)^#1\\s+merged\\s+1\\s+agent/a\\s");
        Thread.sleep(1500);
        String conflictLine = line(table.out(), "#2 ");
        assertThat(line(merge("list", "--repo", repo.dir().toString()).out(), "#2 "))
                .as("ELAPSED of a conflict stops when it left running")
                .isEqualTo(conflictLine);
        ApiClient api = ApiClient.discover(home.resolve("instance.json"), home.resolve("api-token"))
                .orElseThrow();
        JsonNode conflicts = Json.mapper().readTree(api.get("/v1/conflicts"));
        assertThat(conflicts.at("/conflicts/0/entry/branch").asText()).isEqualTo("agent/b");
        assertThat(conflicts.at("/conflicts/0/files/0/path").asText()).isEqualTo("f.txt");
        JsonNode status = Json.mapper().readTree(api.status(repo.dir()));
        assertThat(status.findValue("merged24h").asLong()).isEqualTo(1);

        Run cancelMerged = merge("cancel", "1");
        assertThat(cancelMerged.exit()).isNotZero();
        assertThat(cancelMerged.err()).contains("nothing to cancel");
        Run cancelConflict = merge("cancel", "2");
        assertThat(cancelConflict.exit()).as(cancelConflict.describe()).isZero();
        assertThat(cancelConflict.out()).contains("#2 agent/b is cancelled");
        Run retry = merge("retry", "2");
        assertThat(retry.exit()).as(retry.describe()).isZero();
        serve.await("agent/b in conflict again", () -> states().contains("conflict"), WAIT);
        Run unknown = merge("retry", "99");
        assertThat(unknown.err()).contains("no merge queue entry #99");
        Run usage = merge("enqueue");
        assertThat(usage.exit()).isEqualTo(2);
    }

    private static String line(String table, String prefix) {
        return table.lines()
                .filter(l -> l.startsWith(prefix))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line " + prefix + " in\n" + table));
    }

    @Test
    void configShowsAndChangesTheRepositorysMergeSettingsAndRefusesBadOnes() throws Exception {
        Run shown = merge("config", "--repo", repo.dir().toString());
        assertThat(shown.exit()).as(shown.describe()).isZero();
        assertThat(shown.out())
                .contains("strategy      merge", "test command  (none)", "max attempts  3", "auto-resolve  propose");

        Run set = merge(
                "config",
                "--repo",
                repo.dir().toString(),
                "--strategy",
                "rebase",
                "--test-command",
                "test -f f.txt",
                "--test-timeout",
                "60000",
                "--max-attempts",
                "2",
                "--json");
        assertThat(set.exit()).as(set.describe()).isZero();
        JsonNode v = Json.mapper().readTree(set.out());
        assertThat(v.get("strategy").asText()).isEqualTo("rebase");
        assertThat(v.get("testCommand").asText()).isEqualTo("test -f f.txt");
        assertThat(v.get("testTimeoutMs").asLong()).isEqualTo(60_000);
        assertThat(v.get("maxAttempts").asInt()).isEqualTo(2);
        // Kept across calls, and the queue uses it: the test command runs and passes before base moves.
        Run a = merge("enqueue", "--repo", repo.dir().toString(), "--branch", "agent/a");
        assertThat(a.exit()).as(a.describe()).isZero();
        serve.await("agent/a merged", () -> states().contains("merged"), WAIT);
        assertThat(merge("list", "--repo", repo.dir().toString(), "--json").out())
                .contains("\"lastTestPassed\" : true");

        Run bad = merge("config", "--repo", repo.dir().toString(), "--strategy", "squash");
        assertThat(bad.exit()).as("bad usage").isEqualTo(2);
        assertThat(bad.err()).contains("squash");
        Run cleared = merge("config", "--repo", repo.dir().toString(), "--test-command", "");
        assertThat(cleared.out()).contains("test command  (none)", "strategy      rebase");

        Run badAuto =
                merge("config", "--repo", repo.dir().toString(), "--auto-resolve", "always", "--max-attempts", "5");
        assertThat(badAuto.exit()).as("bad usage").isEqualTo(2);
        assertThat(badAuto.err()).contains("'always'", "propose", "apply");
        Run unchanged = merge("config", "--repo", repo.dir().toString());
        assertThat(unchanged.out()).as("nothing changed").contains("auto-resolve  propose", "max attempts  2");
        Run auto = merge("config", "--repo", repo.dir().toString(), "--auto-resolve", "apply", "--json");
        assertThat(auto.exit()).as(auto.describe()).isZero();
        assertThat(Json.mapper().readTree(auto.out()).get("autoResolve").asText())
                .isEqualTo("apply");
        assertThat(merge("config", "--repo", repo.dir().toString()).out())
                .contains("auto-resolve  apply", "regenerate    (none)");

        Run regen = merge(
                "config",
                "--repo",
                repo.dir().toString(),
                "--regenerate",
                "package-lock.json=npm install --package-lock-only",
                "--regenerate",
                "go.sum=go mod tidy");
        assertThat(regen.exit()).as(regen.describe()).isZero();
        assertThat(regen.out())
                .contains(
                        "regenerate    go.sum = go mod tidy",
                        "regenerate    package-lock.json = npm install --package-lock-only");
        Run regenJson = merge("config", "--repo", repo.dir().toString(), "--regenerate", "go.sum=", "--json");
        assertThat(Json.mapper().readTree(regenJson.out()).get("regenerate").toString())
                .isEqualTo("{\"package-lock.json\":\"npm install --package-lock-only\"}");
        Run badRegen = merge("config", "--repo", repo.dir().toString(), "--regenerate", "npm install");
        assertThat(badRegen.exit()).isNotZero();
        assertThat(badRegen.err()).contains("FILE=COMMAND");
        Run outside = merge("config", "--repo", repo.dir().toString(), "--regenerate", "../x.lock=true");
        assertThat(outside.exit()).isNotZero();
        assertThat(outside.err()).contains("FILE=COMMAND");
    }

    @Test
    void aPolicyChangeIsReviewedApprovedAndRejectedFromTheCommandLine() throws Exception {
        repo.commitFile(".paddock/policy.json", "{\"permissions\": {\"allow\": [\"Bash(ls)\"]}}\n", "Add the policy");
        String before = repo.git("rev-parse", "main").strip();
        String[] tips = new String[2];
        for (int i = 0; i < 2; i++) {
            String b = "agent/p" + i;
            repo.git("branch", b, "main");
            Path wt = repo.addWorktreeOnBranch(tmp.resolve("wt-p" + i), b);
            TempRepo.write(
                    wt, ".paddock/policy.json", "{\"permissions\": {\"allow\": [\"Bash\"]}, \"n\": " + i + "}\n");
            tips[i] = TempRepo.commitAll(wt, "Open the policy " + i);
        }

        assertThat(merge("enqueue", "--repo", repo.dir().toString(), "--branch", "agent/p0")
                        .exit())
                .isZero();
        serve.await("agent/p0 waits for a review", () -> states().contains("policy_review"), WAIT);
        Run table = merge("list", "--repo", repo.dir().toString());
        assertThat(line(table.out(), "#1 ")).contains("policy_review", ".paddock/policy.json");
        Run review = merge("review", "1");
        assertThat(review.exit()).as(review.describe()).isZero();
        assertThat(review.out())
                .contains(
                        "changes   .paddock/policy.json",
                        "reviewed  " + tips[0],
                        "+{\"permissions\": {\"allow\": [\"Bash\"]}, \"n\": 0}",
                        "paddock merge approve 1 --commit " + tips[0]);
        assertThat(repo.git("rev-parse", "main").strip()).isEqualTo(before);

        Run stale = merge("approve", "1", "--commit", tips[1]);
        assertThat(stale.exit()).isEqualTo(1);
        assertThat(stale.err()).contains("look at its diff again");
        Run approve = merge("approve", "1", "--commit", tips[0].substring(0, 12));
        assertThat(approve.exit()).as(approve.describe()).isZero();
        assertThat(approve.out()).startsWith("Approved the policy change of #1 agent/p0");
        serve.await("agent/p0 merged", () -> states().contains("merged"), WAIT);

        assertThat(merge("enqueue", "--repo", repo.dir().toString(), "--branch", "agent/p1")
                        .exit())
                .isZero();
        serve.await("agent/p1 waits for a review", () -> states().contains("policy_review"), WAIT);
        Run reject = merge("reject", "2", "--reason", "not this one");
        assertThat(reject.exit()).as(reject.describe()).isZero();
        assertThat(reject.out()).contains("is cancelled and base is unchanged");
        assertThat(repo.git("show", "main:.paddock/policy.json")).contains("\"n\": 0");
        Run again = merge("reject", "2");
        assertThat(again.exit()).isEqualTo(1);
        assertThat(again.err()).contains("only an entry waiting for a policy review");
    }

    private List<String> states() {
        Run r = merge("list", "--repo", repo.dir().toString(), "--json");
        try {
            return Json.mapper().readTree(r.out()).findValuesAsText("state");
        } catch (java.io.IOException e) {
            return List.of();
        }
    }
}
