package dev.paddock.cli;

import dev.paddock.api.MergeClient;
import dev.paddock.common.PaddockException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock merge list|enqueue|cancel|retry|review|approve|reject|config}: the merge queue, through the running
 * panel or server.
 */
@Command(
        name = "merge",
        mixinStandardHelpOptions = true,
        description = "List, enqueue, cancel and retry merge queue entries, review policy changes (through the running"
                + " Paddock).",
        subcommands = {
            MergeCommand.ListCmd.class,
            MergeCommand.Enqueue.class,
            MergeCommand.Cancel.class,
            MergeCommand.Retry.class,
            MergeReviewCommand.Review.class,
            MergeReviewCommand.Approve.class,
            MergeReviewCommand.Reject.class,
            MergeCommand.Config.class
        })
public final class MergeCommand implements Runnable {
    @ParentCommand
    PaddockCommand root;

    @Spec
    CommandSpec spec;

    /** {@code paddock merge} alone is a usage error. */
    @Override
    public void run() {
        throw new ParameterException(
                spec.commandLine(),
                "Missing a command: list, enqueue, cancel, retry, review," + " approve, reject or config.");
    }

    MergeClient client() throws PaddockException {
        return new MergeClient(RunningPaddock.api(root.resolveHome()));
    }

    /** {@code paddock merge list [--repo PATH] [--json]}. */
    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the merge queue of a repository.")
    static final class ListCmd implements java.util.concurrent.Callable<Integer> {
        @ParentCommand
        MergeCommand parent;

        @Spec
        CommandSpec spec;

        @Mixin
        RepoOption repo;

        @Mixin
        JsonOption json;

        @Override
        public Integer call() throws PaddockException {
            java.nio.file.Path target = repo.orCurrentDirectory();
            var list = parent.client().list(target);
            var out = spec.commandLine().getOut();
            out.print(json.on() ? SandboxText.json(java.util.Map.of("merges", list)) + "\n" : MergeText.table(list));
            out.flush();
            return 0;
        }
    }

    /** {@code paddock merge enqueue SANDBOX} or {@code paddock merge enqueue --repo PATH --branch NAME}. */
    @Command(
            name = "enqueue",
            mixinStandardHelpOptions = true,
            description = "Put a done sandbox's branch (or a branch of a repository) in the merge queue.")
    static final class Enqueue implements java.util.concurrent.Callable<Integer> {
        @ParentCommand
        MergeCommand parent;

        @Spec
        CommandSpec spec;

        @picocli.CommandLine.Parameters(paramLabel = "SANDBOX", arity = "0..1", description = "The sandbox.")
        String sandbox;

        @Mixin
        RepoOption repo;

        @picocli.CommandLine.Option(names = "--branch", paramLabel = "NAME", description = "A branch no sandbox owns.")
        String branch;

        @Override
        public Integer call() throws PaddockException {
            if ((sandbox == null) == (branch == null)) {
                throw new ParameterException(spec.commandLine(), "Name a SANDBOX, or a --branch (with --repo).");
            }
            java.nio.file.Path target = branch == null ? null : repo.orCurrentDirectory();
            var v = parent.client().enqueue(sandbox, target, branch, RunningPaddock.who());
            spec.commandLine().getOut().println("Queued #" + v.id() + " " + v.branch() + ".");
            spec.commandLine().getOut().flush();
            return 0;
        }
    }

    /** {@code paddock merge cancel ID}. */
    @Command(name = "cancel", mixinStandardHelpOptions = true, description = "Take an entry out of the merge queue.")
    static final class Cancel implements java.util.concurrent.Callable<Integer> {
        @ParentCommand
        MergeCommand parent;

        @Spec
        CommandSpec spec;

        @picocli.CommandLine.Parameters(paramLabel = "ID", description = "The entry (a number).")
        long id;

        @Override
        public Integer call() throws PaddockException {
            var v = parent.client().act(id, "cancel", RunningPaddock.who());
            spec.commandLine()
                    .getOut()
                    .println("#" + v.id() + " " + v.branch() + " is " + v.state()
                            + (v.state().equals("running") ? " (stopping before it moves base)" : "") + ".");
            spec.commandLine().getOut().flush();
            return 0;
        }
    }

    /**
     * {@code paddock merge config [--repo PATH] [--strategy merge|rebase] [--test-command CMD] [--test-timeout MS]
     * [--max-attempts N] [--auto-resolve propose|apply] [--review required|auto] [--regenerate FILE=COMMAND]...
     * [--target local|push] [--remote NAME] [--pull-request true|false] [--json]}: shows a repository's merge
     * settings, changing the ones given first.
     */
    @Command(
            name = "config",
            mixinStandardHelpOptions = true,
            description = "Show (and with options, change) a repository's merge settings: strategy, test command,"
                    + " test timeout, attempts, auto-resolve, review, lockfile regenerate commands, and where approved"
                    + " work goes (merged locally, or pushed to a remote).")
    static final class Config implements java.util.concurrent.Callable<Integer> {
        @ParentCommand
        MergeCommand parent;

        @Spec
        CommandSpec spec;

        @Mixin
        RepoOption repo;

        @picocli.CommandLine.Option(
                names = "--strategy",
                paramLabel = "merge|rebase",
                converter = OptionValues.Strategy.class,
                description = "How a branch is brought up to date with base.")
        String strategy;

        @picocli.CommandLine.Option(
                names = "--test-command",
                paramLabel = "CMD",
                description = "Run with /bin/sh -c in the candidate merge before base moves; \"\" for none.")
        String testCommand;

        @picocli.CommandLine.Option(
                names = "--test-timeout",
                paramLabel = "MS",
                description = "After this many ms the test's whole process tree is killed (a failure).")
        Long testTimeoutMs;

        @picocli.CommandLine.Option(
                names = "--max-attempts",
                paramLabel = "N",
                description = "Failed attempts after which an entry leaves the queue for a person.")
        Integer maxAttempts;

        @picocli.CommandLine.Option(
                names = "--auto-resolve",
                paramLabel = "propose|apply",
                converter = OptionValues.AutoResolve.class,
                description = "What the queue does with a conflict whose every hunk is safe: propose (a person"
                        + " confirms, the default) or apply (resolved, tested and merged automatically).")
        String autoResolve;

        @picocli.CommandLine.Option(
                names = "--review",
                paramLabel = "required|auto",
                converter = OptionValues.Review.class,
                description = "required (the default): a finished sandbox's change waits, ready for review, until a"
                        + " person approves it (paddock sandbox approve); auto: it enters the merge queue at once.")
        String review;

        @picocli.CommandLine.Option(
                names = "--regenerate",
                paramLabel = "FILE=COMMAND",
                description = "When the lockfile or generated FILE (a name such as package-lock.json, or a path)"
                        + " conflicts, take ours' file and run COMMAND (/bin/sh -c, in the sandbox's tier) instead of"
                        + " merging it as text; FILE= removes it. Repeatable.")
        java.util.List<String> regenerate;

        @picocli.CommandLine.Option(
                names = "--target",
                paramLabel = "local|push",
                description = "Where approved work goes: local (the merge queue merges it into the base branch, the"
                        + " default) or push (its branch is pushed to --remote instead, and never merged here).")
        String target;

        @picocli.CommandLine.Option(
                names = "--remote",
                paramLabel = "NAME",
                description = "The remote a push target pushes to; \"\" for origin, or the only remote.")
        String remote;

        @picocli.CommandLine.Option(
                names = "--pull-request",
                paramLabel = "true|false",
                arity = "1",
                description = "Whether a push target also opens a pull request (needs gh, signed in).")
        Boolean pullRequest;

        @Mixin
        JsonOption json;

        @Override
        public Integer call() throws PaddockException {
            java.nio.file.Path target = repo.orCurrentDirectory();
            java.util.Map<String, String> regen = new java.util.LinkedHashMap<>();
            for (String r : regenerate == null ? java.util.List.<String>of() : regenerate) {
                int eq = r.indexOf('=');
                if (eq <= 0) {
                    throw new ParameterException(
                            spec.commandLine(),
                            "--regenerate needs FILE=COMMAND (e.g."
                                    + " 'package-lock.json=npm install --package-lock-only'), not \"" + r + "\"");
                }
                regen.put(r.substring(0, eq).strip(), r.substring(eq + 1));
            }
            boolean change = strategy != null
                    || testCommand != null
                    || testTimeoutMs != null
                    || maxAttempts != null
                    || autoResolve != null
                    || review != null
                    || !regen.isEmpty()
                    || this.target != null
                    || remote != null
                    || pullRequest != null;
            var v = change
                    ? parent.client()
                            .configure(
                                    target,
                                    strategy,
                                    testCommand,
                                    testTimeoutMs,
                                    maxAttempts,
                                    autoResolve,
                                    regen,
                                    review,
                                    this.target,
                                    remote,
                                    pullRequest)
                    : parent.client().settings(target);
            var out = spec.commandLine().getOut();
            if (json.on()) {
                out.println(SandboxText.json(v));
            } else {
                out.println("strategy      " + v.strategy());
                out.println("test command  " + (v.testCommand() == null ? "(none)" : v.testCommand()));
                out.println("test timeout  " + v.testTimeoutMs() + " ms");
                out.println("max attempts  " + v.maxAttempts());
                out.println("auto-resolve  " + v.autoResolve());
                out.println("review        " + v.review());
                var commands = v.regenerate() == null ? java.util.Map.<String, String>of() : v.regenerate();
                if (commands.isEmpty()) {
                    out.println("regenerate    (none)");
                }
                commands.forEach((file, command) -> out.println("regenerate    " + file + " = " + command));
                out.println("target        " + v.target());
                out.println("remote        " + (v.remote() == null ? "(origin, or the only remote)" : v.remote()));
                out.println("pull request  " + (v.pullRequest() ? "yes (with gh)" : "no"));
            }
            out.flush();
            return 0;
        }
    }

    /** {@code paddock merge retry ID}. */
    @Command(
            name = "retry",
            mixinStandardHelpOptions = true,
            description = "Put a failed, cancelled or conflicted entry back in the merge queue.")
    static final class Retry implements java.util.concurrent.Callable<Integer> {
        @ParentCommand
        MergeCommand parent;

        @Spec
        CommandSpec spec;

        @picocli.CommandLine.Parameters(paramLabel = "ID", description = "The entry (a number).")
        long id;

        @Override
        public Integer call() throws PaddockException {
            var v = parent.client().act(id, "retry", RunningPaddock.who());
            spec.commandLine().getOut().println("#" + v.id() + " " + v.branch() + " is back in the queue.");
            spec.commandLine().getOut().flush();
            return 0;
        }
    }
}
