package dev.paddock.agent;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Codex's {@code codex exec --json} (0.171.0): one JSON event per line. Seen here from the real binary (run against
 * a scripted Responses API): {@code {"type":"thread.started","thread_id":"..."}} (a UUID; again with the same id in a
 * {@code resume}), {@code {"type":"turn.started"}}, {@code item.started} / {@code item.completed} of
 * {@code command_execution} ({@code "command":"/bin/bash -lc 'git status'"}, {@code aggregated_output},
 * {@code exit_code}, {@code status}) and {@code file_change} ({@code changes: [{path, kind: "add"}]}), an
 * {@code agent_message} item completed only, {@code turn.completed} with {@code usage} ({@code input_tokens},
 * {@code cached_input_tokens}, {@code cache_write_input_tokens}, {@code output_tokens},
 * {@code reasoning_output_tokens}), {@code {"type":"error","message":"..."}} (a retry) and
 * {@code {"type":"item.completed","item":{"id","type":"error","message"}}} (a warning). A command Codex's own
 * sandbox or a hook refused shows no item at all (only a line on stderr). From Codex's documentation of its exec
 * events besides: {@code item.updated} /
 * {@code item.completed} with items of type {@code agent_message} ({@code text}), {@code reasoning},
 * {@code command_execution} ({@code command}, {@code aggregated_output}, {@code exit_code}, {@code status}),
 * {@code file_change} ({@code changes: [{path, kind}]}, {@code status}), {@code mcp_tool_call} ({@code server},
 * {@code tool}, {@code arguments}, {@code result} / {@code error}, {@code status}), {@code web_search}
 * ({@code query}), {@code todo_list}; {@code turn.completed} with {@code usage} ({@code input_tokens},
 * {@code cached_input_tokens}, {@code output_tokens}) and {@code turn.failed} with {@code error.message}. The thread
 * id is the session id {@code codex exec resume} takes.
 */
public final class CodexJsonParser extends JsonLineParser {
    private final Set<String> called = new HashSet<>();

    @Override
    void event(JsonNode e, List<TranscriptEntry> out) {
        switch (e.path("type").asText()) {
            case "thread.started" -> out.add(new TranscriptEntry.SessionStarted(text(e, "thread_id"), null, null));
            case "item.started" -> started(e.path("item"), out);
            case "item.completed" -> completed(e.path("item"), out);
            case "turn.completed" -> {
                JsonNode u = e.path("usage");
                out.add(new TranscriptEntry.Usage(
                        false,
                        longOrNull(u.get("input_tokens")),
                        longOrNull(u.get("output_tokens")),
                        null,
                        null,
                        null));
            }
            case "turn.failed" -> {
                out.add(new TranscriptEntry.Error(
                        e.path("error").path("message").asText("the turn failed")));
                out.add(new TranscriptEntry.Usage(true, null, null, null, null, null));
            }
            case "error" -> out.add(new TranscriptEntry.Error(e.path("message").asText("error")));
            default -> {
                // turn.started, item.updated and newer events.
            }
        }
    }

    private void started(JsonNode item, List<TranscriptEntry> out) {
        String id = text(item, "id");
        TranscriptEntry.ToolCall call = call(item);
        if (call != null && (id == null || called.add(id))) {
            out.add(call);
        }
    }

    private void completed(JsonNode item, List<TranscriptEntry> out) {
        String id = text(item, "id");
        String type = item.path("type").asText();
        switch (type) {
            case "agent_message" ->
                out.add(new TranscriptEntry.Message(
                        "assistant", item.path("text").asText(), false));
            case "error" ->
                out.add(new TranscriptEntry.Error(item.path("message").asText("error")));
            default -> {
                TranscriptEntry.ToolCall call = call(item);
                if (call == null) {
                    return;
                }
                if (id == null || called.add(id)) {
                    out.add(call);
                }
                if (id != null) {
                    called.remove(id);
                }
                out.add(new TranscriptEntry.ToolResult(id, result(item), failed(item)));
            }
        }
    }

    /** The tool call an item stands for, or null for items that are not one (messages, reasoning). */
    private static TranscriptEntry.ToolCall call(JsonNode item) {
        String id = text(item, "id");
        return switch (item.path("type").asText()) {
            case "command_execution" ->
                new TranscriptEntry.ToolCall(id, "command_execution", json("command", item.path("command")));
            case "file_change" ->
                new TranscriptEntry.ToolCall(id, "file_change", json("changes", item.path("changes")));
            case "mcp_tool_call" ->
                new TranscriptEntry.ToolCall(
                        id,
                        item.path("server").asText("?") + "/"
                                + item.path("tool").asText("?"),
                        item.path("arguments").isMissingNode()
                                ? "{}"
                                : item.path("arguments").toString());
            case "web_search" -> new TranscriptEntry.ToolCall(id, "web_search", json("query", item.path("query")));
            default -> null;
        };
    }

    private static String result(JsonNode item) {
        return switch (item.path("type").asText()) {
            case "command_execution" -> item.path("aggregated_output").asText("");
            case "file_change" -> item.path("status").asText("");
            case "mcp_tool_call" ->
                item.has("error") && !item.get("error").isNull()
                        ? item.get("error").toString()
                        : item.path("result").isMissingNode()
                                ? ""
                                : item.path("result").toString();
            default -> "";
        };
    }

    private static boolean failed(JsonNode item) {
        String status = item.path("status").asText("");
        JsonNode exit = item.get("exit_code");
        return status.equals("failed")
                || status.equals("declined")
                || (exit != null && exit.isNumber() && exit.asInt() != 0)
                || (item.has("error") && !item.get("error").isNull());
    }

    private static String json(String field, JsonNode value) {
        com.fasterxml.jackson.databind.node.ObjectNode o =
                dev.paddock.common.Json.mapper().createObjectNode();
        o.set(field, value.isMissingNode() ? com.fasterxml.jackson.databind.node.NullNode.getInstance() : value);
        return o.toString();
    }
}
