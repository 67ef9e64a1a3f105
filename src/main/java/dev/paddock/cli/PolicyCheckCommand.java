package dev.paddock.cli;

import dev.paddock.common.PaddockException;
import dev.paddock.policy.Decision;
import dev.paddock.policy.Policy;
import dev.paddock.policy.PolicyEngine;
import dev.paddock.policy.PolicyFile;
import dev.paddock.policy.PolicyGuard;
import dev.paddock.policy.ToolRequest;
import dev.paddock.policy.Verdict;
import dev.paddock.worktree.MainWorktree;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock policy check [--policy FILE] [--repo PATH] [--tool Bash] [--cwd DIR] -- COMMAND...}:
 * prints the decision ({@code allow}, {@code ask} or {@code deny}) on the first line, the deciding rule
 * (or {@code no rule matched}) on the second, the reason on the third.
 *
 * <p>Policy files: {@code --policy FILE} instead of the global {@code <home>/policy.json}, plus the
 * repository's {@code .paddock/policy.json} (repository from {@code --repo}, else the one around the working
 * directory; from inside a sandbox's worktree, or any linked worktree, that is the main worktree's file, never the
 * worktree's own: see {@link MainWorktree}). The built-in rule protecting Paddock's own configuration
 * ({@link PolicyGuard}) applies as for agents. Exit codes: 0 whenever a decision is printed, deny
 * included, and a corrupt policy prints {@code deny} and the error (fail-closed); 1 when the file given to
 * {@code --policy} cannot be read at all (missing, a directory, no permission); 2 bad usage. Needs no
 * running Paddock and no store.
 */
@Command(
        name = "check",
        mixinStandardHelpOptions = true,
        description = "Print the policy's decision (allow, ask or deny), the deciding rule and the reason.")
public final class PolicyCheckCommand implements Callable<Integer> {
    @ParentCommand
    PolicyCommand parent;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--policy",
            paramLabel = "FILE",
            description = "Policy file to use instead of the global <home>/policy.json.")
    Path policyFile;

    @Option(
            names = "--repo",
            paramLabel = "PATH",
            description = "Repository whose .paddock/policy.json applies (default: the one around --cwd).")
    Path repo;

    @Option(
            names = "--tool",
            paramLabel = "TOOL",
            defaultValue = "Bash",
            description = "Tool name as Claude Code names it (default: ${DEFAULT-VALUE}); Read, Edit, WebFetch...")
    String tool;

    @Option(names = "--cwd", paramLabel = "DIR", description = "Working directory of the request (default: current).")
    Path cwd;

    @Option(
            names = "--unmatched",
            paramLabel = "ask|deny",
            converter = OptionValues.Unmatched.class,
            description = "What a request no rule matches gets (default: the policy's setting, else ask).")
    String unmatched;

    @Parameters(
            arity = "1..*",
            paramLabel = "COMMAND",
            description = "The command line (for Bash; words are joined with spaces), or the path or URL.")
    List<String> input;

    @Override
    public Integer call() throws PaddockException {
        Path dir = (cwd == null ? Path.of("") : cwd).toAbsolutePath().normalize();
        Path given = repo != null ? repo.toAbsolutePath().normalize() : dir;
        Path repository = MainWorktree.of(given).orElse(repo != null ? given : null);
        Path paddockHome = parent.root.resolveHome().dir();
        List<Path> files = new ArrayList<>();
        if (policyFile != null) {
            Path f = policyFile.toAbsolutePath().normalize();
            if (!Files.isRegularFile(f) || !Files.isReadable(f)) {
                throw new PaddockException("cannot read the policy file " + f
                        + (Files.exists(f) ? " (it is not a readable file)" : " (it does not exist)"));
            }
            files.add(f);
        } else {
            files.add(PolicyFile.globalFile(paddockHome));
        }
        if (repository != null) {
            files.add(PolicyFile.repositoryFile(repository));
        }
        Path userHome = Path.of(System.getProperty("user.home"));
        String refused = PolicyFile.refusal(repository);
        Policy policy =
                refused != null ? Policy.broken(refused, userHome) : PolicyFile.load(files, repository, userHome);
        if (unmatched != null && !policy.isBroken()) {
            Verdict v = switch (unmatched) {
                case "ask" -> Verdict.ASK;
                case "deny" -> Verdict.DENY;
                default ->
                    throw new PaddockException("--unmatched takes ask or deny, not \"" + unmatched
                            + "\": unmatched requests are never allowed");
            };
            policy = Policy.of(policy.rules(), v, policy.projectRoot(), policy.home());
        }
        Decision d = new PolicyEngine(policy, new PolicyGuard(paddockHome, repository))
                .decide(new ToolRequest(tool, String.join(" ", input), dir));
        PrintWriter out = spec.commandLine().getOut();
        out.println(d.verdict().word());
        out.println(
                d.rule() == null
                        ? "no rule matched"
                        : d.rule().text() + "  (" + d.list().key() + " list, " + d.source() + ")");
        out.println(d.reason());
        out.flush();
        return 0;
    }
}
