package dev.paddock.cli;

import dev.paddock.api.ApiClient;
import dev.paddock.api.ApiUnreachableException;
import dev.paddock.api.SandboxClient;
import dev.paddock.common.PaddockException;
import dev.paddock.sandbox.HeartbeatFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code paddock heartbeat "progress"}: for scripts inside a sandbox. Sends a heartbeat with a progress
 * text to the API named by {@code PADDOCK_API}, with {@code PADDOCK_TOKEN}, for {@code PADDOCK_SANDBOX_ID}
 * (Paddock gives all three to every agent it starts). When that API cannot be reached (a namespace
 * sandbox without network) and {@code PADDOCK_HEARTBEAT_FILE} is set, writes the progress to that file
 * instead; the supervisor reads it as a heartbeat. Needs no Paddock home.
 */
@Command(
        name = "heartbeat",
        mixinStandardHelpOptions = true,
        description = "Inside a sandbox: tell Paddock the agent is alive, with a progress text (renews its lease).")
public final class HeartbeatCommand implements Callable<Integer> {
    static final String API = "PADDOCK_API";
    static final String TOKEN = "PADDOCK_TOKEN";
    static final String SANDBOX = "PADDOCK_SANDBOX_ID";
    static final String FILE = "PADDOCK_HEARTBEAT_FILE";

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "PROGRESS", description = "What the agent is doing now.")
    List<String> words = new ArrayList<>();

    @Override
    public Integer call() throws PaddockException {
        Map<String, String> env = System.getenv();
        String progress = String.join(" ", words).strip();
        String id = env.get(SANDBOX);
        String file = blankToNull(env.get(FILE));
        PrintWriter out = spec.commandLine().getOut();
        if (blankToNull(env.get(API)) != null && blankToNull(env.get(TOKEN)) != null && blankToNull(id) != null) {
            try {
                new SandboxClient(ApiClient.of(env.get(API), env.get(TOKEN))).heartbeat(id, progress);
                out.println("Heartbeat sent for " + id + ".");
                out.flush();
                return 0;
            } catch (ApiUnreachableException e) {
                if (file == null) {
                    throw new PaddockException(
                            e.getMessage() + "; and " + FILE + " is not set, so the heartbeat" + " was not recorded.",
                            e);
                }
                writeFile(Path.of(file), progress);
                out.println(e.getMessage() + "; wrote the progress to " + file + " instead (Paddock reads it).");
                out.flush();
                return 0;
            }
        }
        if (file != null) {
            writeFile(Path.of(file), progress);
            out.println(API + " is not set; wrote the progress to " + file + " (Paddock reads it).");
            out.flush();
            return 0;
        }
        throw new PaddockException("paddock heartbeat runs inside a sandbox: " + API + ", " + TOKEN + " and " + SANDBOX
                + " (or " + FILE + ") are not set. Paddock sets them for every agent it starts.");
    }

    /** Writes the progress (one line) through a temporary file, so the supervisor never reads half of it. */
    private static void writeFile(Path file, String progress) throws PaddockException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.writeString(tmp, HeartbeatFile.next(file, progress), StandardCharsets.UTF_8);
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new PaddockException("Cannot write the heartbeat file " + file + ": " + e.getMessage(), e);
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
