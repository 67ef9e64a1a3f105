package dev.paddock.policy;

import dev.paddock.policy.shell.Snippet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The suffix rule of {@link PolicyEngine}: a command whose program may run some of its arguments as a command (see
 * {@link BashAnalysis#carriers()}) is asked when a suffix of its words starting at a word a deny or ask rule
 * names ({@code flock f rm -rf x}: {@code rm -rf x}) is matched by such a rule, and so is a command found in an
 * argument string ({@link BashAnalysis#embedded()}). Asked, not denied: the analysis does not know that the
 * program runs it. At most {@link #MAX_LATENT} suffixes are built; past that the command is asked.
 */
final class LatentCommands {
    /** Most suffixes and embedded commands judged by the suffix rule per request; past that it is asked. */
    static final int MAX_LATENT = 512;

    private final RuleIndex rules;
    private final Verdict unmatched;

    LatentCommands(RuleIndex rules, Verdict unmatched) {
        this.rules = rules;
        this.unmatched = unmatched;
    }

    /** Gives {@code parts} a decision for each latent command of {@code a} a deny or ask rule matches. */
    void judge(BashAnalysis a, Consumer<Decision> parts) {
        int budget = MAX_LATENT;
        for (Invocation e : a.embedded()) {
            if (--budget < 0) {
                parts.accept(tooManyLatent());
                return;
            }
            Decision d = strictRule(e);
            if (d != null) {
                parts.accept(latent(e, e, d));
            }
        }
        for (Invocation c : a.carriers()) {
            List<String> words = c.words();
            for (int i = 1; i < words.size(); i++) {
                String name = BashAnalyzer.baseName(words.get(i));
                if (c.dynamic().contains(i)
                        || name.isEmpty()
                        || name.startsWith("-")
                        || !rules.namedByStrictRule(name)) {
                    continue;
                }
                if (--budget < 0) {
                    parts.accept(tooManyLatent());
                    return;
                }
                Set<Integer> dynamic = new HashSet<>();
                for (int d : c.dynamic()) {
                    if (d >= i) {
                        dynamic.add(d - i);
                    }
                }
                List<String> suffixWords = new ArrayList<>(words.subList(i, words.size()));
                suffixWords.set(0, name);
                Invocation suffix = new Invocation(suffixWords, c.openEnded(), dynamic);
                Decision d = strictRule(suffix);
                if (d != null) {
                    parts.accept(latent(c, suffix, d));
                    break;
                }
            }
        }
    }

    /** The first deny, then ask, Bash rule (with a specifier) that matches {@code inv} or could; else null. */
    private Decision strictRule(Invocation inv) {
        PolicyRule[][] byList = rules.bashRulesFor(inv);
        for (RuleList list : RuleList.STRICT) {
            for (PolicyRule r : byList[list.ordinal()]) {
                if (r.rule().specifier() != null
                        && (r.rule().matchesCommand(inv, true) || r.rule().couldMatchCommand(inv))) {
                    return new Decision(list.verdict(), r.describe(), r);
                }
            }
        }
        return null;
    }

    private Decision latent(Invocation carrier, Invocation inner, Decision rule) {
        String how = carrier == inner
                ? "`" + Snippet.of(inner.text()) + "` is in an argument of a program that may" + " run it as a command"
                : "`" + Snippet.of(carrier.text()) + "` may run `" + Snippet.of(inner.text())
                        + "` (Paddock does not know which of `"
                        + carrier.words().get(0) + "`'s arguments it runs)";
        return new Decision(
                Verdict.ASK.strictest(unmatched),
                "cannot be judged before it runs: " + how + ", which the " + rule.reason() + " matches",
                null);
    }

    private Decision tooManyLatent() {
        return new Decision(
                Verdict.ASK.strictest(unmatched),
                "cannot be judged before it runs: more than " + MAX_LATENT
                        + " words that could start a command a deny or ask rule matches",
                null);
    }
}
