package dev.paddock.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.paddock.common.Json;
import dev.paddock.merge.conflict.ConflictClassifier;
import dev.paddock.merge.conflict.ConflictClassifyException;
import dev.paddock.merge.conflict.ConflictReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock conflicts classify [--repo PATH] OURS THEIRS}: prints, as JSON ({@link ConflictsJson}), the
 * files that merging THEIRS into OURS would leave conflicted, each hunk with its 1-based inclusive line
 * ranges in base/ours/theirs, its class and the proposed resolution where one is safe. Never changes the
 * repository (the merge runs in memory). Exit codes: 0 whenever a report is printed (conflicts or not);
 * 2 when PATH is not a git repository or a revision names no commit (and for bad usage); 1 when the
 * repository cannot be read.
 */
@Command(
        name = "classify",
        mixinStandardHelpOptions = true,
        description = "Print, as JSON, the conflicts of merging THEIRS into OURS, hunk by hunk, classified,"
                + " with a proposed resolution where one is safe. Changes nothing in the repository.")
public final class ConflictsClassifyCommand implements Callable<Integer> {
    @ParentCommand
    ConflictsCommand parent;

    @Spec
    CommandSpec spec;

    @Mixin
    RepoOption repo;

    @Parameters(index = "0", paramLabel = "OURS", description = "The side merged into (e.g. main): a branch or commit.")
    String ours;

    @Parameters(index = "1", paramLabel = "THEIRS", description = "The side merged in (e.g. the agent's branch).")
    String theirs;

    @Override
    public Integer call() throws ConflictClassifyException, JsonProcessingException {
        Path dir = repo.given() != null ? repo.orCurrentDirectory() : enclosingRepository();
        ConflictReport report;
        try {
            report = new ConflictClassifier().classify(dir, ours, theirs);
        } catch (ConflictClassifyException e) {
            if (!e.isBadInput()) {
                throw e;
            }
            spec.commandLine().getErr().println("paddock: " + e.getMessage());
            spec.commandLine().getErr().flush();
            return 2;
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println(Json.mapper()
                .writer()
                .with(SerializationFeature.INDENT_OUTPUT)
                .writeValueAsString(ConflictsJson.of(report)));
        out.flush();
        return 0;
    }

    /** The nearest directory at or above the current one that holds {@code .git} (else the current one). */
    private static Path enclosingRepository() {
        Path cwd = Path.of("").toAbsolutePath().normalize();
        for (Path p = cwd; p != null; p = p.getParent()) {
            if (java.nio.file.Files.exists(p.resolve(".git"))) {
                return p;
            }
        }
        return cwd;
    }
}
