package dev.paddock.policy.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * What {@link ShellParser} checks in {@code [[ ... ]]}: nothing runs but the substitutions in its words, except
 * that the operands of {@code -eq -ne -lt -le -gt -ge} are evaluated as arithmetic and the operand of {@code -v} as
 * a variable name whose subscript is arithmetic: those must be integer literals (or lengths) and plain names.
 */
final class Conditionals {
    private static final Set<String> ARITHMETIC_TESTS = Set.of("-eq", "-ne", "-lt", "-le", "-gt", "-ge");
    private static final Pattern VARIABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\[(@|\\*|-?[0-9]+)])?");
    private static final Pattern LENGTH = Pattern.compile("\\$\\{#[A-Za-z_][A-Za-z0-9_]*(\\[[@*]])?}");

    private Conditionals() {}

    /** Checks the words between {@code [[} and {@code ]]}, with each substitution in them handed to {@code substitution}. */
    static void check(List<Token> tokens, Consumer<String> substitution, List<String> problems) {
        Word previous = null;
        String expect = null;
        for (Token t : tokens) {
            if (t.kind() != Token.Kind.WORD) {
                previous = null;
                expect = null;
                continue;
            }
            Word w = t.word();
            w.substitutions().forEach(substitution);
            if (!w.quoted() && ARITHMETIC_TESTS.contains(w.value())) {
                if (previous != null) {
                    arithmeticOperand(previous, substitution, problems);
                }
                expect = "arithmetic";
            } else if (!w.quoted() && w.value().equals("-v")) {
                expect = "name";
            } else {
                if ("arithmetic".equals(expect)) {
                    arithmeticOperand(w, substitution, problems);
                } else if ("name".equals(expect)
                        && !(w.isStatic() && VARIABLE_NAME.matcher(w.value()).matches())) {
                    problems.add("`[[ -v " + Snippet.of(w.raw()) + " ]]` evaluates the subscript of a name only"
                            + " known at run time as arithmetic");
                }
                expect = null;
                previous = w;
            }
        }
    }

    private static void arithmeticOperand(Word w, Consumer<String> substitution, List<String> problems) {
        if (w.isStatic()) {
            if (!Arithmetic.isLiteralInteger(w.value())) {
                List<String> subs = new ArrayList<>();
                Arithmetic.check(w.value(), "[[ " + w.raw() + " ]]", subs, problems, 0);
                subs.forEach(substitution);
            }
        } else if (!LENGTH.matcher(w.raw()).matches()
                && !LENGTH.matcher(w.raw().replace("\"", "")).matches()) {
            problems.add("`[[ ... " + Snippet.of(w.raw()) + " ... ]]` compares it as a number: bash evaluates its"
                    + " run-time value as arithmetic (an array subscript in it runs `$(...)`)");
        }
    }
}
