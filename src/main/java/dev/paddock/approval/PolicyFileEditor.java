package dev.paddock.approval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.common.Json;
import dev.paddock.common.JsonFiles;
import dev.paddock.common.PaddockException;
import dev.paddock.policy.ClaudeSettingsImport;
import dev.paddock.policy.RuleList;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Adds an allow rule to a policy file ({@code <repository>/.paddock/policy.json}, created if missing), or removes an
 * ask rule from one: every other key and rule is kept, the rule is not added twice, the previous file is kept as
 * {@code policy.json.bak}. A file that does not parse is refused and left untouched. Also merges the rules of a
 * Claude Code settings file into a policy text being edited (the panel's Policy dialog).
 */
public final class PolicyFileEditor {
    private PolicyFileEditor() {}

    /**
     * Appends {@code rule} to {@code permissions.allow} of {@code file}.
     *
     * @return false when the rule was already there (the file is then not rewritten)
     * @throws ApprovalException when the file does not parse, its {@code permissions} or {@code allow} is not
     *     an object or array, or it cannot be written; nothing is changed then
     */
    static boolean addAllow(Path file, String rule) throws ApprovalException {
        try {
            ObjectNode root = JsonFiles.readObject(file);
            JsonNode perms = root.get("permissions");
            if (perms != null && !perms.isObject()) {
                throw refused(file, "\"permissions\" is not an object");
            }
            ObjectNode permissions = perms == null ? root.putObject("permissions") : (ObjectNode) perms;
            JsonNode allow = permissions.get("allow");
            if (allow != null && !allow.isArray()) {
                throw refused(file, "\"permissions.allow\" is not an array");
            }
            ArrayNode list = allow == null ? permissions.putArray("allow") : (ArrayNode) allow;
            for (JsonNode r : list) {
                if (r.isTextual() && r.asText().equals(rule)) {
                    return false;
                }
            }
            list.add(rule);
            JsonFiles.writeWithBackup(file, root);
            return true;
        } catch (ApprovalException e) {
            throw e;
        } catch (PaddockException e) {
            throw new ApprovalException(ApprovalException.Kind.CONFLICT, e.getMessage(), e);
        }
    }

    /**
     * Removes every entry of {@code permissions.ask} of {@code file} that reads {@code rule} (ignoring surrounding
     * blanks); other keys and rules are kept, the previous file is kept as {@code .bak}.
     *
     * @return how many entries were removed (0: the file is not rewritten)
     * @throws ApprovalException as {@link #addAllow}; nothing is changed then
     */
    static int removeAsk(Path file, String rule) throws ApprovalException {
        try {
            ObjectNode root = JsonFiles.readObject(file);
            JsonNode ask = root.path("permissions").get("ask");
            if (ask == null || !ask.isArray()) {
                return 0;
            }
            ArrayNode list = (ArrayNode) ask;
            int removed = 0;
            for (int i = list.size() - 1; i >= 0; i--) {
                if (list.get(i).isTextual() && list.get(i).asText().strip().equals(rule.strip())) {
                    list.remove(i);
                    removed++;
                }
            }
            if (removed > 0) {
                JsonFiles.writeWithBackup(file, root);
            }
            return removed;
        } catch (PaddockException e) {
            throw new ApprovalException(ApprovalException.Kind.CONFLICT, e.getMessage(), e);
        }
    }

    /**
     * A policy text with rules imported into it.
     *
     * @param text the merged text, pretty-printed one rule a line
     * @param message what was added and skipped, for people ("Imported 3 rules from …; nothing skipped. Review, then
     *     Save.")
     */
    public record Imported(String text, String message) {}

    /**
     * Merges the rules of the Claude Code settings file {@code settings} into the policy text {@code current}: each
     * list keeps its rules, a rule already there is not added again. Nothing is written.
     *
     * @throws PaddockException when {@code settings} is missing, or {@code current} is not a JSON object whose
     *     {@code permissions} lists are lists
     * @throws IOException when {@code settings} cannot be read
     */
    public static Imported mergeClaudeSettings(String current, Path settings) throws PaddockException, IOException {
        if (!Files.exists(settings)) {
            throw new PaddockException("There is no " + settings + " to import from.");
        }
        ClaudeSettingsImport.Imported imported = ClaudeSettingsImport.read(settings);
        ObjectNode root = editedObject(current);
        JsonNode p = root.get("permissions");
        if (p != null && !p.isObject()) {
            throw new PaddockException("\"permissions\" in the editor is not an object; fix it, then import.");
        }
        ObjectNode perms = p == null ? root.putObject("permissions") : (ObjectNode) p;
        int added = 0;
        int present = 0;
        for (RuleList list : List.of(RuleList.ALLOW, RuleList.ASK, RuleList.DENY)) {
            JsonNode l = perms.get(list.key());
            if (l != null && !l.isArray()) {
                throw new PaddockException(
                        "\"permissions." + list.key() + "\" in the editor is not a list;" + " fix it, then import.");
            }
            ArrayNode arr = l == null ? perms.putArray(list.key()) : (ArrayNode) l;
            Set<String> have = new LinkedHashSet<>();
            arr.forEach(n -> have.add(n.asText().strip()));
            for (String rule : imported.list(list)) {
                if (have.add(rule.strip())) {
                    arr.add(rule);
                    added++;
                } else {
                    present++;
                }
            }
        }
        String merged = Json.mapper().writer(new Printer()).writeValueAsString(root) + "\n";
        StringBuilder m =
                new StringBuilder("Imported " + added + (added == 1 ? " rule" : " rules") + " from " + settings);
        if (present > 0) {
            m.append(" (").append(present).append(" already here)");
        }
        m.append(
                imported.skipped().isEmpty()
                        ? "; nothing skipped."
                        : "; skipped " + imported.skipped().size() + ": " + String.join("; ", imported.skipped())
                                + ".");
        m.append(" Review, then Save.");
        return new Imported(merged, m.toString());
    }

    /** Pretty-prints as people write these files: one rule a line, {@code "key": value}, {@code []}. */
    private static final class Printer extends com.fasterxml.jackson.core.util.DefaultPrettyPrinter {
        private static final long serialVersionUID = 1L;

        Printer() {
            com.fasterxml.jackson.core.util.DefaultIndenter lines =
                    new com.fasterxml.jackson.core.util.DefaultIndenter("  ", "\n");
            _arrayIndenter = lines;
            _objectIndenter = lines;
        }

        @Override
        public Printer createInstance() {
            return new Printer();
        }

        @Override
        public void writeObjectFieldValueSeparator(com.fasterxml.jackson.core.JsonGenerator g) throws IOException {
            g.writeRaw(": ");
        }

        @Override
        public void writeEndArray(com.fasterxml.jackson.core.JsonGenerator g, int values) throws IOException {
            if (values == 0) {
                _nesting--;
                g.writeRaw(']');
            } else {
                super.writeEndArray(g, values);
            }
        }
    }

    private static ObjectNode editedObject(String current) throws PaddockException {
        JsonNode n;
        try {
            n = current == null || current.isBlank()
                    ? Json.mapper().createObjectNode()
                    : Json.mapper().readTree(current);
        } catch (IOException e) {
            throw new PaddockException("The text in the editor is not valid JSON; fix it, then import.", e);
        }
        if (n == null || !n.isObject()) {
            throw new PaddockException("The text in the editor is not a JSON object; fix it, then import.");
        }
        return (ObjectNode) n;
    }

    private static ApprovalException refused(Path file, String why) {
        return new ApprovalException(
                ApprovalException.Kind.CONFLICT,
                file + ": " + why + "; it was left untouched. Fix it, then try again.");
    }
}
