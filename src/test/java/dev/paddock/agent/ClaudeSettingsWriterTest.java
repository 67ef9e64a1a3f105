package dev.paddock.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import dev.paddock.policy.Policy;
import dev.paddock.policy.PolicyRule;
import dev.paddock.policy.RuleList;
import dev.paddock.policy.RuleParser;
import dev.paddock.policy.Verdict;
import dev.paddock.testing.TempRepo;
import dev.paddock.worktree.GitCli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ClaudeSettingsWriter}, {@link WorktreeExclude} and {@link ClaudePermissions} on real git repositories. */
class ClaudeSettingsWriterTest {
    private static final String PRE = "/home/me/.paddock/bin/paddock-hook-claude --timeout 660";
    private static final String TURN = "/home/me/.paddock/bin/paddock-turn-claude";

    @TempDir
    Path tmp;

    private TempRepo repo;
    private Path worktree;
    private final ClaudeSettingsWriter writer = new ClaudeSettingsWriter(new GitCli());

    @BeforeEach
    void setUp() {
        repo = TempRepo.init(tmp.resolve("repo"));
        repo.commitFile("README.md", "hello\n", "init");
        worktree = repo.addWorktree(tmp.resolve("repo/.worktrees/s1/agent-s1"), "agent-s1");
        repo.excludeWorktreesDir();
    }

    private static ClaudeSettingsWriter.Spec spec(List<String> deny, ClaudeSandboxGrant grant) {
        return new ClaudeSettingsWriter.Spec(PRE, 660, TURN, deny, grant);
    }

    private JsonNode settings() throws Exception {
        return Json.mapper().readTree(Files.readString(worktree.resolve(ClaudeSettingsWriter.RELATIVE)));
    }

    @Test
    void writesHooksPermissionsAndSandboxAndKeepsTheFileOutOfCommits() throws Exception {
        ClaudeSettingsWriter.Result r = writer.write(
                worktree,
                spec(
                        List.of("Bash(git push:*)"),
                        new ClaudeSandboxGrant(List.of(Path.of("/repo/.git/objects")), false, List.of())));
        assertThat(r.changed()).isTrue();
        assertThat(r.keptOut()).isEqualTo(WorktreeExclude.How.EXCLUDED);

        JsonNode s = settings();
        JsonNode pre = s.path("hooks").path("PreToolUse").get(0);
        assertThat(pre.path("matcher").asText()).isEqualTo("*");
        assertThat(pre.path("hooks").get(0).toString())
                .isEqualTo(
                        "{\"type\":\"command\",\"command\":\"" + PRE + "\",\"timeout\":660,\"onFailure\":\"block\"}");
        for (String event : List.of("Stop", "Notification")) {
            assertThat(s.path("hooks")
                            .path(event)
                            .get(0)
                            .path("hooks")
                            .get(0)
                            .path("command")
                            .asText())
                    .isEqualTo(TURN);
        }
        assertThat(s.path("permissions").path("deny").toString()).isEqualTo("[\"Bash(git push:*)\"]");
        assertThat(s.path("permissions").path("defaultMode").asText()).isEqualTo("default");
        assertThat(s.path("permissions").path("disableBypassPermissionsMode").asText())
                .isEqualTo("disable");
        assertThat(s.path("permissions").has("ask")).isFalse();
        assertThat(s.path("permissions").has("allow")).isFalse();
        JsonNode sandbox = s.path("sandbox");
        assertThat(sandbox.path("enabled").asBoolean()).isTrue();
        // A call may leave Claude Code's sandbox only through the PermissionRequest hook, which is Paddock's.
        assertThat(sandbox.path("allowUnsandboxedCommands").asBoolean(false)).isTrue();
        JsonNode permission = s.path("hooks").path("PermissionRequest").get(0);
        assertThat(permission.path("matcher").asText()).isEqualTo("*");
        assertThat(permission.path("hooks").get(0).path("command").asText()).isEqualTo(PRE);
        assertThat(sandbox.path("filesystem").path("allowWrite").toString())
                .isEqualTo("[\"" + worktree.toAbsolutePath() + "\",\"/repo/.git/objects\"]");
        assertThat(sandbox.path("network").toString()).isEqualTo("{\"deniedDomains\":[\"*\"]}");

        // Not in git status, not committed by "add everything".
        assertThat(TempRepo.git(worktree, "status", "--porcelain", "--untracked-files=all"))
                .isEmpty();
        TempRepo.write(worktree, "work.txt", "agent's work\n");
        TempRepo.commitAll(worktree, "agent commit");
        assertThat(TempRepo.git(worktree, "show", "--name-only", "--format=", "HEAD")
                        .strip())
                .isEqualTo("work.txt");
        assertThat(TempRepo.git(worktree, "ls-files").lines()).doesNotContain(ClaudeSettingsWriter.RELATIVE);
        // Nothing in the worktree but the file itself: no backup, no note, no temporary file.
        try (var files = Files.list(worktree.resolve(".claude"))) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("settings.local.json");
        }
    }

    @Test
    void theUsersOwnKeysStayAndARewriteReplacesPaddocksPartOnly() throws Exception {
        TempRepo.write(worktree, ClaudeSettingsWriter.RELATIVE, """
                {"model": "opus", "env": {"FOO": "1"},
                 "permissions": {"deny": ["Read(./secrets/**)"], "allow": ["Bash(ls:*)"]},
                 "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "my-linter"}]}],
                           "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]}}
                """);
        writer.write(worktree, spec(List.of("Bash(git push:*)", "WebFetch"), null));
        ClaudeSettingsWriter.Result again = writer.write(worktree, spec(List.of("Bash(git push:*)", "WebFetch"), null));
        assertThat(again.changed())
                .as("a second write of the same changes nothing")
                .isFalse();
        // The policy lost a rule: Paddock's stale rule goes, the user's stays.
        writer.write(worktree, spec(List.of("Bash(git push:*)"), null));

        JsonNode s = settings();
        assertThat(s.path("model").asText()).isEqualTo("opus");
        assertThat(s.path("env").path("FOO").asText()).isEqualTo("1");
        assertThat(s.path("permissions").path("allow").toString()).isEqualTo("[\"Bash(ls:*)\"]");
        assertThat(s.path("permissions").path("deny").toString())
                .isEqualTo("[\"Read(./secrets/**)\",\"Bash(git push:*)\"]");
        JsonNode pre = s.path("hooks").path("PreToolUse");
        assertThat(pre).hasSize(2);
        assertThat(pre.get(0).path("hooks").get(0).path("command").asText()).isEqualTo("my-linter");
        assertThat(s.path("hooks").path("Stop")).hasSize(2);
        assertThat(s.path("hooks")
                        .path("Stop")
                        .get(0)
                        .path("hooks")
                        .get(0)
                        .path("command")
                        .asText())
                .isEqualTo("notify-send done");
        assertThat(s.has("sandbox")).isFalse();

        // Without the turn hook, Paddock's Stop entry goes and the user's stays.
        writer.write(worktree, new ClaudeSettingsWriter.Spec(PRE, 660, null, List.of(), null));
        assertThat(settings().path("hooks").path("Stop")).hasSize(1);
        assertThat(settings().path("hooks").has("Notification")).isFalse();
    }

    @Test
    void aTrackedSettingsFileIsHiddenInThisWorktreeOnly() throws Exception {
        repo.commitFile(ClaudeSettingsWriter.RELATIVE, "{\"model\": \"sonnet\"}\n", "team settings");
        Path other = repo.addWorktree(tmp.resolve("repo/.worktrees/s2/agent-s2"), "agent-s2");
        worktree = repo.addWorktree(tmp.resolve("repo/.worktrees/s3/agent-s3"), "agent-s3");

        ClaudeSettingsWriter.Result r = writer.write(worktree, spec(List.of(), null));
        assertThat(r.keptOut()).isEqualTo(WorktreeExclude.How.SKIP_WORKTREE);
        assertThat(settings().path("model").asText()).isEqualTo("sonnet");
        assertThat(TempRepo.git(worktree, "status", "--porcelain")).isEmpty();
        TempRepo.write(worktree, "a.txt", "a\n");
        TempRepo.git(worktree, "add", "-A");
        TempRepo.git(worktree, "commit", "-q", "-m", "work");
        assertThat(TempRepo.git(worktree, "show", "HEAD:" + ClaudeSettingsWriter.RELATIVE))
                .contains("sonnet")
                .doesNotContain("paddock");
        // Another worktree still sees its own changes to the file.
        TempRepo.write(other, ClaudeSettingsWriter.RELATIVE, "{}\n");
        assertThat(TempRepo.git(other, "status", "--porcelain")).contains(ClaudeSettingsWriter.RELATIVE);
    }

    @Test
    void theExcludeLineIsAddedOnceAndAnIgnoredFileIsLeftAlone() throws Exception {
        writer.write(worktree, spec(List.of(), null));
        Path second = repo.addWorktree(tmp.resolve("repo/.worktrees/s4/agent-s4"), "agent-s4");
        writer.write(second, spec(List.of(), null));
        Path exclude = repo.dir().resolve(".git/info/exclude");
        assertThat(Files.readAllLines(exclude)).containsOnlyOnce("/.claude/settings.local.json");
        assertThat(TempRepo.git(second, "status", "--porcelain", "--untracked-files=all"))
                .isEmpty();

        TempRepo fresh = TempRepo.init(tmp.resolve("ignoring"));
        fresh.commitFile(".gitignore", ".claude/\n", "ignore");
        ClaudeSettingsWriter.Result r = writer.write(fresh.dir(), spec(List.of(), null));
        assertThat(r.keptOut()).isEqualTo(WorktreeExclude.How.ALREADY_IGNORED);
        assertThat(Files.readString(fresh.dir().resolve(".git/info/exclude"))).doesNotContain("settings.local.json");
    }

    @Test
    void aFileThatIsNotJsonIsRefusedAndLeftUntouched() throws Exception {
        String broken = "{\"hooks\": {\n  \"PreToolUse\": [\n}";
        Path file = TempRepo.write(worktree, ClaudeSettingsWriter.RELATIVE, broken);
        assertThatThrownBy(() -> writer.write(worktree, spec(List.of(), null)))
                .isInstanceOf(PaddockException.class)
                .hasMessageContaining("line 3")
                .hasMessageContaining("left untouched");
        assertThat(file).hasContent(broken);
        TempRepo.write(worktree, ClaudeSettingsWriter.RELATIVE, "{\"hooks\": []}");
        assertThatThrownBy(() -> writer.write(worktree, spec(List.of(), null)))
                .hasMessageContaining("\"hooks\" is not an object");
        assertThat(file).hasContent("{\"hooks\": []}");
    }

    @Test
    void linksInTheWorktreeAreNeitherFollowedNorWrittenThrough() throws Exception {
        Path secret = TempRepo.write(tmp, "elsewhere/config.json", "{\"auths\": {\"registry\": \"s3cr3t\"}}");
        Files.createDirectories(worktree.resolve(".claude"));
        Files.createSymbolicLink(worktree.resolve(ClaudeSettingsWriter.RELATIVE), secret);
        assertThatThrownBy(() -> writer.write(worktree, spec(List.of(), null)))
                .isInstanceOf(PaddockException.class)
                .hasMessageContaining("symbolic link")
                .hasMessageNotContaining("s3cr3t");
        Files.delete(worktree.resolve(ClaudeSettingsWriter.RELATIVE));
        Files.delete(worktree.resolve(".claude"));
        Files.createSymbolicLink(worktree.resolve(".claude"), secret.getParent());
        assertThatThrownBy(() -> writer.write(worktree, spec(List.of(), null))).hasMessageContaining("symbolic link");
        assertThat(secret.getParent().resolve("settings.local.json")).doesNotExist();
        assertThat(secret).hasContent("{\"auths\": {\"registry\": \"s3cr3t\"}}");

        // The note in the worktree's git folder: a link put there is replaced, its target left alone.
        Files.delete(worktree.resolve(".claude"));
        Path gitDir = Path.of(TempRepo.git(worktree, "rev-parse", "--path-format=absolute", "--git-dir")
                .strip());
        Files.createSymbolicLink(gitDir.resolve("paddock-claude-settings.json"), secret);
        writer.write(worktree, spec(List.of("WebFetch"), null));
        assertThat(secret).hasContent("{\"auths\": {\"registry\": \"s3cr3t\"}}");
        assertThat(Files.isSymbolicLink(gitDir.resolve("paddock-claude-settings.json")))
                .isFalse();
    }

    @Test
    void onlyDenyRulesClaudeReadsTheSameWayAreCompiled() throws Exception {
        List<PolicyRule> rules = new ArrayList<>();
        for (String text : List.of(
                "Bash(git push:*)",
                "Bash(npm publish)",
                "Bash(* --force)",
                "Bash(git * --force)",
                "Read(~/.ssh/**)",
                "Edit(//etc/**)",
                "Edit(./src/**)",
                "Read(/secrets/**)",
                "WebFetch(domain:evil.test)",
                "WebFetch",
                "mcp__github",
                "Grep(foo)")) {
            rules.add(new PolicyRule(RuleParser.parse(text), RuleList.DENY, "test"));
        }
        rules.add(new PolicyRule(RuleParser.parse("Bash(git status:*)"), RuleList.ALLOW, "test"));
        rules.add(new PolicyRule(RuleParser.parse("Bash(npm install:*)"), RuleList.ASK, "test"));
        Policy policy = Policy.of(rules, Verdict.ASK, repo.dir(), Path.of("/home/me"));
        Path home = tmp.resolve("paddock-home");

        List<String> deny = ClaudePermissions.denyRules(policy, worktree, home);
        assertThat(deny)
                .containsExactly(
                        "Edit(/" + worktree.toAbsolutePath() + "/.claude/**)",
                        "Edit(/" + worktree.toAbsolutePath() + "/.paddock/**)",
                        "Edit(/" + home.toAbsolutePath() + "/**)",
                        "Read(/" + home.toAbsolutePath() + "/**)",
                        "Bash(git push:*)",
                        "Bash(npm publish)",
                        "Read(~/.ssh/**)",
                        "Edit(//etc/**)",
                        "WebFetch(domain:evil.test)",
                        "WebFetch",
                        "mcp__github");
        assertThat(ClaudePermissions.denyRules(Policy.broken("bad file", Path.of("/home/me")), worktree, null))
                .hasSize(2);
    }
}
