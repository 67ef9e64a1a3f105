package dev.paddock.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Precedence deny > ask > allow, the unmatched setting, and merging the global and repository files. */
class PolicyPrecedenceTest {
    @TempDir
    Path tmp;

    private Path home;
    private Path repo;
    private Path global;

    @BeforeEach
    void setUp() throws IOException {
        home = Files.createDirectories(tmp.resolve("home"));
        repo = Files.createDirectories(tmp.resolve("repo"));
        global = PolicyFile.globalFile(Files.createDirectories(tmp.resolve("paddock")));
    }

    private Decision decide(String command) {
        Policy p = PolicyFile.load(PolicyFile.standardFiles(global.getParent(), repo), repo, home);
        assertThat(p.broken()).isNull();
        return new PolicyEngine(p).decide(ToolRequest.bash(command, repo));
    }

    private void write(Path file, String json) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, json);
    }

    @Test
    void denyBeatsAskBeatsAllowWhateverTheOrderInTheFile() throws IOException {
        write(global, """
                {"permissions": {"allow": ["Bash(aws:*)", "Bash(git push:*)"],
                                 "ask": ["Bash(git push:*)", "Bash(aws s3:*)"],
                                 "deny": ["Bash(aws s3 rm:*)"]}}""");

        assertThat(decide("aws s3 rm s3://b/k").verdict()).isEqualTo(Verdict.DENY);
        assertThat(decide("aws s3 ls").verdict()).isEqualTo(Verdict.ASK);
        assertThat(decide("aws ec2 describe-instances").verdict()).isEqualTo(Verdict.ALLOW);
        Decision push = decide("git push");
        assertThat(push.verdict()).isEqualTo(Verdict.ASK);
        assertThat(push.list()).isEqualTo(RuleList.ASK);
    }

    @Test
    void onATieTheReasonNamesThePartARuleDecided() throws IOException {
        write(global, "{\"permissions\": {\"ask\": [\"Bash(git push:*)\"]}}");

        Decision d = decide("cd src && git push --force origin main");

        assertThat(d.verdict()).isEqualTo(Verdict.ASK);
        assertThat(d.rule().rule()).hasToString("Bash(git push:*)");
        assertThat(d.reason()).startsWith("`git push --force origin main` matches the ask rule Bash(git push:*)");
    }

    @Test
    void aRepositoryRuleCannotLoosenAGlobalDeny() throws IOException {
        write(global, "{\"permissions\": {\"deny\": [\"Bash(git push --force:*)\"]}}");
        write(PolicyFile.repositoryFile(repo), "{\"permissions\": {\"allow\": [\"Bash(git push:*)\"]}}");

        Decision forced = decide("git push -f");
        assertThat(forced.verdict()).isEqualTo(Verdict.DENY);
        assertThat(forced.source()).isEqualTo(global.toString());
        Decision plain = decide("git push origin main");
        assertThat(plain.verdict()).isEqualTo(Verdict.ALLOW);
        assertThat(plain.source()).isEqualTo(PolicyFile.repositoryFile(repo).toString());
    }

    @Test
    void unmatchedIsAskedByDefaultAndDeniedWhenAFileSaysSo() throws IOException {
        write(global, "{\"permissions\": {\"allow\": [\"Bash(ls)\"]}}");
        Decision asked = decide("make");
        assertThat(asked.verdict()).isEqualTo(Verdict.ASK);
        assertThat(asked.rule()).isNull();
        assertThat(asked.reason()).isEqualTo("no rule matches `make`; unmatched requests are asked");

        write(PolicyFile.repositoryFile(repo), "{\"unmatched\": \"deny\"}");
        assertThat(decide("make").verdict()).isEqualTo(Verdict.DENY);
        assertThat(decide("ls").verdict()).isEqualTo(Verdict.ALLOW);
        assertThat(decide("eval ls").verdict())
                .as("unresolvable follows the unmatched setting")
                .isEqualTo(Verdict.DENY);
    }

    @Test
    void theStrictestPartDecidesACompoundCommand() throws IOException {
        write(
                global,
                "{\"permissions\": {\"allow\": [\"Bash(ls)\", \"Bash(pwd)\"], \"ask\": [\"Bash(make)\"],"
                        + " \"deny\": [\"Bash(shutdown:*)\"]}}");

        Decision all = decide("ls && pwd");
        assertThat(all.verdict()).isEqualTo(Verdict.ALLOW);
        assertThat(all.reason()).startsWith("all 2 parts are allowed");
        Decision mixed = decide("ls; make; pwd");
        assertThat(mixed.verdict()).isEqualTo(Verdict.ASK);
        assertThat(mixed.rule().text()).isEqualTo("Bash(make)");
        Decision denied = decide("make | shutdown now; ls");
        assertThat(denied.verdict()).isEqualTo(Verdict.DENY);
        assertThat(denied.reason())
                .contains("`shutdown now` matches the deny rule Bash(shutdown:*)")
                .endsWith("(the strictest of 3 parts)");
    }

    @Test
    void aBareToolNameMatchesEveryUseButNotTheFilesACommandWrites() throws IOException {
        write(global, "{\"permissions\": {\"allow\": [\"Bash\"], \"deny\": [\"Edit(~/.bashrc)\"]}}");

        assertThat(decide("anything --at all | goes").verdict()).isEqualTo(Verdict.ALLOW);
        assertThat(decide("echo x > notes.txt").verdict())
                .as("the write is an Edit, unmatched")
                .isEqualTo(Verdict.ASK);
        assertThat(decide("echo 'alias ls=rm' >> ~/.bashrc").verdict()).isEqualTo(Verdict.DENY);
    }

    @Test
    void decisionsOfTypicalCommandsTakeWellUnderAMillisecond() throws Exception {
        StringBuilder allow = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            allow.append(i == 0 ? "" : ",").append("\"Bash(tool").append(i).append(" sub:*)\"");
        }
        write(
                global,
                "{\"permissions\": {\"allow\": [" + allow + ", \"Bash(git status)\"],"
                        + " \"deny\": [\"Bash(rm -rf:*)\"]}}");
        PolicyEngine engine = new PolicyEngine(PolicyFile.load(List.of(global), repo, home));
        ToolRequest req = ToolRequest.bash("cd src && git status | tool199 sub x > /dev/null", repo);
        for (int i = 0; i < 2_000; i++) {
            engine.decide(req); // warm up
        }
        int n = 2_000;
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            engine.decide(req);
        }
        double micros = (System.nanoTime() - start) / 1_000.0 / n;
        assertThat(engine.decide(req).verdict()).isEqualTo(Verdict.ASK); // cd has no rule
        assertThat(micros).as("microseconds per decision with 201 rules").isLessThan(1_000);
    }
}
