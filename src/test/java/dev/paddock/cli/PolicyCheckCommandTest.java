package dev.paddock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.cli.StatusCommandTest.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code paddock policy check}, run in-process through {@code Paddock.run} on real policy files, no Paddock running. */
class PolicyCheckCommandTest {
    @TempDir
    Path tmp;

    private Path home;
    private Path repo;
    private Path policy;

    @BeforeEach
    void setUp() throws IOException {
        home = tmp.resolve("home");
        repo = Files.createDirectories(tmp.resolve("repo"));
        Files.createDirectories(repo.resolve(".git"));
        policy = tmp.resolve("policy.json");
        Files.writeString(policy, """
                {"permissions": {"allow": ["Bash(git status)", "Bash(ls:*)", "Read(./**)"],
                                 "ask": ["Bash(git push:*)"],
                                 "deny": ["Bash(git push --force:*)", "Read(./.env)"]}}""");
    }

    private Run check(String... args) {
        String[] all = new String[args.length + 4];
        all[0] = "--home";
        all[1] = home.toString();
        all[2] = "policy";
        all[3] = "check";
        System.arraycopy(args, 0, all, 4, args.length);
        return StatusCommandTest.paddock(all);
    }

    @Test
    void printsDecisionRuleAndReasonOnThreeLines() {
        Run run = check(
                "--policy", policy.toString(), "--cwd", repo.toString(), "--", "git", "-C", "/x", "push", "--force");

        assertThat(run.exit()).as(run.describe()).isZero();
        assertThat(run.out().lines().toList())
                .containsExactly(
                        "deny",
                        "Bash(git push --force:*)  (deny list, " + policy + ")",
                        "`git push --force` matches the deny rule Bash(git push --force:*) from " + policy
                                + " (the strictest of 2 parts)"); // the other part: -C makes git work in another
        // repository
    }

    @Test
    void aQuotedCommandLineIsParsedAsShellText() {
        Run run = check("--policy", policy.toString(), "--cwd", repo.toString(), "--", "ls -la && git status");

        assertThat(run.exit()).as(run.describe()).isZero();
        assertThat(run.out().lines().findFirst()).contains("allow");
    }

    @Test
    void anUnmatchedCommandIsAskedAndSaysNoRuleMatched() {
        Run run = check("--policy", policy.toString(), "--cwd", repo.toString(), "--", "make", "install");

        assertThat(run.out().lines().toList())
                .containsExactly(
                        "ask", "no rule matched", "no rule matches `make install`; unmatched requests are asked");
        Run denied =
                check("--policy", policy.toString(), "--unmatched", "deny", "--cwd", repo.toString(), "--", "make");
        assertThat(denied.out().lines().findFirst()).contains("deny");
    }

    @Test
    void otherToolsTakeAPath() {
        Run run = check("--policy", policy.toString(), "--tool", "Read", "--cwd", repo.toString(), "--", ".env");

        assertThat(run.exit()).as(run.describe()).isZero();
        assertThat(run.out().lines().toList()).startsWith("deny", "Read(./.env)  (deny list, " + policy + ")");
    }

    @Test
    void theRepositoryFileIsMergedWithTheGlobalOne() throws IOException {
        Files.createDirectories(repo.resolve(".paddock"));
        Files.writeString(repo.resolve(".paddock/policy.json"), "{\"permissions\": {\"allow\": [\"Bash(make)\"]}}");
        Files.createDirectories(home);
        Files.writeString(home.resolve("policy.json"), "{\"permissions\": {\"deny\": [\"Bash(make install)\"]}}");

        Run allowed = check("--cwd", repo.resolve(".paddock").toString(), "--", "make");
        Run denied = check("--repo", repo.toString(), "--", "make", "install");

        assertThat(allowed.out().lines().toList())
                .as(allowed.describe())
                .startsWith("allow", "Bash(make)  (allow list, " + repo.resolve(".paddock/policy.json") + ")");
        assertThat(denied.out().lines().toList())
                .as(denied.describe())
                .startsWith("deny", "Bash(make install)  (deny list, " + home.resolve("policy.json") + ")");
    }

    @Test
    void aCorruptPolicyPrintsDenyAndTheErrorAndExitsZero() throws IOException {
        Files.writeString(policy, "{\"permissions\": {\"allow\": [\"Bash(ls)\"}}");

        Run run = check("--policy", policy.toString(), "--cwd", repo.toString(), "--", "ls");

        assertThat(run.exit()).as(run.describe()).isZero();
        assertThat(run.out().lines().toList()).hasSize(3).startsWith("deny", "no rule matched");
        assertThat(run.out().lines().toList().get(2)).contains(policy + " line 1, column 38: not valid JSON");
    }

    @Test
    void aPolicyFileThatCannotBeReadAtAllExitsOne() {
        Path missing = tmp.resolve("nope.json");

        Run run = check("--policy", missing.toString(), "--", "ls");

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).contains("cannot read the policy file " + missing + " (it does not exist)");
    }

    @Test
    void fromASandboxWorktreeOrAnyLinkedWorktreeTheMainWorktreesPolicyApplies() throws IOException {
        dev.paddock.testing.TempRepo main =
                dev.paddock.testing.TempRepo.init(tmp.resolve("project")).excludeWorktreesDir();
        Path mainPolicy = dev.paddock.policy.PolicyFile.repositoryFile(main.dir());
        Files.createDirectories(mainPolicy.getParent());
        Files.writeString(mainPolicy, "{\"permissions\": {\"deny\": [\"Bash(touch:*)\"]}}");
        Path sandbox = main.addWorktree(main.dir().resolve(".worktrees/s1/agent/fix"), "agent/fix");
        Path linked = main.addWorktree(tmp.resolve("elsewhere"), "other");
        for (Path wt : new Path[] {sandbox, linked}) {
            // What an agent would write in its own worktree: never the policy in force.
            Files.createDirectories(wt.resolve(".paddock"));
            Files.writeString(
                    dev.paddock.policy.PolicyFile.repositoryFile(wt),
                    "{\"permissions\": {\"allow\": [\"Bash(touch:*)\"]}}");
        }

        for (String[] args : new String[][] {
            {"--cwd", sandbox.toString()},
            {"--cwd", sandbox.resolve("src").toString()},
            {"--repo", sandbox.toString(), "--cwd", sandbox.toString()},
            {"--cwd", linked.toString()}
        }) {
            String[] all = new String[args.length + 4];
            System.arraycopy(args, 0, all, 0, args.length);
            all[args.length] = "--";
            all[args.length + 1] = "touch";
            all[args.length + 2] = "x";
            all[args.length + 3] = "y";
            Run run = check(all);
            assertThat(run.exit()).as(run.describe()).isZero();
            assertThat(run.out().lines().toList())
                    .as(String.join(" ", args))
                    .startsWith("deny", "Bash(touch:*)  (deny list, " + mainPolicy + ")");
        }
    }

    @Test
    void aMissingCommandIsAUsageError() {
        Run run = check("--policy", policy.toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("Missing required parameter");
    }
}
