package dev.paddock.policy;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The rules of a {@link Policy} indexed for {@link PolicyEngine}: per list, the rules of each request tool and the
 * Bash rules that may match each program, in list order. Thread-safe (the per-tool cache is concurrent).
 */
final class RuleIndex {
    /** Most distinct request tools whose rule selections are kept (tool names come from requests). */
    private static final int MAX_CACHED_TOOLS = 256;

    private final Map<RuleList, List<PolicyRule>> lists = new EnumMap<>(RuleList.class);
    /** Per list: the rules that apply to a request tool, in list order (filled on first use). */
    private final Map<RuleList, Map<String, PolicyRule[]>> byTool = new EnumMap<>(RuleList.class);
    /** Per list: the Bash rules that may match a program run (its own rules and the any-program ones), in order. */
    private final Map<RuleList, Map<String, PolicyRule[]>> bashByProgram = new EnumMap<>(RuleList.class);
    /** Per list: the Bash rules that may match any program (bare {@code Bash}, wildcards), in order. */
    private final Map<RuleList, PolicyRule[]> bashAnyProgram = new EnumMap<>(RuleList.class);
    /**
     * {@link #bashByProgram} by program, indexed by list ordinal (the any-program rules where a list has none of its
     * own for the program): one lookup for all three lists.
     */
    private final Map<String, PolicyRule[][]> bashByProgramAllLists = new HashMap<>();
    /** {@link #bashAnyProgram} indexed by list ordinal. */
    private final PolicyRule[][] bashAnyProgramAllLists = new PolicyRule[RuleList.values().length][];

    RuleIndex(Policy policy) {
        for (RuleList l : RuleList.values()) {
            List<PolicyRule> list = policy.list(l);
            lists.put(l, list);
            byTool.put(l, new ConcurrentHashMap<>());
            List<PolicyRule> any = new ArrayList<>();
            Map<String, List<PolicyRule>> programs = new HashMap<>();
            for (PolicyRule r : list) {
                if (r.rule().appliesTo("Bash")) {
                    String program = r.rule().bashProgram();
                    if (program == null) {
                        any.add(r);
                    } else {
                        programs.putIfAbsent(program, new ArrayList<>());
                    }
                }
            }
            Map<String, PolicyRule[]> index = new HashMap<>();
            for (String program : programs.keySet()) {
                List<PolicyRule> rules = new ArrayList<>();
                for (PolicyRule r : list) {
                    if (r.rule().appliesTo("Bash")
                            && (r.rule().bashProgram() == null
                                    || program.equals(r.rule().bashProgram()))) {
                        rules.add(r);
                    }
                }
                index.put(program, rules.toArray(PolicyRule[]::new));
            }
            bashByProgram.put(l, index);
            bashAnyProgram.put(l, any.toArray(PolicyRule[]::new));
        }
        for (RuleList l : RuleList.values()) {
            bashAnyProgramAllLists[l.ordinal()] = bashAnyProgram.get(l);
            for (String program : bashByProgram.get(l).keySet()) {
                bashByProgramAllLists.computeIfAbsent(program, p -> {
                    PolicyRule[][] byList = new PolicyRule[RuleList.values().length][];
                    for (RuleList k : RuleList.values()) {
                        PolicyRule[] own = bashByProgram.get(k).get(p);
                        byList[k.ordinal()] = own != null ? own : bashAnyProgram.get(k);
                    }
                    return byList;
                });
            }
        }
    }

    /** All the rules of {@code list}, in order. */
    List<PolicyRule> list(RuleList list) {
        return lists.get(list);
    }

    /** The rules of {@code list} that apply to requests of {@code tool}, in list order. */
    PolicyRule[] rulesFor(RuleList list, String tool) {
        Map<String, PolicyRule[]> cache = byTool.get(list);
        PolicyRule[] rules = cache.get(tool);
        if (rules == null) {
            rules = lists.get(list).stream()
                    .filter(r -> r.rule().appliesTo(tool))
                    .toArray(PolicyRule[]::new);
            if (cache.size() < MAX_CACHED_TOOLS) {
                cache.put(tool, rules);
            }
        }
        return rules;
    }

    /**
     * The Bash rules of each list that could match {@code inv}, indexed by the list's ordinal, in list order: a rule
     * that is not a wildcard matches only commands running its own program (see {@link BashPattern#matches}). The
     * arrays are the index's own: read them, never change them.
     */
    PolicyRule[][] bashRulesFor(Invocation inv) {
        List<String> words = inv.canonicalWords();
        PolicyRule[][] rules = words.isEmpty() ? null : bashByProgramAllLists.get(words.get(0));
        return rules != null ? rules : bashAnyProgramAllLists;
    }

    /** Whether a deny or ask Bash rule names {@code program}, or may match any program. */
    boolean namedByStrictRule(String program) {
        for (RuleList list : RuleList.STRICT) {
            if (bashByProgram.get(list).containsKey(program) || bashAnyProgram.get(list).length > 0) {
                return true;
            }
        }
        return false;
    }
}
