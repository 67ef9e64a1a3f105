package dev.paddock.policy;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.paddock.common.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the {@code {"permissions": {"allow": [...], "ask": [...], "deny": [...]}}} part of a Claude Code
 * settings file (or a Paddock policy file of the same shape) with Jackson's streaming parser, so every rule
 * keeps its line and column. Other keys are skipped. Paddock's own top-level key {@code "unmatched"}
 * ({@code "ask"} or {@code "deny"}) is read too.
 */
final class PermissionsReader {
    /** A rule text and where it stands. */
    record Located(String text, int line, int column) {}

    /** What was read; {@code errors} are shape errors, each with "line L, column C: ...". */
    record Result(Map<RuleList, List<Located>> rules, String unmatched, List<String> errors) {}

    private PermissionsReader() {}

    /**
     * Reads {@code json}.
     *
     * @throws JsonProcessingException when it is not JSON (its location says where)
     */
    static Result read(String json) throws IOException {
        Map<RuleList, List<Located>> rules = new EnumMap<>(RuleList.class);
        for (RuleList l : RuleList.values()) {
            rules.put(l, new ArrayList<>());
        }
        List<String> errors = new ArrayList<>();
        String unmatched = null;
        try (JsonParser p = Json.mapper().getFactory().createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                errors.add(at(p) + "the file must hold one JSON object, like {\"permissions\": {\"allow\": []}}");
                return new Result(rules, null, errors);
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                if (name.equals("permissions")) {
                    if (t != JsonToken.START_OBJECT) {
                        errors.add(at(p) + "\"permissions\" must be an object with allow, ask and deny lists");
                        p.skipChildren();
                    } else {
                        lists(p, rules, errors);
                    }
                } else if (name.equals("unmatched")) {
                    String v = t == JsonToken.VALUE_STRING ? p.getText() : null;
                    if (!"ask".equals(v) && !"deny".equals(v)) {
                        errors.add(at(p) + "\"unmatched\" must be \"ask\" or \"deny\"");
                        p.skipChildren();
                    } else {
                        unmatched = v;
                    }
                } else {
                    p.skipChildren();
                }
            }
            if (p.nextToken() != null) {
                errors.add(at(p) + "text after the end of the JSON object");
            }
        }
        return new Result(rules, unmatched, errors);
    }

    private static void lists(JsonParser p, Map<RuleList, List<Located>> rules, List<String> errors)
            throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            JsonToken t = p.nextToken();
            RuleList list = switch (key) {
                case "allow" -> RuleList.ALLOW;
                case "ask" -> RuleList.ASK;
                case "deny" -> RuleList.DENY;
                default -> null;
            };
            if (list == null) {
                p.skipChildren(); // defaultMode, additionalDirectories...
                continue;
            }
            if (t != JsonToken.START_ARRAY) {
                errors.add(at(p) + "\"" + key + "\" must be a list of rule strings");
                p.skipChildren();
                continue;
            }
            while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                JsonLocation l = p.currentTokenLocation();
                if (t == JsonToken.VALUE_STRING) {
                    rules.get(list).add(new Located(p.getText(), l.getLineNr(), l.getColumnNr()));
                } else {
                    errors.add(at(p) + "each entry of \"" + key + "\" must be a string such as \"Bash(npm test)\"");
                    p.skipChildren();
                }
            }
        }
    }

    private static String at(JsonParser p) {
        JsonLocation l = p.currentTokenLocation();
        return "line " + l.getLineNr() + ", column " + l.getColumnNr() + ": ";
    }

    /** {@code line L, column C: message} for a parse error. */
    static String describe(JsonProcessingException e) {
        JsonLocation l = e.getLocation();
        String where = l == null ? "" : "line " + l.getLineNr() + ", column " + l.getColumnNr() + ": ";
        String msg = e.getOriginalMessage();
        int nl = msg.indexOf('\n');
        return where + "not valid JSON: " + (nl < 0 ? msg : msg.substring(0, nl));
    }
}
