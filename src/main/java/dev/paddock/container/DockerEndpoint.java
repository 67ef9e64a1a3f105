package dev.paddock.container;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * Which Docker engine to talk to, chosen the way the docker CLI chooses it, so that a person's
 * {@code docker context use remote} or {@code DOCKER_HOST=tcp://...} also moves Paddock to that engine.
 *
 * <p>Order, as the docker CLI resolves it ({@code cli/command/cli.go}, {@code resolveContextName}: the
 * {@code --context} flag, then {@code -H}, then the {@code DOCKER_HOST} variable "for backward compatibility
 * with existing scripts", then {@code DOCKER_CONTEXT}, then the config file's {@code currentContext}; and the
 * CLI reference for {@code docker context use}: the current context is used "when DOCKER_HOST, DOCKER_CONTEXT
 * environment variables and --host, --context global options aren't set"): a non-empty {@code DOCKER_HOST}
 * wins and no context is read; else {@code DOCKER_CONTEXT}; else {@code currentContext} in {@code $DOCKER_CONFIG/config.json} (default
 * {@code ~/.docker/config.json}); the context named {@code default} (or none) is the local socket
 * {@value #DEFAULT_HOST}. A named context's endpoint is {@code Endpoints.docker.Host} of
 * {@code <config dir>/contexts/meta/<sha256 hex of the name>/meta.json}; its TLS files, when it has any, are in
 * {@code <config dir>/contexts/tls/<same hash>/docker/} (ca.pem, cert.pem, key.pem).
 *
 * @param host the engine's address ({@code unix:///...}, {@code tcp://host:port}, {@code npipe://...},
 *     {@code ssh://...})
 * @param source where it came from, for people: {@code "DOCKER_HOST"}, {@code "context remote"},
 *     {@code "default socket"}
 * @param tlsDir folder with the context's TLS files, or null (then docker-java's {@code DOCKER_TLS_VERIFY} /
 *     {@code DOCKER_CERT_PATH} rules apply)
 * @param problem why the chosen context cannot be used (missing or unreadable meta.json, no docker endpoint),
 *     else null; {@link #host} is then the default socket and Paddock says what is wrong
 */
public record DockerEndpoint(String host, String source, Path tlsDir, String problem) {
    /** The local engine's socket on Linux and macOS. */
    public static final String DEFAULT_HOST = "unix:///var/run/docker.sock";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The endpoint for this process: its environment and {@code user.home}. */
    public static DockerEndpoint current() {
        return resolve(System.getenv(), Path.of(System.getProperty("user.home")));
    }

    /**
     * Applies the docker CLI's rules to {@code env} and the files under {@code home}. Never throws: a broken
     * context is a {@link #problem}.
     *
     * @param env environment variables ({@code DOCKER_HOST}, {@code DOCKER_CONTEXT}, {@code DOCKER_CONFIG})
     * @param home the user's home folder ({@code ~/.docker} is read from there unless {@code DOCKER_CONFIG} is set)
     */
    public static DockerEndpoint resolve(Map<String, String> env, Path home) {
        String dockerHost = env.get("DOCKER_HOST");
        if (dockerHost != null && !dockerHost.isBlank()) {
            return new DockerEndpoint(dockerHost.strip(), "DOCKER_HOST", null, null);
        }
        String configDirEnv = env.get("DOCKER_CONFIG");
        Path configDir =
                configDirEnv != null && !configDirEnv.isBlank() ? Path.of(configDirEnv) : home.resolve(".docker");
        String context = env.get("DOCKER_CONTEXT");
        String from = "DOCKER_CONTEXT";
        if (context == null || context.isBlank()) {
            try {
                context = currentContext(configDir.resolve("config.json"));
            } catch (IOException e) {
                return fallback("cannot read " + configDir.resolve("config.json") + ": " + e.getMessage());
            }
            from = "config.json";
        }
        if (context == null || context.isBlank() || context.strip().equals("default")) {
            return new DockerEndpoint(DEFAULT_HOST, "default socket", null, null);
        }
        return fromContext(configDir, context.strip(), from);
    }

    private static String currentContext(Path configJson) throws IOException {
        if (!Files.isRegularFile(configJson)) {
            return null;
        }
        JsonNode node = JSON.readTree(Files.readString(configJson, StandardCharsets.UTF_8));
        JsonNode current = node == null ? null : node.get("currentContext");
        return current == null || !current.isTextual() ? null : current.asText();
    }

    /**
     * The endpoint of the docker context {@code name} (its host and TLS files), read as {@link #resolve} reads the
     * current one; a context that does not exist or cannot be read is a {@link #problem}.
     */
    public static DockerEndpoint ofContext(Map<String, String> env, Path home, String name) {
        String configDirEnv = env.get("DOCKER_CONFIG");
        Path configDir =
                configDirEnv != null && !configDirEnv.isBlank() ? Path.of(configDirEnv) : home.resolve(".docker");
        if (name.strip().equals("default")) {
            return new DockerEndpoint(DEFAULT_HOST, "context default", null, null);
        }
        return fromContext(configDir, name.strip(), "--context");
    }

    private static DockerEndpoint fromContext(Path configDir, String name, String from) {
        String hash = sha256(name);
        Path meta = configDir.resolve("contexts").resolve("meta").resolve(hash).resolve("meta.json");
        String label = "context " + name + " (from " + from + ")";
        if (!Files.isRegularFile(meta)) {
            return fallback("the docker " + label + " does not exist: no " + meta);
        }
        JsonNode host;
        try {
            JsonNode root = JSON.readTree(Files.readString(meta, StandardCharsets.UTF_8));
            host = root == null ? null : root.at("/Endpoints/docker/Host");
        } catch (IOException e) {
            return fallback("cannot read the docker " + label + " in " + meta + ": " + e.getMessage());
        }
        if (host == null || !host.isTextual() || host.asText().isBlank()) {
            return fallback("the docker " + label + " has no Endpoints.docker.Host in " + meta);
        }
        Path tls = configDir.resolve("contexts").resolve("tls").resolve(hash).resolve("docker");
        return new DockerEndpoint(host.asText().strip(), "context " + name, Files.isDirectory(tls) ? tls : null, null);
    }

    private static DockerEndpoint fallback(String problem) {
        return new DockerEndpoint(DEFAULT_HOST, "default socket", null, problem);
    }

    /** The lower-case hex SHA-256 of a context name: the name of its folder under {@code contexts/meta}. */
    static String sha256(String name) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /** "tcp://build:2376 (context remote)", for the status bar and messages. */
    public String describe() {
        return host + " (" + source + ")";
    }
}
