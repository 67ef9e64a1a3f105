package dev.paddock.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.sandbox.SandboxException;
import dev.paddock.sandbox.SandboxLayout;
import dev.paddock.sandbox.SandboxRecord;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Set;

/**
 * Gemini CLI's home ({@code GEMINI_CLI_HOME}) in a sandbox whose HOME is not the user's (namespace, container):
 * {@code <control dir>/gemini-home}, kept between runs. Gemini CLI 0.61.0 takes {@code GEMINI_CLI_HOME} as its home
 * directory: its settings are {@code $GEMINI_CLI_HOME/.gemini/settings.json}, its sessions
 * {@code $GEMINI_CLI_HOME/.gemini/tmp/<project>/chats/} with the project registry {@code projects.json} beside them,
 * so {@code --resume} finds the session of the run before.
 *
 * <p>Before each run the folder is cleared of everything but what a resumed session needs ({@link #KEPT}), and the
 * user's {@code settings.json} (from Paddock's {@code GEMINI_CLI_HOME}, else {@code ~/.gemini}) is written again:
 * the control directory is writable inside the sandbox, and Gemini reads its settings (hooks, approval mode, tools),
 * a {@code .env}, policies and extensions from its home, so whatever a run wrote there is gone before the next one.
 * A symbolic link in the folder is removed, never followed. Nothing else of the user's is copied: no Google login
 * ({@code oauth_creds.json}), no account list, no {@code .env}. When the settings choose no auth type and
 * {@code GEMINI_API_KEY} is passed through, the copy chooses {@code gemini-api-key} (the user's other keys kept);
 * without an auth type Gemini CLI says "Invalid auth method selected." and stops.
 */
final class GeminiHome {
    /** The variable Gemini CLI reads its home from. */
    static final String VARIABLE = "GEMINI_CLI_HOME";
    /** The folder's name in the control directory. */
    static final String DIR = "gemini-home";
    /** Gemini CLI's folder in its home. */
    static final String CONFIG = ".gemini";
    /** What a run leaves in {@link #CONFIG} that a follow-up needs: sessions, the project registry, checkpoints. */
    static final Set<String> KEPT = Set.of("tmp", "projects.json", "history", "installation_id");
    /** The hook event Paddock answers each tool call on. */
    static final String HOOK_EVENT = "BeforeTool";
    /** The name of Paddock's hook in the settings. */
    static final String HOOK_NAME = "paddock";
    /** The auth type chosen when the key is passed and the user's settings choose none. */
    static final String API_KEY_AUTH = "gemini-api-key";

    /** Gemini CLI's settings may hold comments and trailing commas. */
    private static final JsonMapper LENIENT = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS, JsonReadFeature.ALLOW_TRAILING_COMMA)
            .build();

    private GeminiHome() {}

    /**
     * Makes the sandbox's Gemini home, clears it of everything but {@link #KEPT}, and writes the settings.
     *
     * @param own Paddock's environment ({@code GEMINI_CLI_HOME}, {@code HOME})
     * @param apiKey whether {@code GEMINI_API_KEY} is passed through to the run
     * @return the folder (the value of {@link #VARIABLE})
     * @throws SandboxException when it cannot be made, or the user's settings cannot be read or are not JSON
     */
    static Path prepare(SandboxRecord s, SandboxLayout layout, Map<String, String> own, boolean apiKey)
            throws SandboxException {
        return prepare(s, layout, own, apiKey, null, 0);
    }

    /**
     * {@link #prepare(SandboxRecord, SandboxLayout, Map, boolean)}, with Paddock's {@code BeforeTool} hook put first in
     * the settings when {@code hookCommand} is given (the user's hooks kept after it).
     *
     * @param hookTimeoutSeconds the hook's timeout (Gemini CLI's is in milliseconds)
     */
    static Path prepare(
            SandboxRecord s,
            SandboxLayout layout,
            Map<String, String> own,
            boolean apiKey,
            String hookCommand,
            int hookTimeoutSeconds)
            throws SandboxException {
        Path home = layout.controlDir().resolve(DIR);
        Path user = userSettings(own);
        try {
            Path config = realDirectory(realDirectory(home).resolve(CONFIG));
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(home)) {
                for (Path e : entries) {
                    if (!e.getFileName().toString().equals(CONFIG)) {
                        deleteTree(e);
                    }
                }
            }
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(config)) {
                for (Path e : entries) {
                    if (!KEPT.contains(e.getFileName().toString()) || Files.isSymbolicLink(e)) {
                        deleteTree(e);
                    }
                }
            }
            byte[] settings = settings(user, apiKey, hookCommand, hookTimeoutSeconds);
            if (settings != null) {
                Path part = Files.createTempFile(
                        config,
                        "settings",
                        ".part",
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                Files.write(part, settings);
                Files.move(
                        part,
                        config.resolve("settings.json"),
                        StandardCopyOption.REPLACE_EXISTING,
                        StandardCopyOption.ATOMIC_MOVE);
            }
            return home;
        } catch (JsonProcessingException | NotSettings e) {
            String why = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
            throw new SandboxException(
                    "Cannot prepare the Gemini CLI home of " + s.id() + ": " + user
                            + " is not Gemini CLI's settings (" + why + "). Fix it, or choose the"
                            + " auth type there yourself (\"security\": {\"auth\": {\"selectedType\": \"" + API_KEY_AUTH
                            + "\"}}).",
                    e);
        } catch (IOException e) {
            throw new SandboxException(
                    "Cannot prepare the Gemini CLI home of " + s.id() + " (" + home + "): " + e.getMessage(), e);
        }
    }

    /**
     * The settings to write: the user's as they are, or with the API key's auth type added when {@code apiKey} and
     * they choose none (then a missing file gives settings of that alone); null for none.
     */
    private static byte[] settings(Path user, boolean apiKey, String hookCommand, int hookTimeoutSeconds)
            throws IOException {
        boolean exists = user != null && Files.isRegularFile(user);
        if (hookCommand != null) {
            ObjectNode root = parsed(user, exists);
            if (apiKey
                    && !root.path("security").path("auth").path("selectedType").isTextual()) {
                object(object(root, "security"), "auth").put("selectedType", API_KEY_AUTH);
            }
            JsonNode before = object(root, "hooks").get(HOOK_EVENT);
            com.fasterxml.jackson.databind.node.ArrayNode list = LENIENT.createArrayNode();
            ObjectNode ours = list.addObject().put("matcher", ".*");
            ours.putArray("hooks")
                    .addObject()
                    .put("name", HOOK_NAME)
                    .put("type", "command")
                    .put("command", hookCommand)
                    .put("timeout", hookTimeoutSeconds * 1000L);
            if (before != null && before.isArray()) {
                before.forEach(h -> list.add(h));
            } else if (before != null && !before.isNull()) {
                throw new NotSettings("\"hooks\": {\"" + HOOK_EVENT + "\"} is not a list");
            }
            ((ObjectNode) root.get("hooks")).set(HOOK_EVENT, list);
            return LENIENT.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
        }
        if (!apiKey) {
            return exists ? Files.readAllBytes(user) : null;
        }
        JsonNode read = exists ? LENIENT.readTree(Files.readAllBytes(user)) : null;
        ObjectNode root;
        if (read == null || read.isMissingNode() || read.isNull()) {
            root = LENIENT.createObjectNode();
        } else if (read instanceof ObjectNode o) {
            root = o;
        } else {
            throw new NotSettings("the file is not a JSON object");
        }
        JsonNode chosen = root.path("security").path("auth").path("selectedType");
        if (chosen.isTextual() && !chosen.asText().isBlank()) {
            return Files.readAllBytes(user);
        }
        object(object(root, "security"), "auth").put("selectedType", API_KEY_AUTH);
        return LENIENT.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
    }

    private static ObjectNode parsed(Path user, boolean exists) throws IOException {
        JsonNode read = exists ? LENIENT.readTree(Files.readAllBytes(user)) : null;
        if (read == null || read.isMissingNode() || read.isNull()) {
            return LENIENT.createObjectNode();
        }
        if (read instanceof ObjectNode o) {
            return o;
        }
        throw new NotSettings("the file is not a JSON object");
    }

    /** The object under {@code name} in {@code parent}, made when missing. */
    private static ObjectNode object(ObjectNode parent, String name) throws NotSettings {
        JsonNode n = parent.get(name);
        if (n == null || n.isNull()) {
            return parent.putObject(name);
        }
        if (n instanceof ObjectNode o) {
            return o;
        }
        throw new NotSettings("\"" + name + "\" is not a JSON object");
    }

    /** Settings that are JSON but not of the shape Gemini CLI reads. */
    private static final class NotSettings extends IOException {
        private static final long serialVersionUID = 1L;

        NotSettings(String message) {
            super(message);
        }
    }

    /** The user's {@code settings.json}: in Paddock's {@code GEMINI_CLI_HOME}, else in its HOME; null if neither. */
    static Path userSettings(Map<String, String> own) {
        String geminiHome = own.get(VARIABLE);
        if (geminiHome != null && !geminiHome.isBlank()) {
            return Path.of(geminiHome, CONFIG, "settings.json");
        }
        String home = own.get("HOME");
        return home == null || home.isBlank() ? null : Path.of(home, CONFIG, "settings.json");
    }

    /** {@code dir} as a directory of its own: a symbolic link or a file there is removed first. */
    private static Path realDirectory(Path dir) throws IOException {
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            Files.delete(dir);
        }
        return Files.createDirectories(dir);
    }

    /** Deletes {@code p} and, if it is a directory (not a link to one), what it holds; links are never followed. */
    private static void deleteTree(Path p) throws IOException {
        Files.walkFileTree(p, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
