package dev.paddock.agent;

import dev.paddock.policy.Policy;
import dev.paddock.policy.PolicyRule;
import dev.paddock.policy.RuleList;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code permissions.deny} rules a sandbox's Claude Code settings get from Paddock's policy: a second wall
 * behind the PreToolUse hook, which decides every call first (a hook's allow does not lift a settings deny rule:
 * checked against 2.1.332, the call is refused).
 *
 * <p>Only deny rules, and only those Claude Code's own matcher reads the way Paddock does, so that it never
 * refuses a call Paddock would allow:
 * <ul>
 * <li>a bare tool name ({@code WebFetch}, {@code mcp__server});</li>
 * <li>{@code Bash(prefix:*)} and {@code Bash(exact command)} without any other {@code *} (Claude Code reads a
 *     {@code *} elsewhere differently, and says so in its rule warnings);</li>
 * <li>{@code Read(...)} and {@code Edit(...)} with an absolute ({@code //path}) or home ({@code ~/path}) pattern
 *     (a {@code /path} or relative pattern is anchored differently: to the settings file's folder there, to the
 *     repository or working directory here);</li>
 * <li>{@code WebFetch(domain:host)}.</li>
 * </ul>
 * Everything else, and every ask and allow rule, is left to the hook: an ask rule in Claude Code's settings makes a
 * headless run refuse the call even after the hook (and a person) allowed it, and an allow rule would only matter
 * when the hook could not run, which {@code onFailure: block} turns into a refusal.
 *
 * <p>To these come the folders no agent may write (Paddock's built-in rule, {@code policy.PolicyGuard}): the
 * worktree's {@code .claude} and {@code .paddock}, and the Paddock home (not read either).
 */
public final class ClaudePermissions {
    private static final Pattern BASH_PREFIX = Pattern.compile("[^*]+:\\*");
    private static final Pattern NO_STAR = Pattern.compile("[^*]+");
    private static final Pattern DOMAIN = Pattern.compile("domain:[A-Za-z0-9.*-]+");

    private ClaudePermissions() {}

    /**
     * The deny rules for a sandbox.
     *
     * @param policy the repository's policy in force (a broken one adds nothing: the hook denies everything then)
     * @param worktree the sandbox's worktree
     * @param paddockHome Paddock's home, or null
     */
    public static List<String> denyRules(Policy policy, Path worktree, Path paddockHome) {
        Set<String> out = new LinkedHashSet<>();
        String wt = absolute(worktree);
        out.add("Edit(/" + wt + "/.claude/**)");
        out.add("Edit(/" + wt + "/.paddock/**)");
        if (paddockHome != null) {
            String home = absolute(paddockHome);
            out.add("Edit(/" + home + "/**)");
            out.add("Read(/" + home + "/**)");
        }
        if (policy != null && !policy.isBroken()) {
            for (PolicyRule r : policy.list(RuleList.DENY)) {
                if (sameInClaude(r.rule().tool(), r.rule().specifier())) {
                    out.add(r.text());
                }
            }
        }
        return new ArrayList<>(out);
    }

    /** Whether Claude Code's matcher reads the rule {@code tool(specifier)} at least as strictly as Paddock's. */
    static boolean sameInClaude(String tool, String specifier) {
        if (specifier == null) {
            return true;
        }
        return switch (tool) {
            case "Bash" ->
                BASH_PREFIX.matcher(specifier).matches() && specifier.indexOf(':') == specifier.length() - 2
                        || NO_STAR.matcher(specifier).matches() && !specifier.contains(":");
            case "Read", "Edit" -> specifier.startsWith("//") || specifier.startsWith("~/");
            case "WebFetch" -> DOMAIN.matcher(specifier).matches();
            default -> false;
        };
    }

    private static String absolute(Path p) {
        String s = p.toAbsolutePath().normalize().toString();
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }
}
