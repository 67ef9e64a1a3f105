package dev.paddock.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.Paddock;
import dev.paddock.common.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * What the tests of real agents under {@code paddock serve} share: the CLI run in this JVM, waiting for a run's end,
 * and looking for a secret in files.
 */
public final class AgentRuns {
    private AgentRuns() {}

    /** What a CLI run printed and how it ended. */
    public record Run(int exit, String out, String err) {}

    /** Runs the CLI in this JVM (it talks to the server through its API). */
    public static synchronized Run paddock(String... args) {
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            exit = Paddock.run(args);
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The sandbox as the API shows it once its run ended (done, failed, waiting for a person, timed out), or at the timeout. */
    public static JsonNode awaitEnd(ServeProcess serve, String id, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            JsonNode s = Json.mapper()
                    .readTree(serve.call("GET", "/v1/sandboxes/" + id, null).body())
                    .get("sandbox");
            String state = s.get("state").asText();
            if (List.of("done", "failed", "awaiting_human", "timeout").contains(state)
                    || System.nanoTime() > deadline) {
                return s;
            }
            Thread.sleep(100);
        }
    }

    /** The files under {@code dir} whose bytes hold {@code secret}. */
    public static List<Path> filesHolding(Path dir, String secret) throws IOException {
        byte[] needle = secret.getBytes(StandardCharsets.UTF_8);
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .filter(f -> {
                        try {
                            return indexOf(Files.readAllBytes(f), needle) >= 0;
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    })
                    .toList();
        }
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
