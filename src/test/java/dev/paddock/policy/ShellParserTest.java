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

    /** The words of the commands that run a program (not those of assignments alone). */
    private static List<List<String>> commands(String source) {
        return ShellParser.parse(source).commands().stream()
                .filter(c -> !c.words().isEmpty())
                .map(SimpleCommand::values)
                .toList();
    }

    /** The names assigned, in order, by the commands that only assign. */
    private static List<String> assigned(String source) {
        return ShellParser.parse(source).commands().stream()
                .filter(c -> c.words().isEmpty())
                .flatMap(c -> c.assignments().stream())
                .map(w -> w.value().substring(0, w.value().indexOf('=')))
                .toList();
    }

    @Test
    void namesSetOtherwiseThanByAnAssignmentAreListedAsAssignments() {
        assertThat(assigned("for HOME in x; do :; done; select PATH in y; do :; done; exec {GIT_DIR}>f 3>g"))
                .containsExactly("HOME", "PATH", "GIT_DIR");
        assertThat(assigned("coproc HOME { ls; }")).containsExactly("HOME", "HOME_PID");
        assertThat(commands("coproc HOME { ls; }")).containsExactly(List.of("ls"));
        assertThat(assigned(": ${HOME:=a} ${CDPATH=b} ${x:-c}")).containsExactly("HOME", "CDPATH");
        assertThat(commands("exec {fd}>out")).containsExactly(List.of("exec"));
    }

    @Test
    void everyOperatorSeparatesCommands() {
        assertThat(commands("a && b || c; d | e & f |& g\nh"))
                .containsExactly(
                        List.of("a"),
                        List.of("b"),
                        List.of("c"),
                        List.of("d"),
                        List.of("e"),
                        List.of("f"),
                        List.of("g"),
                        List.of("h"));
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
                .containsExactly(
                        List.of("date", "+%s"),
                        List.of("whoami"),
                        List.of("id", "-u"),
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
                .extracting(l -> l.get(0))
                .containsExactly("x", "y", "z", "w", "v");
    }

    @Test
    void redirectionsAreKeptWithTheirTargets() {
        SimpleCommand c = ShellParser.parse("cmd <in 2>err >>out &>all 2>&1 <<<word")
                .commands()
                .get(0);
        assertThat(c.values()).containsExactly("cmd");
        assertThat(c.redirects())
                .extracting(r -> r.operator() + " " + r.target().value() + " " + r.writesFile())
                .containsExactly(
                        "< in false", "> err true", ">> out true", "&> all true", ">& 1 false", "<<< word false");
    }

    @Test
    void assignmentsBeforeTheProgramAreSeparated() {
        SimpleCommand c =
                ShellParser.parse("A=1 B+=2 C[0]=3 prog D=4").commands().get(0);
        assertThat(c.assignments()).extracting(w -> w.value()).containsExactly("A=1", "B+=2", "C[0]=3");
        assertThat(c.values()).containsExactly("prog", "D=4");
    }

    @Test
    void hereDocumentBodiesAreSkippedAndTheirSubstitutionsParsedWhenUnquoted() {
        ShellScript s = ShellParser.parse("cat <<EOF | sh\nrm -rf / $(hostname)\nEOF\nls");
        assertThat(s.commands())
                .extracting(SimpleCommand::values)
                .containsExactly(List.of("cat"), List.of("sh"), List.of("ls"), List.of("hostname"));
        assertThat(s.problems()).isEmpty();
        assertThat(commands("cat <<'EOF'\n$(hostname)\nEOF")).containsExactly(List.of("cat"));
        assertThat(commands("cat <<-EOF\n\t$(x)\n\tEOF\nafter"))
                .containsExactly(List.of("cat"), List.of("after"), List.of("x"));
    }

    @Test
    void unreadableInputIsReportedAndWhatCameBeforeIsKept() {
        ShellScript s = ShellParser.parse("rm -rf x; echo \"oops");
        assertThat(s.commands()).extracting(SimpleCommand::values).first().isEqualTo(List.of("rm", "-rf", "x"));
        assertThat(s.problems()).containsExactly("unterminated double quote");
        assertThat(ShellParser.parse("echo 'x").problems()).containsExactly("unterminated single quote");
        assertThat(ShellParser.parse("echo $(ls").problems())
                .singleElement()
                .asString()
                .startsWith("unterminated command substitution");
        assertThat(ShellParser.parse("cat <<EOF\nbody").problems())
                .containsExactly("here-document without its end marker `EOF`");
        assertThat(ShellParser.parse("(ls").problems()).containsExactly("subshell `(` without its `)`");
        assertThat(ShellParser.parse("ls )").problems()).containsExactly("unmatched `)`");
    }

    @Test
    void expansionsAndGlobsAreFlaggedOnTheirWords() {
        SimpleCommand c = ShellParser.parse("$X ${IFS} '$Y' *.txt '*' {a,b} x{1..3} ~/f")
                .commands()
                .get(0);
        assertThat(c.words())
                .extracting(w -> w.expands() + "/" + w.glob() + "/" + w.braces())
                .containsExactly(
                        "true/false/false",
                        "true/false/false",
                        "false/false/false",
                        "false/true/false",
                        "false/false/false",
                        "false/false/true",
                        "false/false/true",
                        "false/false/false");
    }

    @Test
    void processSubstitutionIsParsedAndReported() {
        ShellScript s = ShellParser.parse("diff <(ls a) >(wc -l)");
        assertThat(s.commands())
                .extracting(SimpleCommand::values)
                .containsExactly(List.of("ls", "a"), List.of("wc", "-l"), List.of("diff", "<(ls a)", ">(wc -l)"));
        assertThat(s.problems()).hasSize(2).allMatch(p -> p.startsWith("process substitution"));
    }

    @Test
    void commentsAndLineContinuationsAreUnderstood() {
        assertThat(commands("ls \\\n  -la # rm -rf /\necho a#b"))
                .containsExactly(List.of("ls", "-la"), List.of("echo", "a#b"));
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
    void aCarriageReturnStaysInTheWordAsInBash() {
        assertThat(commands("ls\r -la")).containsExactly(List.of("ls\r", "-la"));
    }

    @Test
    void ansiCQuotesKeepUnknownEscapesAndEndAtANul() {
        assertThat(commands("x $'\\q' $'a\\x00b'c $'\\x'")).containsExactly(List.of("x", "\\q", "ac", "\\x"));
    }

    @Test
    void aLoneBracketIsTheTestCommandNotAGlob() {
        SimpleCommand c = ShellParser.parse("[ -f x ]").commands().get(0);
        assertThat(c.words()).allMatch(w -> w.isStatic());
        assertThat(ShellParser.parse("ls [ab]").commands().get(0).words().get(1).glob())
                .isTrue();
    }

    @Test
    void quotesAfterTheEqualsSignStillMakeAnAssignment() {
        SimpleCommand c =
                ShellParser.parse("PS4='$(x)' A=\"b c\" ls 'B'=d").commands().get(0);
        assertThat(c.assignments()).extracting(w -> w.value()).containsExactly("PS4=$(x)", "A=b c");
        assertThat(c.values()).containsExactly("ls", "B=d");
    }

    @Test
    void anArrayAssignmentIsOneWordWhoseElementsAreParsed() {
        ShellScript s = ShellParser.parse("a=(1 \"b c\" $(d) [2]=e) ls");
        assertThat(s.commands()).extracting(SimpleCommand::values).containsExactly(List.of("d"), List.of("ls"));
        assertThat(s.commands().get(1).assignments())
                .singleElement()
                .extracting(w -> w.raw())
                .isEqualTo("a=(1 \"b c\" $(d) [2]=e)");
        assertThat(s.problems()).isEmpty();
        assertThat(ShellParser.parse("a=([x]=1)").problems())
                .singleElement()
                .asString()
                .contains("evaluates `x`");
    }

    @Test
    void specialParametersAreProblemsWhereverTheyAppear() {
        for (String p : List.of(
                "$_", "$0", "$1", "$@", "$*", "$#", "$?", "$$", "$!", "$-", "${_}", "${10}", "${#}", "\"$@\"",
                "${_@P}")) {
            assertThat(ShellParser.parse("ls " + p).problems()).as(p).anyMatch(x -> x.contains("special parameter"));
        }
        assertThat(ShellParser.parse("ls $x ${y} ${#z} ${z[0]} ${z[@]} ${!z[@]} ${!pre*} ${z:1:2} ${z%.c}")
                        .problems())
                .isEmpty();
    }

    @Test
    void reExpandingExpansionsAreProblems() {
        for (String e : List.of(
                "${!x}",
                "${x@P}",
                "${x@Q}",
                "${x@E}",
                "${x@A}",
                "${x[i]}",
                "${x:i}",
                "${x:0:n}",
                "$((x))",
                "$((x + 1))",
                "$[x]",
                "$(( $(cat f) ))",
                "$((a[1]))")) {
            assertThat(ShellParser.parse("ls " + e).problems()).as(e).isNotEmpty();
        }
        for (String clean : List.of("$((1 + 2))", "$[3 * 4]", "$((16#ff))", "$((0x1F << 2))", "${#x}")) {
            assertThat(ShellParser.parse("ls " + clean).problems()).as(clean).isEmpty();
        }
    }

    @Test
    void theWordsOfParameterExpansionsAreScannedForSubstitutions() {
        assertThat(commands("ls ${x:-$(a)} ${x/$(b)/y} \"${x:-'$(c)'}\" ${x:+`d`}"))
                .extracting(l -> l.get(0))
                .containsExactly("a", "b", "c", "d", "ls");
    }

    @Test
    void arithmeticCommandsAndConditionalsEvaluateOnlyLiterals() {
        assertThat(ShellParser.parse("(( 1 + 2 )); [[ 3 -eq 3 ]]; [[ ${#a[@]} -gt 0 ]]; [[ -v name ]]")
                        .problems())
                .isEmpty();
        for (String c : List.of(
                "(( x ))",
                "for ((i = 0; i < 3; i++)); do :; done",
                "[[ $x -eq 1 ]]",
                "[[ 1 -lt n ]]",
                "[[ -v 'a[$(x)]' ]]",
                "[[ -v $n ]]")) {
            assertThat(ShellParser.parse(c).problems()).as(c).isNotEmpty();
        }
        assertThat(commands("(( $(a) )); [[ $(b) -eq 1 ]]"))
                .extracting(l -> l.get(0))
                .containsExactly("a", "b");
    }

    @Test
    void aHereDocumentInsideASubstitutionIsSkippedWhenLookingForItsEnd() {
        ShellScript s = ShellParser.parse("git commit -m \"$(cat <<'EOF'\nFix: don't ) crash\nEOF\n)\" && ls");
        assertThat(s.problems()).isEmpty();
        assertThat(s.commands()).extracting(l -> l.values().get(0)).containsExactly("cat", "git", "ls");
    }

    @Test
    void commandsInLoopsAndFunctionBodiesMayRunMoreThanOnce() {
        ShellScript s = ShellParser.parse("a; while b; do c; done; d; f() { e; }; g; for x in 1; do h $(i); done; j");
        assertThat(s.commands())
                .filteredOn(c -> !c.words().isEmpty())
                .extracting(c -> c.values().get(0) + "=" + c.repeated())
                .containsExactly(
                        "a=false", "b=true", "c=true", "d=false", "e=true", "g=false", "i=true", "h=true", "j=false");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void nestingTensOfThousandsDeepIsAProblemNotAStackOverflow() {
        for (String unit :
                List.of("( ", "{ ", "$(", "\"$(", "${x:-", "$((", "((", "$[", "case x in x) ", "a=(", "${x:-\"${y:-")) {
            String deep = unit.repeat(50_000) + "ls";
            ShellScript s = ShellParser.parse(deep);
            assertThat(s.problems()).as(unit).isNotEmpty();
        }
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void arbitraryInputNeverThrowsOrHangsAndIsNeverAllowedWhenUnreadable() {
        String alphabet = "ab $`'\"\\(){}[]<>|&;#*?~=\n\t-!0123456789";
        Random random = new Random(20261130L);
        PolicyEngine engine = new PolicyEngine(Policy.of(
                List.of(new PolicyRule(parse("Bash"), RuleList.ALLOW, "test")), Verdict.ASK, null, Path.of("/home/u")));
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
        assertThat(unreadable)
                .as("the generator produces unreadable input often")
                .isGreaterThan(1_000);
    }
}
