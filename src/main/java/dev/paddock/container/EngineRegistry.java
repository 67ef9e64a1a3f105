package dev.paddock.container;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.common.PrivateFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Docker engines Paddock may place container sandboxes on, kept in a small JSON file of the Paddock home
 * ({@value #FILE}): each by name, with an address and TLS folder or a docker context, and labels. The engine
 * {@value EngineEntry#LOCAL} is always there and never written: the one the docker CLI would use. The file is read
 * on every call (a CLI process adds, the running Paddock sees it on its next look) and replaced whole on a change.
 */
public final class EngineRegistry {
    /** The registry's file name in the Paddock home. */
    public static final String FILE = "engines.json";

    /** What ssh:// gets: docker-java has no ssh transport. */
    static final String NO_SSH = "Paddock's Docker client (docker-java) has no ssh:// transport. Make the engine"
            + " listen on tcp://HOST:2376 with TLS and give --host tcp://HOST:2376 --tls-dir DIR, or a docker context"
            + " over TLS with --context NAME.";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> TLS_FILES = List.of("ca.pem", "cert.pem", "key.pem");

    private final Path file;

    /** @param file the registry's JSON file (it need not exist yet) */
    public EngineRegistry(Path file) {
        this.file = file;
    }

    /** The registry of the Paddock home {@code homeDir}. */
    public static EngineRegistry in(Path homeDir) {
        return new EngineRegistry(homeDir.resolve(FILE));
    }

    /**
     * Every engine: {@value EngineEntry#LOCAL} first, then the registered ones in the order they were added.
     *
     * @throws ContainerException when the file cannot be read or is not a registry
     */
    public List<EngineEntry> all() throws ContainerException {
        List<EngineEntry> out = new ArrayList<>();
        out.add(EngineEntry.local());
        out.addAll(registered());
        return out;
    }

    /** The engine named {@code name}, or empty. */
    public Optional<EngineEntry> find(String name) throws ContainerException {
        return all().stream().filter(e -> e.name().equals(name)).findFirst();
    }

    /**
     * The engine named {@code name}.
     *
     * @throws ContainerException when there is none (the message names the known ones)
     */
    public EngineEntry require(String name) throws ContainerException {
        List<EngineEntry> all = all();
        return all.stream()
                .filter(e -> e.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new ContainerException("No Docker engine named " + name + "; known: "
                        + String.join(", ", all.stream().map(EngineEntry::name).toList()) + "."));
    }

    /**
     * Registers an engine after checking what can be checked without reaching it: the name, the address (no
     * {@code ssh://}), the TLS folder and its three files, the context.
     *
     * @throws ContainerException with a one-line reason when it is refused
     */
    public synchronized EngineEntry add(EngineEntry entry) throws ContainerException {
        EngineEntry checked = validate(entry);
        List<EngineEntry> list = new ArrayList<>(registered());
        if (checked.isLocal() || list.stream().anyMatch(e -> e.name().equals(checked.name()))) {
            throw new ContainerException("An engine named " + checked.name() + " exists already"
                    + (checked.isLocal() ? " (the docker CLI's choice)." : "; remove it first."));
        }
        list.add(checked);
        write(list);
        return checked;
    }

    /**
     * Forgets the engine {@code name} (its containers are left alone).
     *
     * @throws ContainerException when there is none, or it is {@value EngineEntry#LOCAL}
     */
    public synchronized void remove(String name) throws ContainerException {
        if (EngineEntry.LOCAL.equals(name)) {
            throw new ContainerException("The engine local is the docker CLI's choice and cannot be removed.");
        }
        List<EngineEntry> list = new ArrayList<>(registered());
        if (!list.removeIf(e -> e.name().equals(name))) {
            require(name); // says which exist
        }
        write(list);
    }

    static EngineEntry validate(EngineEntry e) throws ContainerException {
        if (e.name() == null || !EngineEntry.NAME.matcher(e.name()).matches()) {
            throw new ContainerException("Engine name " + (e.name() == null ? "(none)" : "'" + e.name() + "'")
                    + " is not usable: lower-case letters, digits, '.', '-' and '_', up to 40, first a letter or"
                    + " digit.");
        }
        if ((e.host() == null) == (e.context() == null)) {
            throw new ContainerException("Give the engine " + e.name() + " either --host tcp://HOST:2376 with"
                    + " --tls-dir DIR, or --context NAME.");
        }
        if (e.host() != null) {
            String h = e.host().strip();
            if (h.startsWith("ssh://")) {
                throw new ContainerException(NO_SSH);
            }
            if (h.startsWith("tcp://")) {
                if (e.tlsDir() == null) {
                    throw new ContainerException("An engine on tcp:// needs --tls-dir DIR (ca.pem, cert.pem, key.pem):"
                            + " Paddock does not talk to a Docker engine without TLS.");
                }
            } else if (!h.startsWith("unix://")) {
                throw new ContainerException("Engine address " + h
                        + " is not usable: give tcp://HOST:2376 (with --tls-dir) or unix:///PATH.");
            }
            Path tls = e.tlsDir() == null ? null : e.tlsDir().toAbsolutePath().normalize();
            if (tls != null) {
                checkTlsDir(tls);
            }
            return new EngineEntry(e.name(), h, tls, null, e.labels());
        }
        if (e.tlsDir() != null) {
            throw new ContainerException("--tls-dir goes with --host; a context has its own TLS files.");
        }
        DockerEndpoint c = new EngineEntry(e.name(), null, null, e.context(), e.labels()).endpoint();
        if (c.problem() != null) {
            throw new ContainerException(c.problem());
        }
        if (c.host().startsWith("ssh://")) {
            throw new ContainerException("The docker context " + e.context() + " is on " + c.host() + ". " + NO_SSH);
        }
        return new EngineEntry(e.name(), null, null, e.context().strip(), e.labels());
    }

    private static void checkTlsDir(Path tls) throws ContainerException {
        if (!Files.isDirectory(tls)) {
            throw new ContainerException("TLS folder " + tls + " is not a folder.");
        }
        if (!Files.isReadable(tls) || !Files.isExecutable(tls)) {
            throw new ContainerException("TLS folder " + tls + " cannot be read.");
        }
        for (String f : TLS_FILES) {
            Path p = tls.resolve(f);
            if (!Files.isRegularFile(p)) {
                throw new ContainerException(
                        "TLS folder " + tls + " has no " + f + " (it needs ca.pem, cert.pem and" + " key.pem).");
            }
            if (!Files.isReadable(p)) {
                throw new ContainerException("Cannot read " + p + ".");
            }
        }
    }

    private List<EngineEntry> registered() throws ContainerException {
        if (!Files.exists(file)) {
            return List.of();
        }
        try {
            JsonNode root = JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
            JsonNode engines = root == null ? null : root.get("engines");
            if (engines == null || !engines.isArray()) {
                throw new ContainerException("The engine registry " + file + " has no \"engines\" list.");
            }
            List<EngineEntry> out = new ArrayList<>();
            for (JsonNode n : engines) {
                Map<String, String> labels = new LinkedHashMap<>();
                JsonNode l = n.get("labels");
                if (l != null) {
                    l.fields()
                            .forEachRemaining(
                                    f -> labels.put(f.getKey(), f.getValue().asText()));
                }
                out.add(new EngineEntry(
                        text(n, "name"),
                        text(n, "host"),
                        text(n, "tlsDir") == null ? null : Path.of(text(n, "tlsDir")),
                        text(n, "context"),
                        labels));
            }
            return out;
        } catch (IOException e) {
            throw new ContainerException("Cannot read the engine registry " + file + ": " + e.getMessage(), e);
        }
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private void write(List<EngineEntry> list) throws ContainerException {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode engines = root.putArray("engines");
        for (EngineEntry e : list) {
            ObjectNode n = engines.addObject();
            n.put("name", e.name());
            if (e.host() != null) {
                n.put("host", e.host());
            }
            if (e.tlsDir() != null) {
                n.put("tlsDir", e.tlsDir().toString());
            }
            if (e.context() != null) {
                n.put("context", e.context());
            }
            ObjectNode labels = n.putObject("labels");
            e.labels().forEach(labels::put);
        }
        Path tmp = file.resolveSibling(FILE + ".tmp");
        try {
            PrivateFiles.createDirectories(file.getParent());
            PrivateFiles.writeString(tmp, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n");
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new ContainerException("Cannot write the engine registry " + file + ": " + e.getMessage(), e);
        }
    }
}
