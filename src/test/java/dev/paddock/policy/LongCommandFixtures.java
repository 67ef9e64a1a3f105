package dev.paddock.policy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Long and pathological commands, and the engine they are judged by (shared by a test and a bench). */
public final class LongCommandFixtures {
    private LongCommandFixtures() {}

    public static final Path REPO = Path.of("/home/u/repo");

    public static PolicyEngine engine() {
        List<PolicyRule> rules = new ArrayList<>();
        try {
            for (String a : List.of("Bash(git commit:*)", "Bash(cat:*)", "Bash(ls:*)", "Bash(echo:*)")) {
                rules.add(new PolicyRule(RuleParser.parse(a), RuleList.ALLOW, "test"));
            }
            for (String d : List.of("Bash(rm -rf:*)", "Read(./.env)", "Edit(./.git/**)")) {
                rules.add(new PolicyRule(RuleParser.parse(d), RuleList.DENY, "test"));
            }
        } catch (RuleSyntaxException e) {
            throw new AssertionError(e);
        }
        return new PolicyEngine(Policy.of(rules, Verdict.ASK, REPO, Path.of("/home/u")));
    }

    /** A commit whose message, passed through a here-document, is {@code bytes} long. */
    public static String commit(int bytes) {
        StringBuilder m = new StringBuilder("git commit -m \"$(cat <<'EOF'\nSummary: don't break (anything)\n\n");
        while (m.length() < bytes) {
            m.append("- a line of the body with `quotes`, $dollars, 'apostrophes' and (parentheses)\n");
        }
        return m.append("EOF\n)\"").toString();
    }

    /** A script of many allowed commands, {@code bytes} long, ending in {@code last}. */
    public static String script(int bytes, String last) {
        StringBuilder s = new StringBuilder();
        while (s.length() < bytes) {
            s.append("ls -la src/dir").append(s.length() % 97).append(" | cat && echo \"done $x\"\n");
        }
        return s.append(last).toString();
    }

    /** Inputs of {@code bytes} made to be deep or slow to read. */
    public static List<String> pathological(int bytes) {
        List<String> out = new ArrayList<>();
        for (String unit : List.of(
                "$(",
                "\"$(",
                "( ",
                "{ ",
                "${x:-",
                "$((",
                "((",
                "$[",
                "`",
                "'",
                "\"",
                "a[",
                "<<E\n",
                "x=(",
                "[[ ",
                "case x in x) ",
                "f() { ",
                "${!",
                "$((x",
                "\\\n",
                "$'\\",
                "<(",
                "2>&")) {
            out.add("ls " + unit.repeat(bytes / unit.length()));
        }
        return out;
    }
}
