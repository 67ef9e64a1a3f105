package dev.paddock.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.policy.shell.ShellParser;
import dev.paddock.policy.shell.ShellScript;
import dev.paddock.policy.shell.SimpleCommand;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The shell parser on its own: which simple commands a command line runs, and what it cannot read. */
class ShellParserTest {
    private static Rule parse(String rule) {
        try {
            return RuleParser.parse(rule);
        } catch (RuleSyntaxException e) {
            throw new AssertionError(e);
        }
    }

    private static List<List<String>> commands(String source) {
        return ShellParser.parse(source).commands().stream().map(SimpleCommand::values).toList();
    }

    @Test
    void everyOperatorSeparatesCommands() {
        assertThat(commands("a && b || c; d | e & f |& g\nh"))
                .containsExactly(List.of("a"), List.of("b"), List.of("c"), List.of("d"), List.of("e"), List.of("f"),
                        List.of("g"), List.of("h"));
    }

    @Test
    void quotesAndEscapesAreRemovedButOperatorsInsideThemStayText() {
        assertThat(commands("echo 'a && b' \"c; d\" e\\ f 'it'\\''s'"))
                .containsExactly(List.of("echo", "a && b", "c; d", "e f", "it's"));
    }

    @Test
    void ansiCQuotesAreDecoded() {
        assertThat(commands("$'\\x72\\155' $'a\\tb' $'\\u00e9'")).containsExactly(List.of("rm", "a\tb", "é"));
    }

    @Test
    void substitutionsRunBeforeTheCommandThatUsesThem() {
        assertThat(commands("echo $(date +%s) `whoami` \"$(id -u)\""))
                .containsExactly(List.of("date", "+%s"), List.of("whoami"), List.of("id", "-u"),
                        List.of("echo", "$(date +%s)", "`whoami`", "$(id -u)"));
    }

    @Test
    void nestedSubstitutionsAreParsedAtEveryLevel() {
        assertThat(commands("a $(b $(c \"$(d)\"))")).extracting(l -> l.get(0)).containsExactly("d", "c", "b", "a");
    }

    @Test
    void subshellsGroupsAndControlStructuresAreFlattened() {
        assertThat(commands("(a; b) && { c; } ; if d; then e; elif f; then g; else h; fi; while i; do j; done;"
                + " for x in 1 2; do k $x; done; until l; do m; done"))
                .extracting(l -> l.get(0))
                .containsExactly("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m");
    }

    @Test
    void caseItemsAndFunctionBodiesAreParsed() {
        assertThat(commands("case $1 in a|b) x;; (c) y ;& *) z;;& esac; f() { w; }; function g { v; }"))
                .extracting(l -> l.get(0)).containsExactly("x", "y", "z", "w", "v");
    }

    @Test
    void redirectionsAreKeptWithTheirTargets() {
        SimpleCommand c = ShellParser.parse("cmd <in 2>err >>out &>all 2>&1 <<<word").commands().get(0);
        assertThat(c.values()).containsExactly("cmd");
        assertThat(c.redirects()).extracting(r -> r.operator() + " " + r.target().value() + " " + r.writesFile())
                .containsExactly("< in false", "> err true", ">> out true", "&> all true", ">& 1 false",
                        "<<< word false");
    }

    @Test
    void assignmentsBeforeTheProgramAreSeparated() {
        SimpleCommand c = ShellParser.parse("A=1 B+=2 C[0]=3 prog D=4").commands().get(0);
        assertThat(c.assignments()).extracting(w -> w.value()).containsExactly("A=1", "B+=2", "C[0]=3");
        assertThat(c.values()).containsExactly("prog", "D=4");
    }

    @Test
    void hereDocumentBodiesAreSkippedAndTheirSubstitutionsParsedWhenUnquoted() {
        ShellScript s = ShellParser.parse("cat <<EOF | sh\nrm -rf / $(hostname)\nEOF\nls");
        assertThat(s.commands()).extracting(SimpleCommand::values)
                .containsExactly(List.of("cat"), List.of("sh"), List.of("ls"), List.of("hostname"));
        assertThat(s.problems()).isEmpty();
        assertThat(commands("cat <<'EOF'\n$(hostname)\nEOF")).containsExactly(List.of("cat"));
        assertThat(commands("cat <<-EOF\n\t$(x)\n\tEOF\nafter")).containsExactly(List.of("cat"), List.of("after"),
                List.of("x"));
    }

    @Test
    void unreadableInputIsReportedAndWhatCameBeforeIsKept() {
        ShellScript s = ShellParser.parse("rm -rf x; echo \"oops");
        assertThat(s.commands()).extracting(SimpleCommand::values).first().isEqualTo(List.of("rm", "-rf", "x"));
        assertThat(s.problems()).containsExactly("unterminated double quote");
        assertThat(ShellParser.parse("echo 'x").problems()).containsExactly("unterminated single quote");
        assertThat(ShellParser.parse("echo $(ls").problems()).singleElement().asString()
                .startsWith("unterminated command substitution");
        assertThat(ShellParser.parse("cat <<EOF\nbody").problems())
                .containsExactly("here-document without its end marker `EOF`");
        assertThat(ShellParser.parse("(ls").problems()).containsExactly("subshell `(` without its `)`");
        assertThat(ShellParser.parse("ls )").problems()).containsExactly("unmatched `)`");
    }

    @Test
    void expansionsAndGlobsAreFlaggedOnTheirWords() {
        SimpleCommand c = ShellParser.parse("$X ${IFS} '$Y' *.txt '*' {a,b} x{1..3} ~/f").commands().get(0);
        assertThat(c.words()).extracting(w -> w.expands() + "/" + w.glob() + "/" + w.braces())
                .containsExactly("true/false/false", "true/false/false", "false/false/false", "false/true/false",
                        "false/false/false", "false/false/true", "false/false/true", "false/false/false");
    }

    @Test
    void processSubstitutionIsParsedAndReported() {
        ShellScript s = ShellParser.parse("diff <(ls a) >(wc -l)");
        assertThat(s.commands()).extracting(SimpleCommand::values)
                .containsExactly(List.of("ls", "a"), List.of("wc", "-l"), List.of("diff", "<(ls a)", ">(wc -l)"));
        assertThat(s.problems()).hasSize(2).allMatch(p -> p.startsWith("process substitution"));
    }

    @Test
    void commentsAndLineContinuationsAreUnderstood() {
        assertThat(commands("ls \\\n  -la # rm -rf /\necho a#b")).containsExactly(List.of("ls", "-la"),
                List.of("echo", "a#b"));
    }

    @Test
    void deepNestingIsAProblemNotACrash() {
        String deep = "x";
        for (int i = 0; i < ShellParser.MAX_DEPTH + 3; i++) {
            deep = "$(echo " + deep + ")";
        }
        assertThat(ShellParser.parse(deep).problems()).anyMatch(p -> p.contains("nested more than"));
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void arbitraryInputNeverThrowsOrHangsAndIsNeverAllowedWhenUnreadable() {
        String alphabet = "ab $`'\"\\(){}[]<>|&;#*?~=\n\t-!0123456789";
        Random random = new Random(20261130L);
        PolicyEngine engine = new PolicyEngine(Policy.of(List.of(new PolicyRule(parse("Bash"), RuleList.ALLOW, "test")),
                Verdict.ASK, null, Path.of("/home/u")));
        int unreadable = 0;
        for (int i = 0; i < 5_000; i++) {
            StringBuilder sb = new StringBuilder();
            int n = random.nextInt(40);
            for (int k = 0; k < n; k++) {
                sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String input = sb.toString();
            ShellScript script = ShellParser.parse(input);
            assertThat(script.commands()).as(input).doesNotContainNull();
            Decision d = engine.decide(ToolRequest.bash(input, Path.of("/w")));
            if (!engine.analyze(input, Path.of("/w")).problems().isEmpty()) {
                unreadable++;
                assertThat(d.verdict()).as(input).isNotEqualTo(Verdict.ALLOW); // even under a bare Bash allow
            }
        }
        assertThat(unreadable).as("the generator produces unreadable input often").isGreaterThan(1_000);
    }
}
