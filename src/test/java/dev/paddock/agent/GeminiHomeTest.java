package dev.paddock.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.sandbox.SandboxException;
import dev.paddock.sandbox.SandboxLayout;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.Tier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link GeminiHome} on real folders: the user's settings copied (the API key's auth type added when they choose
 * none), nothing secret copied, and nothing a run wrote in the home left for the next run but its sessions.
 */
class GeminiHomeTest {
    @TempDir
    Path tmp;

    private SandboxLayout layout;
    private SandboxRecord sandbox;
    private Path user;

    @BeforeEach
    void setUp() throws Exception {
        layout = new SandboxLayout(tmp.resolve("repo"), "s-1", "agent/s-1");
        Files.createDirectories(layout.controlDir());
        user = Files.createDirectories(tmp.resolve("user").resolve(".gemini"));
        Instant now = Instant.now();
        sandbox = SandboxRecord.builder()
                .id("s-1")
                .repositoryId(1)
                .task("t")
                .agentCommand("gemini")
                .tier(Tier.NAMESPACE)
                .agent("gemini")
                .branch("agent/s-1")
                .baseBranch("main")
                .baseCommit("0")
                .worktreePath(layout.worktree().toString())
                .state(SandboxState.PENDING)
                .createdAt(now)
                .stateChangedAt(now)
                .leaseMs(60_000)
                .build();
    }

    private Path prepare(boolean apiKey) throws SandboxException {
        return GeminiHome.prepare(
                sandbox, layout, Map.of("HOME", tmp.resolve("user").toString()), apiKey);
    }

    private static JsonNode settingsIn(Path home) throws Exception {
        return Json.mapper()
                .readTree(home.resolve(".gemini").resolve("settings.json").toFile());
    }

    @Test
    void paddocksBeforeToolHookComesFirstAndTheUsersHooksStayAfterIt() throws Exception {
        Files.writeString(
                user.resolve("settings.json"),
                "{\"hooks\": {\"BeforeTool\": [{\"matcher\":"
                        + " \"run_shell_command\", \"hooks\": [{\"type\": \"command\", \"command\": \"my-linter\"}]}],"
                        + " \"AfterAgent\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"notify\"}]}]}}");
        Path home = GeminiHome.prepare(
                sandbox,
                layout,
                Map.of("HOME", tmp.resolve("user").toString()),
                true,
                "/run/paddock/bin/paddock-hook-claude --timeout 660",
                660);
        JsonNode s = settingsIn(home);
        JsonNode before = s.at("/hooks/BeforeTool");
        assertThat(before).hasSize(2);
        assertThat(before.get(0).path("matcher").asText()).isEqualTo(".*");
        assertThat(before.get(0).at("/hooks/0/command").asText())
                .isEqualTo("/run/paddock/bin/paddock-hook-claude --timeout 660");
        assertThat(before.get(0).at("/hooks/0/timeout").asLong())
                .as("milliseconds")
                .isEqualTo(660_000L);
        assertThat(before.get(1).at("/hooks/0/command").asText()).isEqualTo("my-linter");
        assertThat(s.at("/hooks/AfterAgent/0/hooks/0/command").asText()).isEqualTo("notify");
        assertThat(s.at("/security/auth/selectedType").asText()).isEqualTo("gemini-api-key");

        // A run that rewrote its settings (no hook of Paddock's) gets them back before the next run.
        Files.writeString(home.resolve(".gemini").resolve("settings.json"), "{\"hooks\": {}}");
        GeminiHome.prepare(
                sandbox,
                layout,
                Map.of("HOME", tmp.resolve("user").toString()),
                true,
                "/run/paddock/bin/paddock-hook-claude --timeout 660",
                660);
        assertThat(settingsIn(home).at("/hooks/BeforeTool/0/hooks/0/command").asText())
                .contains("paddock-hook");
    }

    @Test
    void theKeysAuthTypeIsAddedToACopyOfTheUsersSettingsKeepingTheirOtherKeys() throws Exception {
        Files.writeString(
                user.resolve("settings.json"),
                "{\n  // mine\n  \"model\": {\"name\": \"gemini-9\"},\n"
                        + "  \"security\": {\"folderTrust\": {\"enabled\": true}},\n}\n");
        Files.writeString(user.resolve("oauth_creds.json"), "{\"refresh_token\":\"SECRET\"}");
        Files.writeString(user.resolve("google_accounts.json"), "{\"active\":\"me@example.com\"}");
        Files.writeString(user.resolve(".env"), "GEMINI_API_KEY=SECRET");

        Path home = prepare(true);
        assertThat(home).isEqualTo(layout.controlDir().resolve("gemini-home"));
        JsonNode s = settingsIn(home);
        assertThat(s.at("/security/auth/selectedType").asText()).isEqualTo("gemini-api-key");
        assertThat(s.at("/model/name").asText()).isEqualTo("gemini-9");
        assertThat(s.at("/security/folderTrust/enabled").asBoolean()).isTrue();
        try (Stream<Path> files = Files.walk(home)) {
            assertThat(files.filter(Files::isRegularFile)
                            .map(p -> home.relativize(p).toString()))
                    .containsExactly(".gemini/settings.json");
        }
        // The user's own file is left as it was.
        assertThat(Files.readString(user.resolve("settings.json")))
                .contains("// mine")
                .doesNotContain("auth");
    }

    @Test
    void anAuthTypeOfTheUsersIsKeptAndWithoutTheKeyTheSettingsAreCopiedAsTheyAre() throws Exception {
        String chosen = "{\"security\": {\"auth\": {\"selectedType\": \"vertex-ai\"}}} // theirs\n";
        Files.writeString(user.resolve("settings.json"), chosen);
        assertThat(settingsIn(prepare(true)).at("/security/auth/selectedType").asText())
                .isEqualTo("vertex-ai");
        Files.writeString(user.resolve("settings.json"), "{\"ui\": {\"theme\": \"x\"}} // no auth\n");
        assertThat(prepare(false).resolve(".gemini/settings.json"))
                .hasContent("{\"ui\": {\"theme\": \"x\"}} // no auth");

        // No settings of the user's: the key's auth type alone, or no file at all.
        Files.delete(user.resolve("settings.json"));
        assertThat(settingsIn(prepare(true)).toString())
                .isEqualTo("{\"security\":{\"auth\":{\"selectedType\":" + "\"gemini-api-key\"}}}");
        assertThat(prepare(false).resolve(".gemini/settings.json")).doesNotExist();
    }

    @Test
    void paddocksOwnGeminiCliHomeIsWhereTheUsersSettingsAreRead() throws Exception {
        Path other = Files.createDirectories(tmp.resolve("elsewhere").resolve(".gemini"));
        Files.writeString(other.resolve("settings.json"), "{\"model\": {\"name\": \"from-gemini-cli-home\"}}");
        Files.writeString(user.resolve("settings.json"), "{\"model\": {\"name\": \"from-home\"}}");
        Path home = GeminiHome.prepare(
                sandbox,
                layout,
                Map.of(
                        "HOME",
                        tmp.resolve("user").toString(),
                        "GEMINI_CLI_HOME",
                        tmp.resolve("elsewhere").toString()),
                true);
        assertThat(settingsIn(home).at("/model/name").asText()).isEqualTo("from-gemini-cli-home");
    }

    /**
     * The control directory is writable inside the sandbox: what a run wrote in the home (settings that widen its
     * approval mode or add a hook, a .env, policies, extensions) is gone before the next run; its sessions stay.
     */
    @Test
    void whatARunWroteInTheHomeIsGoneBeforeTheNextRunButItsSessionsStay() throws Exception {
        Files.writeString(user.resolve("settings.json"), "{\"model\": {\"name\": \"gemini-9\"}}");
        Path home = prepare(true);
        Path config = home.resolve(".gemini");
        Path chat = Files.createDirectories(config.resolve("tmp/repo/chats")).resolve("session-1.json");
        Files.writeString(chat, "{\"sessionId\":\"abc\"}");
        Files.writeString(config.resolve("projects.json"), "{\"projects\":{}}");
        Files.writeString(
                config.resolve("settings.json"),
                "{\"general\":{\"defaultApprovalMode\":\"yolo\"},"
                        + "\"hooks\":{\"BeforeTool\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"true\"}]}]}}");
        Files.writeString(config.resolve(".env"), "GEMINI_YOLO=1");
        Files.writeString(home.resolve(".env"), "GEMINI_YOLO=1");
        Files.createDirectories(config.resolve("policies"))
                .resolve("allow.toml")
                .toFile()
                .createNewFile();
        Files.createDirectories(config.resolve("extensions/evil"));
        Files.createDirectories(home.resolve(".config"));

        prepare(true);
        assertThat(chat).hasContent("{\"sessionId\":\"abc\"}");
        assertThat(config.resolve("projects.json")).exists();
        JsonNode s = settingsIn(home);
        assertThat(s.has("hooks")).isFalse();
        assertThat(s.has("general")).isFalse();
        assertThat(s.at("/model/name").asText()).isEqualTo("gemini-9");
        try (Stream<Path> entries = Files.list(config)) {
            assertThat(entries.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("tmp", "projects.json", "settings.json");
        }
        try (Stream<Path> entries = Files.list(home)) {
            assertThat(entries.map(p -> p.getFileName().toString())).containsExactly(".gemini");
        }
    }

    /** A link a run left where the home or its folders are is removed, never followed, on the host. */
    @Test
    void aSymbolicLinkInTheHomeIsRemovedNeverFollowed() throws Exception {
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("keep.txt"), "mine");
        Path home = layout.controlDir().resolve("gemini-home");
        Files.createSymbolicLink(home, outside);
        prepare(true);
        assertThat(Files.isSymbolicLink(home)).isFalse();
        assertThat(outside.resolve("keep.txt")).hasContent("mine");
        assertThat(outside.resolve(".gemini")).doesNotExist();

        Path config = home.resolve(".gemini");
        Files.writeString(Files.createDirectories(outside.resolve("tmp")).resolve("keep.txt"), "mine too");
        deleteConfig(config);
        Files.createSymbolicLink(config, outside);
        prepare(true);
        assertThat(Files.isSymbolicLink(config)).isFalse();
        assertThat(outside.resolve("keep.txt")).hasContent("mine");
        assertThat(outside.resolve("tmp/keep.txt")).hasContent("mine too");
        assertThat(outside.resolve("settings.json")).doesNotExist();

        Files.createSymbolicLink(config.resolve("tmp"), outside);
        Files.delete(config.resolve("settings.json"));
        Files.createSymbolicLink(config.resolve("settings.json"), outside.resolve("keep.txt"));
        prepare(true);
        assertThat(Files.exists(config.resolve("tmp"), java.nio.file.LinkOption.NOFOLLOW_LINKS))
                .isFalse();
        assertThat(Files.isSymbolicLink(config.resolve("settings.json"))).isFalse();
        assertThat(outside.resolve("keep.txt")).hasContent("mine");
        assertThat(outside.resolve("tmp/keep.txt")).hasContent("mine too");
    }

    @Test
    void settingsThatAreNotJsonGiveAClearErrorAndAreLeftAsTheyWere() throws Exception {
        Files.writeString(user.resolve("settings.json"), "{\"model\": ");
        assertThatThrownBy(() -> prepare(true))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("Cannot prepare the Gemini CLI home of s-1")
                .hasMessageContaining(user.resolve("settings.json").toString())
                .hasMessageContaining("\"selectedType\": \"gemini-api-key\"");
        Files.writeString(user.resolve("settings.json"), "{\"security\": \"open\"}");
        assertThatThrownBy(() -> prepare(true))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("\"security\" is not a JSON object");
        assertThat(user.resolve("settings.json")).hasContent("{\"security\": \"open\"}");
        // Without the key Paddock adds nothing, so it reads nothing: Gemini CLI judges its own settings.
        assertThat(prepare(false).resolve(".gemini/settings.json")).hasContent("{\"security\": \"open\"}");
    }

    private static void deleteConfig(Path config) throws Exception {
        try (Stream<Path> walk = Files.walk(config)) {
            walk.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        }
    }
}
