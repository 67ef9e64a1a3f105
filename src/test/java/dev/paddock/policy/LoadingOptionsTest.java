package dev.paddock.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.policy.LoadingOptions.EnvEffect;
import dev.paddock.policy.LoadingOptions.Option;
import dev.paddock.policy.LoadingOptions.Variable;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every entry of {@link LoadingOptions}, tried: a risky variable or option keeps even a command its rule allows
 * from being allowed, with the entry's reason among the problems; a harmless variable with a plain value does
 * not; shell options the analysis knows harmless stay allowed.
 */
class LoadingOptionsTest {
    private static final Path REPO = Path.of("/home/u/repo");
    private static final Path HOME = Path.of("/home/u");

    private static PolicyEngine engine(String... allow) {
        List<PolicyRule> rules = new java.util.ArrayList<>();
        try {
            for (String a : allow) {
                rules.add(new PolicyRule(RuleParser.parse(a), RuleList.ALLOW, "test"));
            }
            rules.add(new PolicyRule(RuleParser.parse("Edit(./.git/**)"), RuleList.DENY, "test"));
        } catch (RuleSyntaxException e) {
            throw new AssertionError(e);
        }
        return new PolicyEngine(Policy.of(rules, Verdict.ASK, REPO, HOME));
    }

    private static Decision decide(PolicyEngine e, String command) {
        return e.decide(ToolRequest.bash(command, REPO));
    }

    static Stream<Variable> variables() {
        return LoadingOptions.VARIABLES.stream();
    }

    static Stream<Option> options() {
        return LoadingOptions.OPTIONS.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variables")
    void eachVariableIsFoundByItsOwnEntry(Variable v) {
        assertThat(LoadingCheck.variable(v.example()))
                .as("an entry before it shadows it")
                .isEqualTo(v);
        assertThat(v.reason()).isNotBlank();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variables")
    void aRiskyVariableKeepsAnAllowedCommandAskedAndAHarmlessOneDoesNot(Variable v) {
        PolicyEngine e = engine("Bash(ls:*)");
        String name = v.example();
        if (v.effect() == EnvEffect.HARMLESS) {
            assertThat(decide(e, name + "=1 ls").verdict()).isEqualTo(Verdict.ALLOW);
            assertThat(decide(e, "env " + name + "=1 ls").verdict()).isEqualTo(Verdict.ALLOW);
            assertThat(decide(e, name + "=$X ls").verdict())
                    .as("a value only known at run time")
                    .isEqualTo(Verdict.ASK);
            assertThat(decide(e, name + "=../x/y.z ls").verdict()).as("a path").isEqualTo(Verdict.ASK);
            assertThat(decide(e, name + "=/tmp/x ls").verdict())
                    .as("an absolute path")
                    .isEqualTo(Verdict.ASK);
            assertThat(decide(e, name + "=:/tmp/x ls").verdict())
                    .as("an absolute path")
                    .isEqualTo(Verdict.ASK);
            return;
        }
        for (String command :
                List.of(name + "=x ls", "env " + name + "=x ls", "export " + name + "=x; ls", name + "=x; ls")) {
            Decision d = decide(e, command);
            assertThat(d.verdict()).as(command + ": " + d.reason()).isNotEqualTo(Verdict.ALLOW);
            assertThat(e.analyze(command, REPO).problems()).as(command).anyMatch(p -> p.contains(v.reason()));
        }
        if (v.effect() == EnvEffect.WRITES_FILE) {
            Decision d = decide(e, name + "=.git/hooks/pre-commit ls");
            assertThat(d.verdict()).as(d.reason()).isEqualTo(Verdict.DENY);
            assertThat(d.rule().text()).isEqualTo("Edit(./.git/**)");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("options")
    void eachOptionKeepsACommandItsRuleAllowsAsked(Option o) {
        String program = o.example().split(" ")[0];
        PolicyEngine e = engine("Bash(" + program + ":*)");
        Decision d = decide(e, o.example());
        assertThat(d.verdict()).as(o.example() + ": " + d.reason()).isNotEqualTo(Verdict.ALLOW);
        assertThat(e.analyze(o.example(), REPO).problems()).as(o.example()).anyMatch(p -> p.contains(o.reason()));
        assertThat(o.reason()).isNotBlank();
    }

    @Test
    void aTimeZoneIsNamedUnderTheSystemsZoneDirectory() {
        PolicyEngine e = engine("Bash(ls:*)");
        for (String zone : List.of("UTC", "Europe/Paris", ":America/New_York", "Etc/GMT+2", "")) {
            assertThat(decide(e, "TZ=" + zone + " ls").verdict()).as(zone).isEqualTo(Verdict.ALLOW);
        }
        for (String path : List.of("/tmp/zone", ":/tmp/zone", "//x", "::/x", "../zone", "$Z")) {
            assertThat(decide(e, "TZ=" + path + " ls").verdict()).as(path).isEqualTo(Verdict.ASK);
        }
    }

    @Test
    void theShellsShareBashsEntries() {
        PolicyEngine e = engine("Bash");
        for (String shell : List.of("sh", "dash", "zsh", "ksh")) {
            assertThat(decide(e, shell + " -i -c ls").verdict()).as(shell).isEqualTo(Verdict.ASK);
            assertThat(decide(e, shell + " -c ls").verdict()).as(shell).isEqualTo(Verdict.ALLOW);
        }
    }

    @Test
    void gitDisplaySettingsAreHarmlessAndEveryOtherKeyIsAsked() {
        PolicyEngine e = engine("Bash(git status:*)");
        for (String key : List.of(
                "user.name=a",
                "user.email=a@b",
                "color.ui=always",
                "COLOR.status=never",
                "core.quotePath=false",
                "advice.statusHints=false")) {
            assertThat(decide(e, "git -c " + key + " status").verdict()).as(key).isEqualTo(Verdict.ALLOW);
        }
        for (String key : List.of(
                "core.fsmonitor=x",
                "include.path=f",
                "includeIf.gitdir:/.path=f",
                "alias.st=!x",
                "core.pager=x",
                "core.hooksPath=h",
                "core.worktree=/x",
                "safe.directory=*",
                "credential.helper=x",
                "diff.external=x")) {
            assertThat(decide(e, "git -c '" + key + "' status").verdict())
                    .as(key)
                    .isEqualTo(Verdict.ASK);
        }
    }

    @Test
    void harmlessShellOptionsStayAllowedAndOthersAreAsked() {
        PolicyEngine e = engine("Bash");
        for (String name : ShellOptions.HARMLESS_SET) {
            assertThat(decide(e, "set -o " + name + "; ls").verdict()).as(name).isEqualTo(Verdict.ALLOW);
            assertThat(decide(e, "bash -o " + name + " -c ls").verdict())
                    .as(name)
                    .isEqualTo(Verdict.ALLOW);
        }
        for (String name : ShellOptions.HARMLESS_SHOPT) {
            assertThat(decide(e, "shopt -s " + name + "; ls").verdict())
                    .as(name)
                    .isEqualTo(Verdict.ALLOW);
        }
        assertThat(decide(e, "set -euo pipefail; ls").verdict()).isEqualTo(Verdict.ALLOW);
        for (String risky : List.of(
                "set -o history",
                "set -o posix",
                "set -o allexport",
                "set -a",
                "set -k",
                "set -H",
                "shopt -s expand_aliases",
                "shopt -s extdebug",
                "shopt -s sourcepath",
                "bash -O extdebug -c",
                "bash -o keyword -c")) {
            assertThat(decide(e, risky + " ls").verdict()).as(risky).isEqualTo(Verdict.ASK);
        }
    }
}
