package dev.paddock.common;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
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
    private JsonFiles() {}

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
            // Whole text: "{...} and more" is not a JSON file either, and rewriting it would drop the rest.
            n = Json.mapper()
                    .reader()
                    .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .readTree(text);
        } catch (JsonProcessingException e) {
            JsonLocation l = e.getLocation();
            String reason = endsEarly(text) ? "there is more text after the end of the JSON value" : plainReason(e);
            String where =
                    l == null || l.getLineNr() < 1 ? "" : " at line " + l.getLineNr() + ", column " + l.getColumnNr();
            throw new PaddockException(
                    file + " is not valid JSON" + where + ": " + reason
                            + "; it was left untouched. Fix it, then try again.",
                    e);
        }
        if (n == null || !n.isObject()) {
            throw new PaddockException(file + " does not hold a JSON object at its top level; it was left untouched.");
        }
        return (ObjectNode) n;
    }

    /** Whether a whole JSON value reads from the start of {@code text} (so what is wrong comes after it). */
    private static boolean endsEarly(String text) {
        try {
            return Json.mapper().readTree(text) != null;
        } catch (JsonProcessingException e) {
            return false;
        }
    }

    /**
     * What is wrong, in plain words, from the parser's message: without its internals (character codes, sources,
     * markers, token types).
     */
    static String plainReason(JsonProcessingException e) {
        if (e instanceof com.fasterxml.jackson.core.io.JsonEOFException) {
            return "the text ends before the JSON does (a {, [ or \" is not closed)";
        }
        String m = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        if (m.startsWith("Trailing token")) {
            return "there is more text after the end of the JSON value";
        }
        java.util.regex.Matcher unexpected = java.util.regex.Pattern.compile(
                        "Unexpected character \\('(.+?)' \\(code \\d+\\)\\)(?:: was expecting (.+))?")
                .matcher(m);
        if (unexpected.lookingAt()) {
            String expected = unexpected.group(2);
            String c = unexpected.group(1);
            return "found '" + c + "'" + (expected == null ? "" : " where " + expecting(expected) + " should be")
                    + ("'".equals(c) ? " (JSON text takes double quotes)" : "");
        }
        java.util.regex.Matcher word =
                java.util.regex.Pattern.compile("Unrecognized token '(.*?)'").matcher(m);
        if (word.lookingAt()) {
            return "'" + word.group(1) + "' is not a JSON value (text needs double quotes; true, false and null are"
                    + " lower case)";
        }
        String first = m.lines()
                .findFirst()
                .orElse("")
                .replaceAll(" \\(code \\d+\\)", "")
                .replaceAll("\\s*\\(start marker at .*", "")
                .replaceAll("\\s*at \\[Source.*", "")
                .strip();
        return first.isEmpty()
                ? "it cannot be read as JSON"
                : Character.toLowerCase(first.charAt(0)) + first.substring(1);
    }

    /** Jackson's "was expecting ..." as a noun phrase. */
    private static String expecting(String what) {
        String w = what.strip();
        if (w.startsWith("double-quote to start field name")) {
            return "a name in double quotes";
        }
        if (w.startsWith("comma to separate")) {
            return "a comma";
        }
        if (w.startsWith("colon to separate")) {
            return "a colon";
        }
        if (w.startsWith("(JSON String, Number, Array, Object")) {
            return "a value";
        }
        return "something else";
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
            Files.copy(
                    file,
                    file.resolveSibling(file.getFileName() + ".bak"),
                    StandardCopyOption.REPLACE_EXISTING,
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
        boolean shared =
                dir.contains(PosixFilePermission.GROUP_EXECUTE) || dir.contains(PosixFilePermission.OTHERS_EXECUTE);
        return shared ? null : PrivateFiles.FILE;
    }
}
