package dev.paddock.approval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.common.JsonFiles;
import dev.paddock.common.PaddockException;
import java.nio.file.Path;

/**
 * Adds an allow rule to a policy file ({@code <repository>/.paddock/policy.json}, created if missing), or removes an
 * ask rule from one: every other key and rule is kept, the rule is not added twice, the previous file is kept as
 * {@code policy.json.bak}. A file that does not parse is refused and left untouched.
 */
final class PolicyFileEditor {
    private PolicyFileEditor() {
    }

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

    private static ApprovalException refused(Path file, String why) {
        return new ApprovalException(ApprovalException.Kind.CONFLICT, file + ": " + why
                + "; it was left untouched. Fix it, then try again.");
    }
}
