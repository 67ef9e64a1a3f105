package dev.paddock.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loading policy files: fail-closed on any error, with file, line and column; importing Claude settings. */
class PolicyFileTest {
    @TempDir
    Path tmp;

    private Decision decideWith(Path file, String command) {
        Policy p = PolicyFile.load(List.of(file), tmp, tmp);
        return new PolicyEngine(p).decide(ToolRequest.bash(command, tmp));
    }

    @Test
    void aFileThatIsNotJsonDeniesEverythingAndSaysWhere() throws IOException {
        Path f = tmp.resolve("policy.json");
        Files.writeString(f, "{\n  \"permissions\": {\n    \"allow\": [\"Bash(ls)\",]\n  }\n}\n");

        Decision d = decideWith(f, "ls");

        assertThat(d.verdict()).isEqualTo(Verdict.DENY);
        assertThat(d.rule()).isNull();
        assertThat(d.reason())
                .startsWith("the policy cannot be used, so everything is denied until it is fixed: ")
                .contains(f + " line 3, column 26: not valid JSON");
    }

    @Test
    void aRuleThatDoesNotParseDeniesEverythingAndNamesTheRuleAndItsPlace() throws IOException {
        Path f = tmp.resolve("policy.json");
        Files.writeString(f, "{\"permissions\": {\n  \"allow\": [\"Bash(ls)\"],\n  \"deny\": [\"Bash(git push\"]\n}}");

        PolicyFile.Contents c = PolicyFile.read(f);
        assertThat(c.isSound()).isFalse();
        assertThat(c.errors())
                .containsExactly(f + " line 3, column 12: rule \"Bash(git push\": missing \")\" at" + " the end");
        Decision d = decideWith(f, "ls");
        assertThat(d.verdict()).isEqualTo(Verdict.DENY);
        assertThat(d.reason()).contains("line 3, column 12", "Bash(git push");
    }

    @Test
    void aWrongShapeIsAnErrorToo() throws IOException {
        Path f = tmp.resolve("policy.json");
        Files.writeString(f, "{\"permissions\": {\"allow\": \"Bash(ls)\", \"deny\": [42]}, \"unmatched\": \"allow\"}");

        assertThat(PolicyFile.read(f).errors())
                .containsExactly(
                        f + " line 1, column 27: \"allow\" must be a list of rule strings",
                        f + " line 1, column 48: each entry of \"deny\" must be a string such as \"Bash(npm test)\"",
                        f + " line 1, column 67: \"unmatched\" must be \"ask\" or \"deny\"");
        assertThat(decideWith(f, "ls").verdict()).isEqualTo(Verdict.DENY);
    }

    @Test
    void fixingTheFileLiftsTheDenial() throws IOException {
        Path f = tmp.resolve("policy.json");
        Files.writeString(f, "{\"permissions\": {\"allow\": [\"Bash(ls\"]}}");
        assertThat(decideWith(f, "ls").verdict()).isEqualTo(Verdict.DENY);

        Files.writeString(f, "{\"permissions\": {\"allow\": [\"Bash(ls)\"]}}");
        assertThat(decideWith(f, "ls").verdict()).isEqualTo(Verdict.ALLOW);
    }

    @Test
    void aMissingFileIsEmptyButAnUnreadableOneDenies() throws IOException {
        assertThat(PolicyFile.read(tmp.resolve("absent.json")).rules()).isEmpty();
        assertThat(decideWith(tmp.resolve("absent.json"), "ls").verdict()).isEqualTo(Verdict.ASK);

        Path dir = Files.createDirectories(tmp.resolve("policy-dir.json"));
        assertThatThrownBy(() -> PolicyFile.read(dir)).isInstanceOf(IOException.class);
        Decision d = decideWith(dir, "ls");
        assertThat(d.verdict()).isEqualTo(Verdict.DENY);
        assertThat(d.reason()).contains("cannot read " + dir);
    }

    @Test
    void otherKeysOfClaudeSettingsAreIgnored() throws IOException {
        Path f = tmp.resolve("policy.json");
        Files.writeString(f, """
                {"model": "x", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": []}]},
                 "permissions": {"defaultMode": "acceptEdits", "additionalDirectories": ["../x"],
                                 "allow": ["Bash(ls)"], "deny": ["Read(./.env)"]},
                 "env": {"A": "1"}}""");

        PolicyFile.Contents c = PolicyFile.read(f);
        assertThat(c.errors()).isEmpty();
        assertThat(c.rules())
                .extracting(PolicyRule::describe)
                .containsExactly("deny rule Read(./.env) from " + f, "allow rule Bash(ls) from " + f);
    }

    @Test
    void importFromClaudeSettingsKeepsValidRulesAndListsTheSkippedOnes() throws Exception {
        Path settings = Files.createDirectories(tmp.resolve(".claude")).resolve("settings.json");
        Files.writeString(settings, """
                {
                  "permissions": {
                    "allow": ["Bash(npm run test:*)", "Read(.env:*)", "WebSearch"],
                    "ask": ["Bash(git push:*)"],
                    "deny": ["Read(./.env)", "bash(rm -rf:*)"]
                  }
                }
                """);

        ClaudeSettingsImport.Imported imported = ClaudeSettingsImport.read(settings);

        assertThat(imported.list(RuleList.ALLOW)).containsExactly("Bash(npm run test:*)", "WebSearch");
        assertThat(imported.list(RuleList.ASK)).containsExactly("Bash(git push:*)");
        assertThat(imported.list(RuleList.DENY)).containsExactly("Read(./.env)");
        assertThat(imported.skipped())
                .containsExactly(
                        "line 3, column 39: rule \"Read(.env:*)\": `:*` is for Bash rules; a path rule takes a"
                                + " gitignore-style pattern such as ./.env, ./.env.* or ./secrets/**",
                        "line 5, column 30: rule \"bash(rm -rf:*)\": unknown tool \"bash\": tool names are case-sensitive;"
                                + " did you mean \"Bash\"?");
    }

    @Test
    void importOfACorruptSettingsFileFailsWithLineAndColumn() throws IOException {
        Path settings = tmp.resolve("settings.json");
        Files.writeString(settings, "{\n \"permissions\": {\"allow\": [\"Bash\" \"Read\"]}\n}");

        assertThatThrownBy(() -> ClaudeSettingsImport.read(settings))
                .isInstanceOf(PolicyFileException.class)
                .hasMessageStartingWith(settings + " line 2, column 35: not valid JSON");
    }
}
