package dev.paddock.cli;

import static dev.paddock.cli.StatusCommandTest.paddock;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.approval.HookScript;
import dev.paddock.cli.StatusCommandTest.Run;
import dev.paddock.common.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code paddock hook install}: merges into a real {@code .claude/settings.json} without clobbering it. */
class HookInstallTest {
    private static final String USERS = """
            {
              "permissions": {"allow": ["Bash(npm test)"]},
              "hooks": {
                "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./lint.sh"}]}],
                "PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "prettier"}]}]
              },
              "model": "opus"
            }
            """;

    @TempDir
    Path tmp;

    @Test
    void installMergesTheHookKeepingTheUsersContentAndABackup() throws Exception {
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        Path settings = Files.createDirectories(repo.resolve(".claude")).resolve("settings.json");
        Files.writeString(settings, USERS);

        Run r = paddock("--home", tmp.resolve("home").toString(), "hook", "install", "--repo", repo.toString());

        assertThat(r.exit()).as(r.describe()).isZero();
        JsonNode s = Json.mapper().readTree(settings.toFile());
        assertThat(s.get("model").asText()).isEqualTo("opus");
        assertThat(s.at("/permissions/allow/0").asText()).isEqualTo("Bash(npm test)");
        assertThat(s.at("/hooks/PostToolUse/0/hooks/0/command").asText()).isEqualTo("prettier");
        assertThat(s.at("/hooks/PreToolUse/0/hooks/0/command").asText()).isEqualTo("./lint.sh");
        JsonNode ours = s.at("/hooks/PreToolUse/1");
        assertThat(ours.get("matcher").asText()).isEqualTo("*");
        assertThat(ours.at("/hooks/0/type").asText()).isEqualTo("command");
        Path script = HookScript.path(tmp.resolve("home").toAbsolutePath());
        assertThat(ours.at("/hooks/0/command").asText()).isEqualTo(script + " --timeout 660");
        assertThat(ours.at("/hooks/0/timeout").asInt()).isEqualTo(660);
        assertThat(script).isExecutable();
        assertThat(settings.resolveSibling("settings.json.bak")).hasContent(USERS);
    }

    @Test
    void installingTwiceChangesNothing() throws Exception {
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        String home = tmp.resolve("home").toString();
        paddock("--home", home, "hook", "install", "--repo", repo.toString());
        Path settings = repo.resolve(".claude/settings.json");
        String first = Files.readString(settings);

        Run again = paddock("--home", home, "hook", "install", "--repo", repo.toString());

        assertThat(again.exit()).as(again.describe()).isZero();
        assertThat(again.out()).contains("already installed");
        assertThat(settings).hasContent(first);
        assertThat(settings.resolveSibling("settings.json.bak")).doesNotExist();
        Run longer = paddock("--home", home, "hook", "install", "--repo", repo.toString(), "--timeout", "1300");
        assertThat(longer.exit()).isZero();
        JsonNode s = Json.mapper().readTree(settings.toFile());
        assertThat(s.at("/hooks/PreToolUse")).hasSize(1);
        assertThat(s.at("/hooks/PreToolUse/0/hooks/0/timeout").asInt()).isEqualTo(1300);
    }

    @Test
    void theHooksTimeoutFollowsTheApprovalTimeoutWithAMinuteToSpare() throws Exception {
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        String home = tmp.resolve("home").toString();
        Run set = paddock("--home", home, "config", "set", "approval.timeoutMs", "1800000");
        assertThat(set.exit()).as(set.describe()).isZero();

        Run r = paddock("--home", home, "hook", "install", "--repo", repo.toString());

        assertThat(r.exit()).as(r.describe()).isZero();
        assertThat(r.out()).contains("(timeout 1860 s)");
        JsonNode s =
                Json.mapper().readTree(repo.resolve(".claude/settings.json").toFile());
        assertThat(s.at("/hooks/PreToolUse/0/hooks/0/timeout").asInt()).isEqualTo(1860);
        assertThat(s.at("/hooks/PreToolUse/0/hooks/0/command").asText()).endsWith("paddock-hook-claude --timeout 1860");
    }

    @Test
    void anEntryWrittenWithoutTheTimeoutArgumentIsUpdatedInPlace() throws Exception {
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        Path script = HookScript.path(tmp.resolve("home").toAbsolutePath());
        Path settings = Files.createDirectories(repo.resolve(".claude")).resolve("settings.json");
        Files.writeString(
                settings,
                "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"*\", \"hooks\": [{\"type\":"
                        + " \"command\", \"command\": \"" + script + "\", \"timeout\": 660}]}]}}");

        Run r = paddock("--home", tmp.resolve("home").toString(), "hook", "install", "--repo", repo.toString());

        assertThat(r.exit()).as(r.describe()).isZero();
        JsonNode s = Json.mapper().readTree(settings.toFile());
        assertThat(s.at("/hooks/PreToolUse")).hasSize(1);
        assertThat(s.at("/hooks/PreToolUse/0/hooks")).hasSize(1);
        assertThat(s.at("/hooks/PreToolUse/0/hooks/0/command").asText()).isEqualTo(script + " --timeout 660");
    }

    @Test
    void aCorruptSettingsFileIsRefusedWithLineAndColumnAndLeftUntouched() throws Exception {
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        Path settings = Files.createDirectories(repo.resolve(".claude")).resolve("settings.json");
        String corrupt = "{\n  \"hooks\": {\n    \"PreToolUse\": [,]\n  }\n}\n";
        Files.writeString(settings, corrupt);

        Run r = paddock("--home", tmp.resolve("home").toString(), "hook", "install", "--repo", repo.toString());

        assertThat(r.exit()).as(r.describe()).isEqualTo(1);
        assertThat(r.err())
                .contains(settings.toString())
                .contains("line 3, column")
                .contains("left untouched");
        assertThat(settings).hasContent(corrupt);
        assertThat(settings.resolveSibling("settings.json.bak")).doesNotExist();
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(
            delimiter = '|',
            value = {
                "{\"a\": 1,}                 | line 1, column 9  | a name in double quotes",
                "{\"hooks\": {               | line 1, column 12 | ends before",
                "not json                    | line 1, column 1  | 'not'",
                "{\"a\": 1} and more         | line 1, column 10 | more text after",
                "{\"a\": [1, 2 \"b\"]}        | line 1, column 13 | a comma",
            })
    void anyInvalidSettingsFileIsNamedInPlainWordsAndNothingChanges(String corrupt, String where, String why)
            throws Exception {
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        Path settings = Files.createDirectories(repo.resolve(".claude")).resolve("settings.json");
        Files.writeString(settings, corrupt);

        Run r = paddock("--home", tmp.resolve("home").toString(), "hook", "install", "--repo", repo.toString());

        assertThat(r.exit()).as(r.describe()).isEqualTo(1);
        assertThat(r.err())
                .contains(settings + " is not valid JSON at " + where)
                .contains(why)
                .contains("left untouched");
        assertThat(r.err())
                .as("no parser internals")
                .doesNotContain("code ")
                .doesNotContain("Source")
                .doesNotContain("REDACTED")
                .doesNotContain("marker")
                .doesNotContain("Feature")
                .doesNotContain("token");
        assertThat(settings).hasContent(corrupt);
        assertThat(settings.resolveSibling("settings.json.bak")).doesNotExist();
    }
}
