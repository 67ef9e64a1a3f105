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
    private PolicyFile() {}

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
        Verdict unmatched =
                raw.unmatched() == null ? null : "deny".equals(raw.unmatched()) ? Verdict.DENY : Verdict.ASK;
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

    /**
     * The policy in force for the sandboxes of {@code repository}: {@link #standardFiles} loaded as {@link #load}
     * does, but never from a sandbox's worktree. A {@code repository} inside another repository's sandbox folder
     * ({@code <repo>/.worktrees/...}), or a {@code .paddock/policy.json} that is a link into that folder, gives a
     * broken policy (everything denied, saying why): the agents write those files, so they are never its source.
     *
     * @param repository the main worktree of the repository (null: the global file alone)
     * @param projectRoot where {@code /path} rules are anchored (null: the request's cwd)
     * @param home the user's home directory
     */
    public static Policy loadStandard(Path paddockHome, Path repository, Path projectRoot, Path home) {
        String refused = refusal(repository);
        return refused != null
                ? Policy.broken(refused, home)
                : load(standardFiles(paddockHome, repository), projectRoot, home);
    }

    /**
     * Why the policy of {@code repository} must not be read ({@link #loadStandard}), or null when it may.
     *
     * @param repository a main worktree, or null (nothing to refuse)
     */
    public static String refusal(Path repository) {
        if (repository == null) {
            return null;
        }
        Path repo = repository.toAbsolutePath().normalize();
        java.util.Optional<Path> outer = dev.paddock.worktree.MainWorktree.ofSandboxArea(repo);
        if (outer.isPresent()) {
            return "refusing to read a policy from " + repo + ": it lies in the sandbox folder of " + outer.get()
                    + ", which agents write; the repository's policy is " + repositoryFile(outer.get());
        }
        return linkIntoSandboxes(repo);
    }

    /** Why {@code <repo>/.paddock/policy.json} must not be read (a link into the sandbox folder), or null. */
    private static String linkIntoSandboxes(Path repo) {
        Path file = repositoryFile(repo);
        if (!Files.exists(file)) {
            return null;
        }
        try {
            Path real = file.toRealPath();
            Path sandboxes = repo.toRealPath().resolve(dev.paddock.worktree.MainWorktree.SANDBOXES);
            if (real.startsWith(sandboxes)) {
                return "refusing to read the policy " + file + ": it is a link to " + real + ", inside the sandbox"
                        + " folder that agents write";
            }
        } catch (IOException e) {
            return null; // unreadable: load() reports it and denies
        }
        return null;
    }

    /** The global and repository files for {@code repository} (null: the global file alone). */
    public static List<Path> standardFiles(Path paddockHome, Path repository) {
        return repository == null
                ? List.of(globalFile(paddockHome))
                : List.of(globalFile(paddockHome), repositoryFile(repository));
    }
}
