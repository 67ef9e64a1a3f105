package dev.paddock.approval;

import dev.paddock.policy.BashAnalysis;
import dev.paddock.policy.Invocation;
import dev.paddock.policy.PolicyEngine;
import dev.paddock.policy.RuleParser;
import dev.paddock.policy.RuleSyntaxException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The allow rule written by "approve and allow from now on": the prefix of the request a person means
 * when they say "this kind of thing is fine".
 *
 * <ul>
 *   <li>Bash: one simple command only (compound commands, substitutions and run-time words are refused:
 *       they must be allowed part by part). The rule is {@code Bash(<prefix>:*)} where the prefix is the
 *       program (wrappers such as {@code env} or {@code timeout} and {@code VAR=value} stripped, as the
 *       policy sees it) and its subcommand: the next word if it looks like one (no leading {@code -}, no
 *       {@code /}, no {@code =}); after {@code run}, {@code exec}, {@code x} or {@code run-script} one
 *       more. {@code npm run test -- --watch} gives {@code Bash(npm run test:*)}, {@code git push origin
 *       main} gives {@code Bash(git push:*)}, {@code ls -la} gives {@code Bash(ls:*)}.</li>
 *   <li>Read, Edit, Write, MultiEdit, NotebookEdit: the file's directory and everything below it, anchored
 *       to the project root when inside it ({@code Edit(/src/main/**)}), absolute otherwise
 *       ({@code Edit(//etc/app/**)}).</li>
 *   <li>WebFetch: the URL's host ({@code WebFetch(domain:example.com)}).</li>
 *   <li>Any other tool: its bare name ({@code mcp__github__create_issue}).</li>
 * </ul>
 */
final class AllowRules {
    private static final Pattern SUBCOMMAND = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:@+-]*");
    private static final Set<String> RUNNERS = Set.of("run", "exec", "x", "run-script");
    private static final Set<String> FILE_TOOLS = Set.of("Read", "Edit", "Write", "MultiEdit", "NotebookEdit");

    private AllowRules() {}

    /**
     * The rule for {@code a}.
     *
     * @param engine the repository's engine (its shell analysis strips wrappers as matching does)
     * @param projectRoot the sandbox's worktree, for file rules
     * @throws ApprovalException (bad request) when no sensible rule exists for the request
     */
    static String forApproval(Approval a, PolicyEngine engine, Path projectRoot) throws ApprovalException {
        String rule;
        if (a.tool().equals("Bash")) {
            rule = bash(a.request(), engine, Path.of(a.cwd()));
        } else if (FILE_TOOLS.contains(a.tool())) {
            rule = file(a.tool(), a.request(), Path.of(a.cwd()), projectRoot);
        } else if (a.tool().equals("WebFetch")) {
            rule = web(a.request());
        } else {
            rule = a.tool();
        }
        try {
            RuleParser.parse(rule);
        } catch (RuleSyntaxException e) {
            throw refused("the rule " + rule + " for this request would not parse (" + e.getMessage() + ")");
        }
        return rule;
    }

    private static String bash(String command, PolicyEngine engine, Path cwd) throws ApprovalException {
        BashAnalysis an = engine.analyze(command, cwd);
        if (!an.problems().isEmpty()) {
            throw refused("the command cannot be judged without running it (" + String.join("; ", an.problems())
                    + "), so no rule can allow it");
        }
        if (an.invocations().size() != 1 || !an.accesses().isEmpty()) {
            throw refused("the command runs " + an.invocations().size() + " programs or redirects to files;"
                    + " allow its parts one by one");
        }
        Invocation inv = an.invocations().get(0);
        List<String> words = inv.words();
        List<String> prefix = new ArrayList<>();
        prefix.add(words.get(0));
        int limit = 2;
        for (int i = 1; i < words.size() && i < limit; i++) {
            String w = words.get(i);
            if (inv.dynamic().contains(i) || !SUBCOMMAND.matcher(w).matches()) {
                break;
            }
            prefix.add(w);
            if (i == 1 && RUNNERS.contains(w)) {
                limit = 3;
            }
        }
        return "Bash(" + String.join(" ", prefix) + ":*)";
    }

    private static String file(String tool, String path, Path cwd, Path projectRoot) throws ApprovalException {
        if (path.isBlank()) {
            throw refused("the request names no file");
        }
        Path p = cwd.resolve(path).normalize();
        Path dir = p.getParent() == null ? p : p.getParent();
        if (projectRoot != null && dir.startsWith(projectRoot)) {
            String rel = projectRoot.relativize(dir).toString();
            return tool + "(/" + (rel.isEmpty() ? "" : rel + "/") + "**)";
        }
        return tool + "(/" + dir + (dir.toString().endsWith("/") ? "" : "/") + "**)";
    }

    private static String web(String url) throws ApprovalException {
        try {
            String host = URI.create(url.strip()).getHost();
            if (host == null || host.isBlank()) {
                throw refused("the URL " + url + " names no host");
            }
            return "WebFetch(domain:" + host + ")";
        } catch (IllegalArgumentException e) {
            throw refused("the URL " + url + " does not parse");
        }
    }

    private static ApprovalException refused(String why) {
        return new ApprovalException(
                ApprovalException.Kind.BAD_REQUEST,
                "No allow rule written: " + why + ". Approve or deny it once instead.");
    }
}
