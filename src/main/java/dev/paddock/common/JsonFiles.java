package dev.paddock.common;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

/**
 * Editing a user's JSON file without clobbering it: read the whole object (keys keep their order), change
 * what is needed, keep the old file as {@code <name>.bak}, write the new one atomically. A file that does
 * not parse is refused with its line and column and left untouched.
 */
public final class JsonFiles {
    private JsonFiles() {
    }

    /**
     * The file's top-level object; an empty object when the file is missing or empty.
     *
     * @throws PaddockException when it cannot be read, is not JSON (message with line and column) or its
     *     top level is not an object
     */
    public static ObjectNode readObject(Path file) throws PaddockException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return Json.mapper().createObjectNode();
        } catch (IOException e) {
            throw new PaddockException("Cannot read " + file + ": " + e.getMessage(), e);
        }
        if (text.isBlank()) {
            return Json.mapper().createObjectNode();
        }
        JsonNode n;
        try {
            n = Json.mapper().readTree(text);
        } catch (JsonProcessingException e) {
            JsonLocation l = e.getLocation();
            String where = l == null ? "" : " line " + l.getLineNr() + ", column " + l.getColumnNr();
            throw new PaddockException(file + " is not valid JSON (" + where.strip() + ": " + e.getOriginalMessage()
                    + "); it was left untouched. Fix it, then try again.", e);
        }
        if (n == null || !n.isObject()) {
            throw new PaddockException(file + " does not hold a JSON object at its top level; it was left untouched.");
        }
        return (ObjectNode) n;
    }

    /**
     * Writes {@code content} (pretty-printed) to {@code file}: the previous file, if any, is copied to
     * {@code <name>.bak} first; the new one goes through a temporary file and an atomic move, so a crash
     * leaves the old or the new file, never half of one. Creates missing parent directories.
     *
     * @throws PaddockException when it cannot be written (nothing is changed then, except maybe the backup)
     */
    public static void writeWithBackup(Path file, JsonNode content) throws PaddockException {
        String text;
        try {
            text = Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(content) + "\n";
        } catch (JsonProcessingException e) {
            throw new PaddockException("Cannot write " + file + ": " + e.getOriginalMessage(), e);
        }
        try {
            writeTextWithBackup(file, text);
        } catch (IOException e) {
            throw new PaddockException("Cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Writes {@code text} as it is (a person's own formatting kept) the way {@link #writeWithBackup} does.
     *
     * @return whether there was a previous file (now kept as {@code <name>.bak})
     * @throws IOException when it cannot be written
     */
    public static boolean writeTextWithBackup(Path file, String text) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        boolean existed = Files.exists(file);
        if (existed) {
            // COPY_ATTRIBUTES: the backup is created with the file's own mode (an owner-only file stays so).
            Files.copy(file, file.resolveSibling(file.getFileName() + ".bak"), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.COPY_ATTRIBUTES);
        }
        PrivateFiles.write(file, text.getBytes(StandardCharsets.UTF_8), modeFor(file, parent));
        return existed;
    }

    /**
     * The mode of the new file: the old file's when there is one (a person's choice is kept), else 600 in a
     * directory only its owner may enter (the Paddock home: its {@code policy.json}), else null: the process's
     * umask decides, as for the repository's other files (a repository's {@code .paddock/policy.json} or
     * {@code .claude/settings.json}).
     */
    private static Set<PosixFilePermission> modeFor(Path file, Path parent) throws IOException {
        if (!PrivateFiles.posix(file)) {
            return PrivateFiles.FILE;
        }
        if (Files.exists(file)) {
            return Files.getPosixFilePermissions(file);
        }
        Set<PosixFilePermission> dir = Files.getPosixFilePermissions(parent);
        boolean shared = dir.contains(PosixFilePermission.GROUP_EXECUTE) || dir.contains(PosixFilePermission.OTHERS_EXECUTE);
        return shared ? null : PrivateFiles.FILE;
    }
}
