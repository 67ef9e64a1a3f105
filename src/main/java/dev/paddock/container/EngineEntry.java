package dev.paddock.container;

import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A Docker engine registered by name ({@link EngineRegistry}): an address with its TLS folder, or a docker context.
 * The engine named {@value #LOCAL} is implicit: the one the docker CLI would use ({@link DockerEndpoint#current()}).
 *
 * @param name its name, unique in the registry ({@link #NAME})
 * @param host {@code tcp://host:2376} (or {@code unix:///path}), or null for a context
 * @param tlsDir the folder of {@code ca.pem}, {@code cert.pem}, {@code key.pem}, or null
 * @param context a docker context's name, or null when {@code host} is given
 * @param labels what placement filters by ({@code --engine-label k=v})
 */
public record EngineEntry(String name, String host, Path tlsDir, String context, Map<String, String> labels) {
    /** The implicit engine: the docker CLI's choice, as before engines could be registered. */
    public static final String LOCAL = "local";

    /** What a name may look like: lower-case letters, digits, dot, dash and underscore, up to 40. */
    public static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,39}");

    public EngineEntry {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }

    /** The implicit local engine. */
    public static EngineEntry local() {
        return new EngineEntry(LOCAL, null, null, null, Map.of());
    }

    /** Whether this is the implicit engine (the docker CLI's choice). */
    public boolean isLocal() {
        return LOCAL.equals(name);
    }

    /**
     * Whether the engine runs on another machine, so it cannot bind-mount this machine's folders (a sandbox's
     * worktree, its control directory): true for every {@code tcp://} engine, whether by address or by context. The
     * one place that decides it; a sandbox on such an engine needs its worktree delivered another way.
     */
    public boolean isRemote() {
        if (isLocal()) {
            return false;
        }
        String h = host != null ? host : endpoint().host();
        return !h.startsWith("unix://") && !h.startsWith("npipe://");
    }

    /** Where to reach it: the given address with its TLS folder, the context's, or the docker CLI's choice. */
    public DockerEndpoint endpoint() {
        if (isLocal()) {
            return DockerEndpoint.current();
        }
        if (host != null) {
            return new DockerEndpoint(host, "engine " + name, tlsDir, null);
        }
        DockerEndpoint c = DockerEndpoint.ofContext(System.getenv(), Path.of(System.getProperty("user.home")), context);
        return new DockerEndpoint(c.host(), "engine " + name + ", context " + context, c.tlsDir(), c.problem());
    }

    /** Whether it carries every one of {@code wanted}'s labels with the same value. */
    public boolean hasLabels(Map<String, String> wanted) {
        return labels.entrySet().containsAll(wanted.entrySet());
    }

    /** "tcp://10.0.0.2:2376", "context build", or "docker CLI's choice" for the list. */
    public String where() {
        return isLocal() ? "docker CLI's choice" : host != null ? host : "context " + context;
    }
}
