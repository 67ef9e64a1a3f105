package dev.paddock.policy;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Loads policy files: the only class of the policy package that touches the file system.
 *
 * <p>A policy file has the shape of Claude Code's settings, so users can paste theirs:
 * <pre>{"permissions": {"allow": ["Bash(npm test)"], "ask": ["Bash(git push:*)"], "deny": ["Read(./.env)"]},
 *  "unmatched": "ask"}</pre>
 * Other keys are ignored; {@code "unmatched": "deny"} (Paddock's own key) makes requests no rule matches
 * denied instead of asked. Locations: the global file {@code <paddock home>/policy.json}
 * ({@link #globalFile}) and the repository's {@code <repository>/.paddock/policy.json}
 * ({@link #repositoryFile}); their lists are merged (deny still beats ask beats allow across files). A
 * missing file is an empty one.
 *
 * <p>Fail-closed: a file that cannot be read, is not valid JSON, has the wrong shape or holds a rule that
 * does not parse gives a {@link Policy#broken broken} policy that denies everything, with a reason naming
 * the file, line and column (or the bad rule), until it is fixed.
 */
public final class PolicyFile {
    private PolicyFile() {
    }

    /** What one file holds: its rules, its unmatched setting, and its errors (empty when it is sound). */
    public record Contents(Path file, List<PolicyRule> rules, Verdict unmatched, List<String> errors) {
        public Contents {
            rules = List.copyOf(rules);
            errors = List.copyOf(errors);
        }

        /** Whether the file can be used. */
        public boolean isSound() {
            return errors.isEmpty();
        }
    }

    /** {@code <paddock home>/policy.json}. */
    public static Path globalFile(Path paddockHome) {
        return paddockHome.resolve("policy.json");
    }

    /** {@code <repository>/.paddock/policy.json}. */
    public static Path repositoryFile(Path repository) {
        return repository.resolve(".paddock").resolve("policy.json");
    }

    /**
     * Reads one file. A missing file gives empty contents; errors of JSON, shape and rules are in
     * {@link Contents#errors()}, each "FILE line L, column C: ...".
     *
     * @throws IOException when the file exists but cannot be read (permissions, a directory)
     */
    public static Contents read(Path file) throws IOException {
        String json;
        try {
            json = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return new Contents(file, List.of(), null, List.of());
        }
        return parse(json, file);
    }

    /** Parses {@code json} as the contents of {@code file} (named in messages and as the rules' source). */
    public static Contents parse(String json, Path file) {
        PermissionsReader.Result raw;
        try {
            raw = PermissionsReader.read(json);
        } catch (JsonProcessingException e) {
            return new Contents(file, List.of(), null, List.of(file + " " + PermissionsReader.describe(e)));
        } catch (IOException e) {
            return new Contents(file, List.of(), null, List.of(file + ": " + e.getMessage()));
        }
        List<String> errors = new ArrayList<>();
        raw.errors().forEach(e -> errors.add(file + " " + e));
        List<PolicyRule> rules = new ArrayList<>();
        for (RuleList list : RuleList.values()) {
            for (PermissionsReader.Located l : raw.rules().get(list)) {
                try {
                    rules.add(new PolicyRule(RuleParser.parse(l.text()), list, file.toString()));
                } catch (RuleSyntaxException e) {
                    errors.add(file + " line " + l.line() + ", column " + l.column() + ": " + e.getMessage());
                }
            }
        }
        Verdict unmatched = raw.unmatched() == null ? null : "deny".equals(raw.unmatched()) ? Verdict.DENY
                : Verdict.ASK;
        return new Contents(file, rules, unmatched, errors);
    }

    /**
     * Loads and merges {@code files} (missing ones are skipped) into the policy for one repository. Never
     * throws: any error gives a broken policy that denies everything and says why.
     *
     * @param projectRoot the repository root, for {@code /path} rules (null: the request's cwd)
     * @param home the user's home directory
     */
    public static Policy load(List<Path> files, Path projectRoot, Path home) {
        List<PolicyRule> rules = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        Verdict unmatched = Verdict.ASK;
        for (Path f : files) {
            Contents c;
            try {
                c = read(f);
            } catch (IOException e) {
                errors.add("cannot read " + f + ": " + e);
                continue;
            }
            errors.addAll(c.errors());
            rules.addAll(c.rules());
            if (c.unmatched() != null) {
                unmatched = unmatched.strictest(c.unmatched());
            }
        }
        if (!errors.isEmpty()) {
            return Policy.broken(String.join("; ", errors), home);
        }
        return Policy.of(rules, unmatched, projectRoot, home);
    }

    /** The global and repository files for {@code repository} (null: the global file alone). */
    public static List<Path> standardFiles(Path paddockHome, Path repository) {
        return repository == null ? List.of(globalFile(paddockHome))
                : List.of(globalFile(paddockHome), repositoryFile(repository));
    }
}
