package dev.paddock.policy;

import dev.paddock.policy.shell.Snippet;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.function.BiPredicate;
import java.util.function.Supplier;

/**
 * Decides requests against a {@link Policy}: pure logic, no I/O, thread-safe (immutable after
 * construction). The lists are consulted deny, then ask, then allow; a request no rule matches gets the
 * policy's unmatched verdict (ask unless configured to deny). A Bash command is split by
 * {@link BashAnalyzer} into the programs it runs, the files it reads or writes (judged as {@code Read}
 * and {@code Edit} requests) and what cannot be known without running it (at least ask); every part is
 * judged and the strictest decision wins, so a compound command is allowed only when every part is. Before any
 * rule, the built-in rule of {@link PolicyGuard} holds: writes to Paddock's own policy and hook configuration are
 * denied and commands naming it asked, whatever the lists say.
 */
public final class PolicyEngine {
    /** Parts named in the reason of an allowed compound command; the rest are counted. */
    private static final int MAX_LISTED_PARTS = 10;
    /** Most files of one request looked up on the disk for symbolic links; past that it is asked. */
    private static final int MAX_LINK_LOOKUPS = 256;

    private final Policy policy;
    private final PolicyGuard guard;
    private final RuleIndex rules;
    private final LatentCommands latent;

    /**
     * An engine for {@code policy} whose built-in rule protects the default Paddock home ({@code ~/.paddock}, of
     * the policy's home) besides every {@link PolicyGuard#CONFIG_DIRECTORIES} directory.
     */
    public PolicyEngine(Policy policy) {
        this(
                policy,
                new PolicyGuard(policy.home() == null ? null : policy.home().resolve(".paddock")));
    }

    /** An engine for {@code policy} with the built-in rule of {@code guard} (of the Paddock home in use). */
    public PolicyEngine(Policy policy, PolicyGuard guard) {
        this.policy = policy;
        this.guard = guard;
        this.rules = new RuleIndex(policy);
        this.latent = new LatentCommands(rules, policy.unmatched());
    }

    /** The policy this engine decides with. */
    public Policy policy() {
        return policy;
    }

    /**
     * An engine for {@code other} with this engine's built-in rule: what the policy would decide with other rules
     * (a rule about to be written, a rule about to be dropped), before any file changes.
     */
    public PolicyEngine withPolicy(Policy other) {
        return new PolicyEngine(other, guard);
    }

    /** Decides {@code request}. Never throws for any input; a broken policy denies. */
    public Decision decide(ToolRequest request) {
        if (policy.isBroken()) {
            return new Decision(
                    Verdict.DENY,
                    "the policy cannot be used, so everything is denied until it is fixed: " + policy.broken(),
                    null);
        }
        String tool = request.tool();
        if (tool.equals("Bash")) {
            return bash(request);
        }
        if (Rule.EDIT_TOOLS.contains(tool) || Rule.READ_TOOLS.contains(tool)) {
            return file(request);
        }
        String host =
                tool.equals("WebFetch") ? DomainPattern.host(request.input()) : null; // only WebFetch has domain rules
        return judge(
                tool,
                (r, broad) -> r.matchesInput(request.input(), host),
                tool + (request.input().isEmpty() ? "" : " `" + request.input() + "`"));
    }

    /** What {@link #decide} sees in a Bash command line (for the panel's "try a command" box). */
    public BashAnalysis analyze(String command, Path cwd) {
        return BashAnalyzer.analyze(command, cwd, policy.home(), policy.projectRoot());
    }

    private Decision bash(ToolRequest request) {
        Path cwd = request.cwd();
        Path dir = cwd.toAbsolutePath().normalize();
        BashAnalysis a = analyze(request.input(), cwd);
        List<Part> parts = new ArrayList<>();
        boolean inHome = guard.inHome(dir);
        for (Invocation inv : a.invocations()) {
            Part d = judgeCommand(inv);
            parts.add(d.verdict() == Verdict.ALLOW ? notCompletable(inv, d) : d);
            Decision named = guard.names(inv, cwd, dir, inHome, policy.home());
            if (named != null) {
                parts.add(Part.of(named));
            }
        }
        latent.judge(a, d -> parts.add(Part.of(d)));
        List<PathAccess> files = new ArrayList<>(a.accesses());
        files.addAll(a.arguments());
        LinkLookups disk = new LinkLookups();
        throughLinks(files, dir, parts, disk);
        for (PathAccess acc : files) {
            Decision builtIn = guard(acc, cwd, dir, disk);
            if (builtIn != null) {
                parts.add(Part.of(builtIn)); // the built-in rule only adds: the policy's own deny still counts below
            }
            Part d = access(acc, cwd);
            if (d != null) {
                parts.add(d);
            }
        }
        for (String problem : a.problems()) {
            parts.add(new Part(
                    Verdict.ASK.strictest(policy.unmatched()),
                    null,
                    () -> "cannot be judged before it runs: " + problem));
        }
        if (parts.isEmpty()) {
            return unmatched("the empty command");
        }
        Part strictest = parts.get(0);
        for (Part d : parts) {
            // On a tie, a part a rule decided explains more than one no rule matched.
            if (d.verdict().isStricterThan(strictest.verdict())
                    || d.verdict() == strictest.verdict() && strictest.rule() == null && d.rule() != null) {
                strictest = d;
            }
        }
        if (parts.size() == 1) {
            return strictest.decision();
        }
        if (strictest.verdict() == Verdict.ALLOW) {
            StringJoiner listed = new StringJoiner("; ");
            for (int i = 0; i < parts.size() && i < MAX_LISTED_PARTS; i++) {
                listed.add(parts.get(i).reason());
            }
            return new Decision(
                    Verdict.ALLOW,
                    "all " + parts.size() + " parts are allowed: " + listed
                            + (parts.size() > MAX_LISTED_PARTS
                                    ? "; and " + (parts.size() - MAX_LISTED_PARTS) + " more"
                                    : ""),
                    strictest.rule());
        }
        return new Decision(
                strictest.verdict(),
                strictest.reason() + " (the strictest of " + parts.size() + " parts)",
                strictest.rule());
    }

    /**
     * Adds to {@code files} each file (or tree) as the kernel would reach it when a symbolic link on its way, one
     * already on the disk, leads elsewhere ({@code notes -> .env}, {@code g -> .git}, a link into
     * {@code /proc/self/cwd}): rules and the built-in rule see the real file too. One {@code lstat} per name, for
     * at most {@link #MAX_LINK_LOOKUPS} files (those a rule of the policy could judge); past that the command is
     * asked. A name is looked up once per decision ({@code disk}), for these files and for the built-in rule.
     * {@code dir} is the working directory, absolute and normalised.
     */
    private void throughLinks(List<PathAccess> files, Path dir, List<Part> parts, LinkLookups disk) {
        int n = files.size();
        int lookups = 0;
        for (int i = 0; i < n; i++) {
            PathAccess acc = files.get(i);
            if (acc.path() == null
                    || acc.scope() != PathAccess.Scope.FILE && acc.scope() != PathAccess.Scope.TREE
                    || !hasRules(acc)) {
                continue; // no rule could tell the real file from the one named
            }
            if (++lookups > MAX_LINK_LOOKUPS) {
                parts.add(Part.of(new Decision(
                        Verdict.ASK.strictest(policy.unmatched()),
                        "cannot be judged before it runs:" + " more than " + MAX_LINK_LOOKUPS
                                + " files to look up for symbolic links",
                        null)));
                return;
            }
            Path real = disk.resolve(acc.path(), dir);
            if (real != null && !real.equals(acc.path())) {
                files.add(new PathAccess(acc.kind(), real, real.toString(), acc.argument(), acc.scope()));
                boolean intoGit = acc.kind() == PathAccess.Kind.WRITE
                        && acc.scope() == PathAccess.Scope.FILE
                        && FileAccesses.inGitDirectory(real);
                if (intoGit) {
                    parts.add(Part.of(new Decision(
                            Verdict.ASK.strictest(policy.unmatched()),
                            "cannot be judged before it"
                                    + " runs: writing to `" + Snippet.of(acc.written()) + "` reaches " + real
                                    + " through a"
                                    + " symbolic link, inside a .git directory (hooks and configuration run programs)",
                            null)));
                }
            }
        }
    }

    /** Whether a rule could judge {@code acc} (an argument: a deny or ask rule of its tool; else any). */
    private boolean hasRules(PathAccess acc) {
        for (RuleList list : acc.argument() ? RuleList.STRICT : RuleList.ALL) {
            if (rules.rulesFor(list, acc.kind().tool()).length > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The built-in rule of {@link PolicyGuard} for one file a command reads or writes, or null. A file is checked
     * as written (a link before a {@code ..} is followed first) and as the analysis resolved it if that differs;
     * a tree by its resolved path (a write to a directory that holds the configuration reaches it); a glob by
     * every file it could match ({@link GlobGuard#write}); a file named only at run time is asked, since it
     * could be any; one an unmodelled program mentions is left to {@link PolicyGuard#names}.
     */
    private Decision guard(PathAccess acc, Path cwd, Path dir, LinkLookups disk) {
        if (acc.scope() == PathAccess.Scope.MENTION) {
            return null;
        }
        Supplier<String> what = () -> what(acc);
        boolean write = acc.kind() == PathAccess.Kind.WRITE;
        if (acc.path() == null || acc.scope() == PathAccess.Scope.UNKNOWN) {
            return guard.runTime(what);
        }
        if (acc.scope() == PathAccess.Scope.PATTERN) {
            return write
                    ? GlobGuard.write(guard, acc.path(), acc.written(), what, disk)
                    : GlobGuard.read(guard, acc.path(), acc.written(), what);
        }
        // As written, `..` kept: a link before it is followed first (the analysis's path has it applied).
        Path asWritten = acc.scope() == PathAccess.Scope.FILE
                ? PolicyGuard.resolve(acc.written(), cwd, dir, policy.home())
                : null;
        Path first = asWritten != null ? asWritten : acc.path();
        Decision builtIn = write ? guard.write(first, what, disk) : guard.read(first, what, disk);
        if (builtIn == null && asWritten != null && !asWritten.normalize().equals(acc.path())) {
            builtIn = write ? guard.write(acc.path(), what, disk) : guard.read(acc.path(), what, disk);
        }
        return builtIn;
    }

    /**
     * The decision for one file a command reads or writes, or null when no rule speaks about it (an argument
     * access no deny or ask rule matches). A redirection is judged by every list; a program's argument by deny
     * and ask only; a whole tree, a glob or a file named at run time is asked when a deny or ask rule could
     * match a file among them, and takes the rule's verdict when the rule covers every file of the tree.
     */
    private Part access(PathAccess acc, Path cwd) {
        String tool = acc.kind().tool();
        Path root = policy.projectRoot();
        Path home = policy.home();
        switch (acc.scope()) {
            case FILE -> {
                PathPattern.Target file = new PathPattern.Target(acc.path(), cwd, root, home);
                PolicyRule r = firstMatch(
                        tool, (rule, broad) -> rule.matchesPath(file), acc.argument() ? RuleList.STRICT : RuleList.ALL);
                if (r == null) {
                    return acc.argument() ? null : new Part(policy.unmatched(), null, () -> unmatchedReason(what(acc)));
                }
                return matched(r, () -> what(acc));
            }
            case TREE -> {
                PathPattern.Target dir = new PathPattern.Target(acc.path(), cwd, root, home);
                PolicyRule r = firstMatch(
                        tool, (rule, broad) -> rule.matchesPath(dir) || rule.coversAllUnder(dir), RuleList.STRICT);
                return r != null
                        ? matched(r, () -> what(acc) + " (and everything under it)")
                        : could(
                                tool,
                                (rule, broad) -> rule.couldMatchUnder(acc.path(), cwd, root, home),
                                () -> what(acc) + " and everything under it",
                                "covers files there");
            }
            case PATTERN -> {
                return could(
                        tool,
                        (r, broad) -> r.couldMatchGlob(acc.path(), cwd, root, home),
                        () -> what(acc) + " (a glob)",
                        "could match a file it names");
            }
            case MENTION -> {
                PathPattern.Target file = new PathPattern.Target(acc.path(), cwd, root, home);
                return could(
                        tool,
                        (r, broad) -> r.matchesPath(file),
                        () -> "`"
                                + Snippet.of(acc.written())
                                + "`, named in the arguments of a program whose file arguments"
                                + " Paddock does not model (it may read or write it)",
                        "matches it");
            }
            default -> {
                return could(
                        tool,
                        (r, broad) -> true,
                        () -> what(acc) + ", a file named only at run time",
                        "could match that file");
            }
        }
    }

    /** A file access in words: {@code writing to `x`}, {@code reading `x`}. */
    private static String what(PathAccess acc) {
        return (acc.kind() == PathAccess.Kind.WRITE ? "writing to `" : "reading `") + Snippet.of(acc.written()) + "`";
    }

    /** Asks when a deny or ask rule of {@code tool} satisfies {@code could}; else null. */
    private Part could(String tool, BiPredicate<Rule, Boolean> could, Supplier<String> what, String how) {
        PolicyRule r = firstMatch(tool, could, RuleList.STRICT);
        if (r == null) {
            return null;
        }
        return new Part(
                Verdict.ASK.strictest(policy.unmatched()),
                null,
                () -> "cannot be judged before it runs: " + what.get() + ", and the " + r.describe() + " " + how);
    }

    /**
     * {@code allowed}, unless a deny or ask rule could match {@code inv} once its run-time words are known:
     * then ask (no deciding rule: the rule that could match is named in the reason).
     */
    private Part notCompletable(Invocation inv, Part allowed) {
        if (inv.dynamic().isEmpty()) {
            return allowed; // no run-time words: no rule could match once they are known
        }
        for (RuleList list : RuleList.STRICT) {
            for (PolicyRule r : rules.list(list)) {
                if (r.rule().couldMatchCommand(inv)) {
                    return new Part(
                            Verdict.ASK,
                            null,
                            () -> "`" + Snippet.of(inv.text()) + "` could match the " + r.describe()
                                    + " once its run-time words are known");
                }
            }
        }
        return allowed;
    }

    private Decision file(ToolRequest request) {
        String input = trim(request.input());
        if (input.isEmpty()) {
            // No path: Grep, Glob and LS work in the working directory, which may hold the Paddock home.
            Decision builtIn = guard.read(request.cwd(), request.tool() + " in " + request.cwd());
            Decision d = judge(request.tool(), (r, broad) -> r.specifier() == null, request.tool());
            return builtIn != null && builtIn.verdict().isStricterThan(d.verdict()) ? builtIn : d;
        }
        Path file;
        try {
            Path home = policy.home();
            if (input.equals("~") || input.startsWith("~/")) {
                file = input.length() < 2 ? home : home.resolve(input.substring(2));
            } else {
                file = request.cwd().resolve(input);
            }
        } catch (InvalidPathException e) {
            return new Decision(
                    Verdict.ASK.strictest(policy.unmatched()),
                    "`" + input + "` is not a path: " + e.getMessage(),
                    null);
        }
        // /proc/self/cwd/x and /proc/self/root/x are x in the agent's directory and /x (its tool runs there).
        Path abs = file.toAbsolutePath();
        if (abs.toString().startsWith("/proc/") || abs.toString().startsWith("/dev/")) {
            Path plain = ProcPaths.plain(abs, request.cwd().toAbsolutePath().normalize());
            if (plain == null || ProcPaths.of(abs).otherProcess()) {
                return new Decision(
                        Verdict.ASK.strictest(policy.unmatched()),
                        "`" + input + "` is reached through a file descriptor or another process, which cannot be"
                                + " judged before it runs",
                        null);
            }
            file = plain;
        }
        boolean edits = Rule.EDIT_TOOLS.contains(request.tool());
        String what = request.tool() + " `" + input + "`";
        Decision builtIn = edits ? guard.write(file, what) : guard.read(file, () -> what, new LinkLookups());
        if (builtIn != null && builtIn.verdict() == Verdict.DENY) {
            return builtIn;
        }
        PathPattern.Target normal =
                new PathPattern.Target(file.normalize(), request.cwd(), policy.projectRoot(), policy.home());
        Decision d = judge(request.tool(), (r, broad) -> r.matchesPath(normal), request.tool() + " `" + input + "`");
        // The built-in rule only makes a decision stricter, never looser than the policy's.
        return builtIn != null && builtIn.verdict().isStricterThan(d.verdict()) ? builtIn : d;
    }

    /** The first Bash rule matching a program run in deny, ask, allow order, else the unmatched verdict. */
    private Part judgeCommand(Invocation inv) {
        PolicyRule[][] byList = rules.bashRulesFor(inv);
        for (RuleList list : RuleList.ALL) {
            boolean broad = list != RuleList.ALLOW;
            for (PolicyRule r : byList[list.ordinal()]) {
                if (r.rule().matchesCommand(inv, broad)) {
                    return matched(r, () -> "`" + Snippet.of(inv.text()) + "`");
                }
            }
        }
        return new Part(policy.unmatched(), null, () -> unmatchedReason("`" + Snippet.of(inv.text()) + "`"));
    }

    /** The first matching rule in deny, ask, allow order, else the unmatched verdict. */
    private Decision judge(String tool, BiPredicate<Rule, Boolean> matches, String what) {
        PolicyRule r = firstMatch(tool, matches, RuleList.ALL);
        return r != null ? matched(r, () -> what).decision() : unmatched(what);
    }

    /** The first rule of {@code order} that matches, or null. */
    private PolicyRule firstMatch(String tool, BiPredicate<Rule, Boolean> matches, List<RuleList> order) {
        for (RuleList list : order) {
            boolean broad = list != RuleList.ALLOW;
            for (PolicyRule r : rules.rulesFor(list, tool)) {
                if (matches.test(r.rule(), broad)) {
                    return r;
                }
            }
        }
        return null;
    }

    /** The decision of rule {@code r} (its list's verdict) about {@code what}. */
    private static Part matched(PolicyRule r, Supplier<String> what) {
        return new Part(r.list().verdict(), r, () -> what.get() + " matches the " + r.describe());
    }

    private Decision unmatched(String what) {
        return new Decision(policy.unmatched(), unmatchedReason(what), null);
    }

    private String unmatchedReason(String what) {
        return "no rule matches " + what + "; unmatched requests are "
                + (policy.unmatched() == Verdict.DENY ? "denied" : "asked");
    }

    /**
     * One part of a command's decision (a program run, a file, a problem), whose reason is written only if the
     * answer shows it: most parts are not the strictest.
     */
    private record Part(Verdict verdict, PolicyRule rule, Supplier<String> why) {
        static Part of(Decision d) {
            return new Part(d.verdict(), d.rule(), d::reason);
        }

        String reason() {
            return why.get();
        }

        Decision decision() {
            return new Decision(verdict, reason(), rule);
        }
    }

    /**
     * A tool's path without the white space around it, as the agents' JavaScript {@code trim()} drops it: no-break
     * spaces and the byte order mark too, which {@link String#strip()} keeps.
     */
    static String trim(String s) {
        int from = 0;
        int to = s.length();
        while (from < to && blank(s.charAt(from))) {
            from++;
        }
        while (to > from && blank(s.charAt(to - 1))) {
            to--;
        }
        return s.substring(from, to);
    }

    private static boolean blank(char c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c) || c == '\uFEFF';
    }
}
