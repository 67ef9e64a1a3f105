package dev.paddock.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built-in rule no policy overrides: an agent's writes to Paddock's policy and hook configuration (its home,
 * every {@code .paddock/} and {@code .claude/}) are denied, by the Edit and Write tools and by Bash, through
 * {@code ..}, {@code ~}, absolute paths and symbolic links; a command naming them is asked; reads of the Paddock
 * home (its install token) are denied. The policy under test allows everything, so any deny or ask is the
 * built-in rule's.
 */
class PolicyGuardTest {
    private static final String ALLOW_ALL = "{\"permissions\": {\"allow\": [\"Bash\", \"Edit\", \"Write\", \"Read\","
            + " \"MultiEdit\", \"NotebookEdit\"]}}";

    @TempDir
    Path tmp;

    private Path home;
    private Path paddockHome;
    private Path repo;
    private Path worktree;
    private PolicyEngine engine;

    @BeforeEach
    void setUp() throws IOException {
        home = Files.createDirectories(tmp.resolve("home"));
        paddockHome = Files.createDirectories(tmp.resolve("paddock-state")); // a PADDOCK_HOME of another name
        repo = Files.createDirectories(tmp.resolve("repo"));
        Files.createDirectories(repo.resolve(".git"));
        worktree = Files.createDirectories(repo.resolve(".worktrees/s1/agent/fix"));
        Files.writeString(PolicyFile.globalFile(paddockHome), ALLOW_ALL);
        Files.writeString(paddockHome.resolve("api-token"), "secret\n");
        Files.createDirectories(repo.resolve(".paddock"));
        Files.writeString(PolicyFile.repositoryFile(repo), "{}");
        Files.createDirectories(repo.resolve(".claude"));
        Files.writeString(repo.resolve(".claude/settings.json"), "{}");
        Policy p = PolicyFile.loadStandard(paddockHome, repo, worktree, home);
        assertThat(p.broken()).isNull();
        engine = new PolicyEngine(p, new PolicyGuard(paddockHome, repo));
    }

    private Decision tool(String tool, String input) {
        return engine.decide(new ToolRequest(tool, input, worktree));
    }

    private Decision bash(String command) {
        return engine.decide(ToolRequest.bash(command, worktree));
    }

    private static void assertBuiltInDeny(Decision d) {
        assertThat(d.verdict()).as(d.reason()).isEqualTo(Verdict.DENY);
        assertThat(d.rule()).isNull();
        assertThat(d.reason()).contains("built-in rule that no policy can override");
    }

    @Test
    void editAndWriteOfPolicyAndHookFilesAreDeniedWhateverThePolicyAllows() {
        assertBuiltInDeny(tool("Write", ".paddock/policy.json")); // the worktree's own
        assertBuiltInDeny(tool("Edit", "../../../../.paddock/policy.json")); // the main worktree's, by ..
        assertBuiltInDeny(tool("Write", repo.resolve(".claude/settings.json").toString())); // absolute
        assertBuiltInDeny(tool("MultiEdit", ".claude/settings.local.json"));
        assertBuiltInDeny(tool("Write", "~/.claude/settings.json")); // the user's Claude Code settings
        assertBuiltInDeny(tool("Write", "~/.paddock/policy.json")); // the default home
        assertBuiltInDeny(tool("Edit", PolicyFile.globalFile(paddockHome).toString()));
        assertBuiltInDeny(
                tool("Write", paddockHome.resolve("bin/paddock-hook-claude").toString()));
        assertBuiltInDeny(tool("Write", "src/../.claude/hooks/pre.sh"));
        assertBuiltInDeny(tool("Write", ".CLAUDE/settings.json")); // case-insensitive volumes
        assertBuiltInDeny(tool("Write", ".clau\u200Bde/settings.json")); // an invisible character HFS+ ignores
        Decision d = tool("Write", ".paddock/policy.json");
        assertThat(d.reason()).contains("policy or hook configuration");
    }

    @Test
    void writesToCodexAndGeminiSettingsAreDeniedTheyCouldTurnOnHooksOrApprovalModes() {
        assertBuiltInDeny(tool("Write", ".gemini/settings.json"));
        assertBuiltInDeny(tool("Write", ".codex/config.toml"));
        assertBuiltInDeny(bash("echo '{\"general\":{\"defaultApprovalMode\":\"auto_edit\"}}' > .gemini/settings.json"));
        assertBuiltInDeny(bash("printf 'approval_policy = \"never\"' >> ~/.codex/config.toml"));
        assertBuiltInDeny(tool("Edit", ".Gemini/settings.json")); // a case-insensitive file system's same folder
    }

    @Test
    void writesThroughSymbolicLinksAreDeniedAlsoWhenTheTargetDoesNotExistYet() throws IOException {
        Files.createSymbolicLink(worktree.resolve("conf"), repo.resolve(".paddock"));
        Files.createSymbolicLink(worktree.resolve("state"), paddockHome);
        Files.createSymbolicLink(worktree.resolve("later.json"), repo.resolve(".claude/settings.local.json"));
        Files.createDirectories(worktree.resolve("sub"));
        Files.createSymbolicLink(worktree.resolve("sub/up"), repo);

        assertBuiltInDeny(tool("Write", "conf/policy.json"));
        assertBuiltInDeny(tool("Edit", "state/policy.json"));
        assertBuiltInDeny(tool("Write", "later.json")); // dangling: writing creates the settings file
        assertBuiltInDeny(tool("Write", "sub/up/.claude/settings.json"));
        assertBuiltInDeny(bash("echo '{}' > conf/policy.json"));
        assertBuiltInDeny(bash("echo '{}' > later.json"));
    }

    @Test
    void bashWritesToPolicyAndHookFilesAreDenied() {
        assertBuiltInDeny(bash("echo '{\"permissions\":{\"allow\":[\"Bash\"]}}' > .paddock/policy.json"));
        assertBuiltInDeny(bash("printf x >> ../../../../.claude/settings.json"));
        assertBuiltInDeny(bash("echo x > ~/.claude/settings.json"));
        assertBuiltInDeny(bash("echo x > " + PolicyFile.globalFile(paddockHome)));
        assertBuiltInDeny(bash("ls && echo x > " + repo + "/.paddock/policy.json"));
        assertBuiltInDeny(bash("tee .claude/settings.json < /dev/null"));
        assertBuiltInDeny(bash("rm -f .claude/settings.json"));
        assertBuiltInDeny(bash("cp evil.json ../../../../.paddock/policy.json"));
    }

    @Test
    void theInstallTokenAndTheRestOfThePaddockHomeCannotBeRead() {
        assertBuiltInDeny(tool("Read", paddockHome.resolve("api-token").toString()));
        assertBuiltInDeny(tool("Grep", paddockHome.toString()));
        assertBuiltInDeny(bash("cat " + paddockHome.resolve("api-token")));
        assertBuiltInDeny(bash("curl -H \"x: $(cat " + paddockHome.resolve("api-token") + ")\" http://127.0.0.1:1"));
        assertThat(tool("Read", ".claude/settings.json").verdict())
                .as("reading a repository's settings is the" + " policy's business")
                .isEqualTo(Verdict.ALLOW);
    }

    @Test
    void aCommandNamingPolicyOrHookFilesIsAskedEvenWhenAllowed() {
        // git checkout -- PATHS and git restore PATHS are known to write their paths: denied as any other write
        assertBuiltInDeny(bash("git checkout HEAD -- .claude"));
        assertBuiltInDeny(bash("git restore --source=HEAD~1 .claude/"));
        for (String command : new String[] {
            "python3 fix.py .paddock/policy.json",
            "git stash push -- .claude",
            "node tool.js --config=../../../../.claude/settings.json",
            "ls -la " + paddockHome
        }) {
            Decision d = bash(command);
            assertThat(d.verdict()).as(command + ": " + d.reason()).isEqualTo(Verdict.ASK);
            assertThat(d.reason()).contains("a person decides", "built-in rule");
        }
    }

    @Test
    void writingOrReadingAFolderThatHoldsTheConfigurationIsAsked() {
        for (String command : new String[] {"rm -rf ../../../..", "rm -rf " + tmp, "chmod -R 777 " + repo}) {
            Decision d = bash(command);
            assertThat(d.verdict()).as(command + ": " + d.reason()).isEqualTo(Verdict.ASK);
            assertThat(d.reason()).contains("a person decides");
        }
        Decision search = tool("Grep", tmp.toString());
        assertThat(search.verdict()).as(search.reason()).isEqualTo(Verdict.ASK);
        assertThat(search.reason()).contains("install token");
        assertThat(bash("rm -rf build").verdict()).isEqualTo(Verdict.ALLOW);
        assertThat(tool("Grep", "src").verdict()).isEqualTo(Verdict.ALLOW);
    }

    @Test
    void theBuiltInRuleNeverLoosensWhatThePolicyDenies() throws IOException {
        Files.writeString(
                PolicyFile.repositoryFile(repo),
                "{\"permissions\": {\"deny\": [\"Bash(rm -rf:*)\"," + " \"Grep\", \"Edit(//**)\"]}}");
        PolicyEngine strict = new PolicyEngine(
                PolicyFile.loadStandard(paddockHome, repo, worktree, home), new PolicyGuard(paddockHome, repo));

        assertThat(strict.decide(ToolRequest.bash("rm -rf ../../../..", worktree))
                        .verdict())
                .isEqualTo(Verdict.DENY);
        assertThat(strict.decide(ToolRequest.bash("chmod -R 777 " + repo, worktree))
                        .verdict())
                .isEqualTo(Verdict.DENY);
        assertThat(strict.decide(new ToolRequest("Grep", tmp.toString(), worktree))
                        .verdict())
                .isEqualTo(Verdict.DENY);
    }

    @Test
    void ordinaryWorkIsLeftToThePolicy() {
        assertThat(bash("echo notes > notes.txt && cat README.md").verdict()).isEqualTo(Verdict.ALLOW);
        assertThat(tool("Write", "src/App.java").verdict()).isEqualTo(Verdict.ALLOW);
        assertThat(tool("Write", "docs/claude.md").verdict()).isEqualTo(Verdict.ALLOW);
        assertThat(bash("git status").verdict()).isEqualTo(Verdict.ALLOW);
    }

    @Test
    void configPathsOfABranchAreFoundAtAnyDepthAndInAnyCase() {
        assertThat(PolicyGuard.isConfigPath(".paddock/policy.json")).isTrue();
        assertThat(PolicyGuard.isConfigPath(".claude")).isTrue(); // a link or a submodule in its place
        assertThat(PolicyGuard.isConfigPath(".Claude/settings.json")).isTrue();
        assertThat(PolicyGuard.isConfigPath("packages/web/.claude/hooks/x.sh")).isTrue();
        assertThat(PolicyGuard.isConfigPath(".paddock./policy.json")).isTrue(); // Windows drops the dot
        assertThat(PolicyGuard.isConfigPath("src/claude/settings.json")).isFalse();
        assertThat(PolicyGuard.isConfigPath(".paddockrc")).isFalse();
        assertThat(PolicyGuard.isConfigPath("README.md")).isFalse();
    }

    @Test
    void aPolicyInsideASandboxFolderOrLinkedIntoOneIsNeverLoaded() throws IOException {
        Files.createDirectories(worktree.resolve(".paddock"));
        Files.writeString(PolicyFile.repositoryFile(worktree), ALLOW_ALL);

        Policy fromWorktree = PolicyFile.loadStandard(paddockHome, worktree, worktree, home);
        assertThat(fromWorktree.isBroken()).isTrue();
        assertThat(fromWorktree.broken())
                .contains("sandbox folder", PolicyFile.repositoryFile(repo).toString());

        Files.delete(PolicyFile.repositoryFile(repo));
        Files.delete(repo.resolve(".paddock"));
        Files.createSymbolicLink(repo.resolve(".paddock"), worktree.resolve(".paddock"));
        Policy linked = PolicyFile.loadStandard(paddockHome, repo, worktree, home);
        assertThat(linked.isBroken()).isTrue();
        assertThat(linked.broken()).contains("link", "sandbox folder");
        assertThat(new PolicyEngine(linked)
                        .decide(ToolRequest.bash("git status", worktree))
                        .verdict())
                .isEqualTo(Verdict.DENY);
    }

    @Test
    void globsAreJudgedByWhatTheyCouldName() throws IOException {
        Files.createDirectories(worktree.resolve(".claude"));
        Files.createDirectories(worktree.resolve("build"));
        assertBuiltInDeny(bash("cp x .cla?de/settings.json"));
        assertBuiltInDeny(bash("rm -r .c*"));
        // `*` reaches .claude only with dotglob on, which the agent may turn on: a person decides
        assertThat(bash("rm -r *").verdict()).isEqualTo(Verdict.ASK);
        assertThat(bash("rm -r build/*").verdict()).isEqualTo(Verdict.ALLOW);
        assertThat(bash("cat " + paddockHome.getParent() + "/paddock-stat?/api-token")
                        .verdict())
                .isEqualTo(Verdict.ASK);
        assertThat(bash("cat *.md").verdict()).isEqualTo(Verdict.ALLOW);
    }

    @Test
    void aFileNamedOnlyAtRunTimeIsAsked() {
        Decision d = bash("for d in .claude; do cp x $d/settings.json; done");
        assertThat(d.verdict()).isEqualTo(Verdict.ASK);
        assertThat(d.reason()).contains("only at run time");
    }

    @Test
    void fileToolsReachingTheHomeThroughProcNamesAreDenied() {
        String token = paddockHome.resolve("api-token").toString();
        assertBuiltInDeny(tool("Read", "/proc/self/root" + token));
        assertBuiltInDeny(tool("Write", "/proc/thread-self/root" + token));
        assertThat(tool("Read", "/proc/1/cwd/x").verdict()).isEqualTo(Verdict.ASK);
    }

    @Test
    void editorsThatReadTheirCommandsAreAsked() {
        for (String command : new String[] {
            "ed -s x <<< 'w .claude/x'", "ex -sc 'w! .claude/x|q' x", "vim -es x <<< 'w! .claude/x'", "vim -s keys x"
        }) {
            assertThat(bash(command).verdict()).as(command).isEqualTo(Verdict.ASK);
        }
    }

    @Test
    void aToolPathIsTrimmedAsTheAgentsTrimIt() {
        // JavaScript's trim() drops no-break spaces and the byte order mark; String.strip() keeps them
        assertBuiltInDeny(tool("Grep", "\u00a0" + paddockHome));
        assertBuiltInDeny(tool("Grep", "\ufeff" + paddockHome + "\u202f"));
        assertThat(PolicyEngine.trim("\u00a0 x \u3000")).isEqualTo("x");
    }

    @Test
    void aSearchWithoutAPathSearchesTheWorkingDirectory() {
        Decision d = engine.decide(new ToolRequest("Grep", "", paddockHome.getParent()));
        assertThat(d.verdict()).as(d.reason()).isEqualTo(Verdict.ASK);
        assertThat(engine.decide(new ToolRequest("Grep", "", worktree)).verdict())
                .isEqualTo(Verdict.ALLOW);
    }

    @Test
    void patchProgramsAreAsked() {
        for (String command : new String[] {
            "apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: .claude/x\n+{}\n*** End Patch\nPATCH\n",
            "patch -p1 < fix.diff"
        }) {
            assertThat(bash(command).verdict()).as(command).isEqualTo(Verdict.ASK);
        }
    }
}
