package dev.paddock.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.agent.SandboxTranscript;
import dev.paddock.api.SandboxClient;
import dev.paddock.api.TranscriptView;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock sandbox transcript ID [--json]}: the agent's log read back by the parser of its preset (Claude
 * Code's stream-json, Codex's and Gemini CLI's JSON, text), one entry a line, each tool call with what the
 * policy or a person decided about it ({@link TranscriptView}); through the running Paddock, else from the store.
 */
@Command(
        name = "transcript",
        mixinStandardHelpOptions = true,
        description = "Show a sandbox's transcript: its agent's messages, tool calls (each with what the policy or a"
                + " person decided) and results, read from its log.")
public final class SandboxTranscriptCommand implements Callable<Integer> {
    @ParentCommand
    SandboxCommand parent;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "ID", description = "The sandbox.")
    String id;

    @Mixin
    JsonOption json;

    @Override
    public Integer call() throws PaddockException {
        JsonNode t = RunningPaddock.apiElseStore(
                parent.root.resolveHome(),
                api -> new SandboxClient(api).transcript(id),
                wiring -> Json.mapper()
                        .valueToTree(TranscriptView.of(
                                SandboxTranscript.read(
                                        wiring.sandboxService().find(id),
                                        wiring.sandboxService().logFile(id)),
                                wiring.approvals().ofSandbox(id, SandboxTranscript.MAX_APPROVALS))));
        PrintWriter out = spec.commandLine().getOut();
        if (json.on()) {
            out.println(t.toPrettyString());
        } else {
            out.print(render(t));
        }
        out.flush();
        return 0;
    }

    /** One entry a line (a text's later lines indented by two spaces). */
    static String render(JsonNode t) {
        StringBuilder b = new StringBuilder();
        for (JsonNode e : t.path("entries")) {
            String line = switch (e.path("type").asText()) {
                case "session_started" ->
                    "session " + e.path("sessionId").asText("?")
                            + (e.path("model").isTextual()
                                    ? " (" + e.path("model").asText() + ")"
                                    : "");
                case "message" ->
                    e.path("role").asText() + ": " + e.path("text").asText();
                case "tool_call" ->
                    "-> " + e.path("name").asText() + " " + e.path("inputJson").asText() + decision(e.path("decision"));
                case "tool_result" ->
                    "<- " + (e.path("error").asBoolean() ? "[error] " : "")
                            + e.path("text").asText();
                case "error" -> "error: " + e.path("message").asText();
                case "usage" ->
                    "end: " + (e.path("failed").asBoolean() ? "failed" : "ok")
                            + figure(e, "turns", " turns") + figure(e, "inputTokens", " tokens in")
                            + figure(e, "outputTokens", " tokens out")
                            + (e.path("costUsd").isNumber()
                                    ? String.format(
                                            java.util.Locale.ROOT,
                                            ", $%.4f",
                                            e.path("costUsd").asDouble())
                                    : "");
                default -> e.path("line").asText();
            };
            b.append(line.replace("\n", "\n  ")).append('\n');
        }
        return b.toString();
    }

    /** "  [allowed]", "  [denied: why]", "  [asked · approved by ann]"; "" when no decision is known. */
    static String decision(JsonNode d) {
        if (!d.isObject()) {
            return "";
        }
        String verdict = d.path("verdict").asText();
        boolean why = d.path("reason").isTextual()
                && List.of("denied", "rejected", "expired", "cancelled").contains(verdict);
        return "  [" + d.path("label").asText(verdict)
                + (why ? ": " + d.path("reason").asText() : "") + "]";
    }

    private static String figure(JsonNode e, String field, String unit) {
        return e.path(field).isNumber() ? ", " + e.path(field).asText() + unit : "";
    }
}
