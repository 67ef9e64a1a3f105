package dev.paddock.policy;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * "Import from .claude/settings.json": the permission lists of a Claude Code settings file
 * ({@code .claude/settings.json}, {@code .claude/settings.local.json} or {@code ~/.claude/settings.json};
 * shape documented at https://code.claude.com/docs/en/settings), for the panel to merge into a Paddock
 * policy. Rules Paddock cannot parse are not dropped silently: they are listed in
 * {@link Imported#skipped()} with the reason.
 */
public final class ClaudeSettingsImport {
    private ClaudeSettingsImport() {}

    /**
     * What was imported.
     *
     * @param rules the rule texts of each list, valid ones only, in file order
     * @param skipped each rule left out, with its line, column and reason, in file order
     */
    public record Imported(Map<RuleList, List<String>> rules, List<String> skipped) {
        public Imported {
            Map<RuleList, List<String>> copy = new EnumMap<>(RuleList.class);
            rules.forEach((k, v) -> copy.put(k, List.copyOf(v)));
            rules = Map.copyOf(copy);
            skipped = List.copyOf(skipped);
        }

        /** The rules of one list. */
        public List<String> list(RuleList list) {
            return rules.getOrDefault(list, List.of());
        }
    }

    /**
     * Reads the permission lists of {@code settingsFile}.
     *
     * @throws PolicyFileException when it cannot be read or is not valid JSON (message with line and
     *     column); a wrong shape (e.g. {@code "allow": "Bash"}) is reported the same way
     */
    public static Imported read(Path settingsFile) throws PolicyFileException {
        PermissionsReader.Result raw;
        try {
            raw = PermissionsReader.read(Files.readString(settingsFile, StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            throw new PolicyFileException(settingsFile + " " + PermissionsReader.describe(e), e);
        } catch (IOException e) {
            throw new PolicyFileException("cannot read " + settingsFile + ": " + e, e);
        }
        if (!raw.errors().isEmpty()) {
            throw new PolicyFileException(settingsFile + " " + String.join("; ", raw.errors()), null);
        }
        Map<RuleList, List<String>> rules = new EnumMap<>(RuleList.class);
        List<PermissionsReader.Located> bad = new ArrayList<>();
        for (RuleList list : RuleList.values()) {
            List<String> texts = new ArrayList<>();
            for (PermissionsReader.Located l : raw.rules().get(list)) {
                try {
                    texts.add(RuleParser.parse(l.text()).text());
                } catch (RuleSyntaxException e) {
                    bad.add(new PermissionsReader.Located(e.getMessage(), l.line(), l.column()));
                }
            }
            rules.put(list, texts);
        }
        bad.sort(java.util.Comparator.comparingInt(PermissionsReader.Located::line)
                .thenComparingInt(PermissionsReader.Located::column));
        List<String> skipped = bad.stream()
                .map(l -> "line " + l.line() + ", column " + l.column() + ": " + l.text())
                .toList();
        return new Imported(rules, skipped);
    }
}
