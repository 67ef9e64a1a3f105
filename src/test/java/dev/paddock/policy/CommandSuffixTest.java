package dev.paddock.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The suffix rule: a program Paddock does not model may run some of its arguments as a command, so a suffix of
 * its words that a deny or ask rule matches, or a command in one of its argument strings, keeps it from being
 * allowed, even when its own allow rule matches; programs known never to run their arguments are left alone.
 */
class CommandSuffixTest {
    private static final Path REPO = Path.of("/home/u/repo");
    private static final Path HOME = Path.of("/home/u");

    private static PolicyEngine engine(Verdict unmatched) {
        List<PolicyRule> rules = new java.util.ArrayList<>();
        try {
            for (String a : List.of("Bash(foo:*)", "Bash(echo:*)", "Bash(git status:*)", "Bash(cat:*)")) {
                rules.add(new PolicyRule(RuleParser.parse(a), RuleList.ALLOW, "test"));
            }
            rules.add(new PolicyRule(RuleParser.parse("Bash(rm -rf:*)"), RuleList.DENY, "test"));
            rules.add(new PolicyRule(RuleParser.parse("Bash(git push:*)"), RuleList.ASK, "test"));
        } catch (RuleSyntaxException e) {
            throw new AssertionError(e);
        }
        return new PolicyEngine(Policy.of(rules, unmatched, REPO, HOME));
    }

    private static Decision decide(String command) {
        return engine(Verdict.ASK).decide(ToolRequest.bash(command, REPO));
    }

    @Test
    void aSuffixADenyOrAskRuleMatchesIsAsked() {
        Decision d = decide("foo --quiet rm -rf build");
        assertThat(d.verdict()).isEqualTo(Verdict.ASK);
        assertThat(d.rule()).isNull();
        assertThat(d.reason()).contains("may run `rm -rf build`").contains("deny rule Bash(rm -rf:*)");
        assertThat(decide("foo x /usr/bin/git push origin").verdict()).isEqualTo(Verdict.ASK);
        assertThat(decide("foo x rm -r -f build").verdict())
                .as("flags in another order")
                .isEqualTo(Verdict.ASK);
        assertThat(decide("foo x rm -rf $DIR").verdict())
                .as("a run-time word later")
                .isEqualTo(Verdict.ASK);
    }

    @Test
    void aCommandInAnArgumentStringIsAsked() {
        assertThat(decide("foo -c 'ls; rm -rf build'").verdict()).isEqualTo(Verdict.ASK);
        assertThat(decide("foo --then='git push --force'").verdict()).isEqualTo(Verdict.ASK);
        assertThat(decide("foo 'bar \"$(rm -rf build)\"'").verdict()).isEqualTo(Verdict.ASK);
        assertThat(decide("foo -c 'sh -c \"rm -rf build\"'").verdict())
                .as("nested strings")
                .isEqualTo(Verdict.ASK);
    }

    @Test
    void programsThatNeverRunTheirArgumentsAndHarmlessSuffixesStayAllowed() {
        assertThat(decide("foo build --watch src").verdict()).isEqualTo(Verdict.ALLOW);
        assertThat(decide("echo rm -rf build").verdict())
                .as("echo prints its words")
                .isEqualTo(Verdict.ALLOW);
        assertThat(decide("cat rm -rf").verdict()).as("cat's words are files").isEqualTo(Verdict.ALLOW);
        assertThat(decide("git status -- 'rm -rf build'").verdict()).isEqualTo(Verdict.ALLOW);
        assertThat(decide("foo 'a b; c d'").verdict()).isEqualTo(Verdict.ALLOW);
    }

    @Test
    void underAPolicyThatDeniesUnmatchedRequestsTheSuffixIsDenied() {
        Decision d = engine(Verdict.DENY).decide(ToolRequest.bash("foo rm -rf build", REPO));
        assertThat(d.verdict()).isEqualTo(Verdict.DENY);
    }

    @Test
    void tooManyCandidateSuffixesAreAskedAndLongHarmlessCommandsStayAllowed() {
        assertThat(decide("foo " + "rm ".repeat(600)).reason()).contains("more than 512 words");
        assertThat(decide("foo " + "x ".repeat(100_000)).verdict()).isEqualTo(Verdict.ALLOW);
    }
}
