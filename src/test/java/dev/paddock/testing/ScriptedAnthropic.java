package dev.paddock.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.paddock.common.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A scripted stand-in for Anthropic's Messages API on a loopback port, for running the real Claude Code CLI
 * ({@code ANTHROPIC_BASE_URL=http://127.0.0.1:PORT}, {@code ANTHROPIC_API_KEY=}{@value #API_KEY}) without a
 * network or a model.
 *
 * <p>{@code POST /v1/messages} with {@code "stream": true} answers the way the API streams (server-sent events):
 * {@code message_start}, {@code ping}, per content block {@code content_block_start},
 * {@code content_block_delta} ({@code text_delta}, or {@code input_json_delta} for a {@code tool_use} block) and
 * {@code content_block_stop}, then {@code message_delta} with {@code stop_reason} ({@code tool_use} when the reply
 * calls a tool, else {@code end_turn}) and usage, and {@code message_stop}. Without {@code stream} it answers one
 * JSON message of the same content. What the "model" says comes from a {@link Script}, which sees the conversation
 * Claude Code sends (the prompt, the tool results so far).
 *
 * <p>Only requests that offer the {@code Bash} tool are the agent's turns and go to the script; any other
 * {@code /v1/messages} call (a title, a summary, a classifier) gets a short text answer. {@code count_tokens}
 * answers a count; {@code GET /v1/models} an empty list; every other route answers {@code 200 {}} (a health probe,
 * telemetry). Everything is recorded ({@link #requests()}), so a test can see what the CLI called. Claude Code
 * 2.1.332 with {@code -p} and the no-traffic variables {@link ClaudeCli} sets calls {@code POST /v1/messages?beta=true}
 * only (one request per turn, {@code "stream": true}, the key as {@code x-api-key}); without them it first probes
 * {@code HEAD /api/hello}.
 */
public final class ScriptedAnthropic implements AutoCloseable {
    /** The API key the CLI must send (as {@code x-api-key}). */
    public static final String API_KEY = "test-key";

    /** One request as received; header names in lower case. */
    public record Request(String method, String path, Map<String, String> headers, String body) {
        /** The body as JSON, or null when it is not. */
        public JsonNode json() {
            try {
                return body.isEmpty() ? null : Json.mapper().readTree(body);
            } catch (IOException e) {
                return null;
            }
        }
    }

    /** A content block of a reply. */
    public sealed interface Block permits Text, ToolUse {}

    /** A text block. */
    public record Text(String text) implements Block {}

    /** A tool call; its id is given by the server when sent. */
    public record ToolUse(String name, ObjectNode input) implements Block {}

    /** What the model answers in one turn. */
    public record Reply(List<Block> blocks) {
        public Reply {
            blocks = List.copyOf(blocks);
        }

        /** A text answer that ends the turn. */
        public static Reply text(String text) {
            return new Reply(List.of(new Text(text)));
        }

        /** A Bash call, with a line of text before it. */
        public static Reply bash(String command) {
            ObjectNode in =
                    Json.mapper().createObjectNode().put("command", command).put("description", "Run " + command);
            return new Reply(List.of(new Text("Running a command."), new ToolUse("Bash", in)));
        }

        /** A Write of {@code content} to {@code path}. */
        public static Reply write(String path, String content) {
            return tool(
                    "Write",
                    Json.mapper().createObjectNode().put("file_path", path).put("content", content));
        }

        /** An Edit replacing {@code oldText} with {@code newText} in {@code path}. */
        public static Reply edit(String path, String oldText, String newText) {
            return tool(
                    "Edit",
                    Json.mapper()
                            .createObjectNode()
                            .put("file_path", path)
                            .put("old_string", oldText)
                            .put("new_string", newText));
        }

        /** A call of any tool. */
        public static Reply tool(String name, ObjectNode input) {
            return new Reply(List.of(new ToolUse(name, input)));
        }

        /** The stop reason the API gives for it. */
        public String stopReason() {
            return blocks.stream().anyMatch(b -> b instanceof ToolUse) ? "tool_use" : "end_turn";
        }
    }

    /** What the model is shown in one of the agent's turns. */
    public record Turn(JsonNode request) {
        /** The conversation's messages. */
        public List<JsonNode> messages() {
            List<JsonNode> out = new ArrayList<>();
            request.path("messages").forEach(out::add);
            return out;
        }

        /** The latest prompt a person (or Paddock) gave: the last text of the last user message without tool results. */
        public String prompt() {
            List<JsonNode> ms = messages();
            for (int i = ms.size() - 1; i >= 0; i--) {
                JsonNode m = ms.get(i);
                if (!"user".equals(m.path("role").asText()) || hasToolResult(m)) {
                    continue;
                }
                JsonNode c = m.path("content");
                if (c.isTextual()) {
                    return c.asText();
                }
                String last = "";
                for (JsonNode b : c) {
                    if ("text".equals(b.path("type").asText())
                            && !b.path("text").asText().startsWith("<system-reminder>")) {
                        last = b.path("text").asText();
                    }
                }
                return last;
            }
            return "";
        }

        /** The assistant turns since the latest prompt: 0 for the first answer to it. */
        public int turnsSincePrompt() {
            int n = 0;
            for (JsonNode m : messages()) {
                String role = m.path("role").asText();
                if ("assistant".equals(role)) {
                    n++;
                } else if ("user".equals(role) && !hasToolResult(m)) {
                    n = 0;
                }
            }
            return n;
        }

        /** The tool results sent in the last message (text collapsed), oldest first. */
        public List<String> lastToolResults() {
            List<String> out = new ArrayList<>();
            List<JsonNode> ms = messages();
            if (ms.isEmpty()) {
                return out;
            }
            for (JsonNode b : ms.get(ms.size() - 1).path("content")) {
                if ("tool_result".equals(b.path("type").asText())) {
                    JsonNode c = b.path("content");
                    if (c.isTextual()) {
                        out.add(c.asText());
                    } else {
                        StringBuilder sb = new StringBuilder();
                        c.forEach(x -> sb.append(x.path("text").asText()));
                        out.add(sb.toString());
                    }
                }
            }
            return out;
        }

        private static boolean hasToolResult(JsonNode m) {
            for (JsonNode b : m.path("content")) {
                if ("tool_result".equals(b.path("type").asText())) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Decides the model's reply to each of the agent's turns. */
    @FunctionalInterface
    public interface Script {
        Reply reply(Turn turn);

        /**
         * The replies in order for each prompt: the first answers the prompt, the next follows the first tool
         * result, and so on; past the end, {@code "Done."}.
         */
        static Script steps(Reply... replies) {
            List<Reply> list = List.of(replies);
            return t -> t.turnsSincePrompt() < list.size() ? list.get(t.turnsSincePrompt()) : Reply.text("Done.");
        }
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final Script script;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final List<Turn> turns = new CopyOnWriteArrayList<>();
    private final AtomicInteger ids = new AtomicInteger();

    private ScriptedAnthropic(Script script, int port) throws IOException {
        this.script = script;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "scripted-anthropic");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    /** Starts a server answering with {@code script}. */
    public static ScriptedAnthropic start(Script script) {
        return start(script, 0);
    }

    /** Starts a server answering with {@code script} on loopback port {@code port} (0: any free one). */
    public static ScriptedAnthropic start(Script script, int port) {
        try {
            return new ScriptedAnthropic(script, port);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code http://127.0.0.1:PORT}, for {@code ANTHROPIC_BASE_URL}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The port it listens on. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** Every request so far, in order. */
    public List<Request> requests() {
        return List.copyOf(requests);
    }

    /** The agent's turns the script answered, in order (a request refused for its key is not one). */
    public List<Turn> turns() {
        return List.copyOf(turns);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            byte[] in = ex.getRequestBody().readAllBytes();
            Map<String, String> headers = new TreeMap<>();
            ex.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), String.join(",", v)));
            Request r = new Request(
                    ex.getRequestMethod(),
                    ex.getRequestURI().toString(),
                    headers,
                    new String(in, StandardCharsets.UTF_8));
            requests.add(r);
            String path = ex.getRequestURI().getPath();
            if ("HEAD".equals(r.method())) {
                ex.sendResponseHeaders(200, -1);
            } else if (!"POST".equals(r.method())) {
                json(ex, 200, path.equals("/v1/models") ? "{\"data\":[],\"has_more\":false}" : "{}");
            } else if (path.equals("/v1/messages/count_tokens")) {
                json(ex, 200, "{\"input_tokens\":" + Math.max(1, in.length / 4) + "}");
            } else if (isMessages(r)) {
                messages(ex, r);
            } else {
                json(ex, 200, "{}");
            }
        }
    }

    private void messages(HttpExchange ex, Request r) throws IOException {
        if (!API_KEY.equals(r.headers().get("x-api-key"))) {
            json(
                    ex,
                    401,
                    "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid x-api-key\"}}");
            return;
        }
        JsonNode body = r.json();
        if (body == null) {
            json(
                    ex,
                    400,
                    "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"not JSON\"}}");
            return;
        }
        Reply reply;
        if (offersBash(body)) {
            Turn turn = new Turn(body);
            turns.add(turn);
            reply = script.reply(turn);
        } else {
            reply = Reply.text("Scripted side answer.");
        }
        String model = body.path("model").asText("claude-scripted");
        String id = "msg_scripted_" + ids.incrementAndGet();
        List<ObjectNode> blocks = new ArrayList<>();
        for (Block b : reply.blocks()) {
            ObjectNode n = Json.mapper().createObjectNode();
            if (b instanceof Text t) {
                n.put("type", "text").put("text", t.text());
            } else if (b instanceof ToolUse u) {
                n.put("type", "tool_use")
                        .put("id", "toolu_scripted_" + ids.incrementAndGet())
                        .put("name", u.name())
                        .set("input", u.input());
            }
            blocks.add(n);
        }
        int outputTokens = 5 + reply.toString().length() / 8;
        if (body.path("stream").asBoolean(false)) {
            stream(ex, id, model, blocks, reply.stopReason(), outputTokens);
        } else {
            ObjectNode m = Json.mapper()
                    .createObjectNode()
                    .put("id", id)
                    .put("type", "message")
                    .put("role", "assistant")
                    .put("model", model);
            ArrayNode content = m.putArray("content");
            blocks.forEach(content::add);
            m.put("stop_reason", reply.stopReason()).putNull("stop_sequence");
            m.putObject("usage").put("input_tokens", 12).put("output_tokens", outputTokens);
            json(ex, 200, Json.mapper().writeValueAsString(m));
        }
    }

    private static void stream(
            HttpExchange ex, String id, String model, List<ObjectNode> blocks, String stop, int outputTokens)
            throws IOException {
        ex.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
        ex.getResponseHeaders().set("Cache-Control", "no-cache");
        ex.sendResponseHeaders(200, 0);
        OutputStream out = ex.getResponseBody();
        ObjectNode start = Json.mapper().createObjectNode().put("type", "message_start");
        ObjectNode msg = start.putObject("message")
                .put("id", id)
                .put("type", "message")
                .put("role", "assistant")
                .put("model", model);
        msg.putArray("content");
        msg.putNull("stop_reason").putNull("stop_sequence");
        msg.putObject("usage").put("input_tokens", 12).put("output_tokens", 1);
        event(out, "message_start", start);
        event(out, "ping", Json.mapper().createObjectNode().put("type", "ping"));
        for (int i = 0; i < blocks.size(); i++) {
            ObjectNode b = blocks.get(i);
            boolean tool = "tool_use".equals(b.path("type").asText());
            ObjectNode cbs = Json.mapper()
                    .createObjectNode()
                    .put("type", "content_block_start")
                    .put("index", i);
            ObjectNode shell = cbs.putObject("content_block");
            ObjectNode delta = Json.mapper()
                    .createObjectNode()
                    .put("type", "content_block_delta")
                    .put("index", i);
            if (tool) {
                shell.put("type", "tool_use")
                        .put("id", b.path("id").asText())
                        .put("name", b.path("name").asText());
                shell.putObject("input");
                String input = Json.mapper().writeValueAsString(b.path("input"));
                int half = input.length() / 2;
                event(out, "content_block_start", cbs);
                // The input arrives in pieces, as the API sends it.
                for (String part : new String[] {input.substring(0, half), input.substring(half)}) {
                    delta.putObject("delta").put("type", "input_json_delta").put("partial_json", part);
                    event(out, "content_block_delta", delta);
                }
            } else {
                shell.put("type", "text").put("text", "");
                event(out, "content_block_start", cbs);
                delta.putObject("delta")
                        .put("type", "text_delta")
                        .put("text", b.path("text").asText());
                event(out, "content_block_delta", delta);
            }
            event(
                    out,
                    "content_block_stop",
                    Json.mapper()
                            .createObjectNode()
                            .put("type", "content_block_stop")
                            .put("index", i));
        }
        ObjectNode md = Json.mapper().createObjectNode().put("type", "message_delta");
        md.putObject("delta").put("stop_reason", stop).putNull("stop_sequence");
        md.putObject("usage").put("output_tokens", outputTokens);
        event(out, "message_delta", md);
        event(out, "message_stop", Json.mapper().createObjectNode().put("type", "message_stop"));
        out.flush();
    }

    private static void event(OutputStream out, String name, JsonNode data) throws IOException {
        out.write(("event: " + name + "\ndata: " + Json.mapper().writeValueAsString(data) + "\n\n")
                .getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void json(HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, b.length);
        ex.getResponseBody().write(b);
    }

    private static boolean isMessages(Request r) {
        return "POST".equals(r.method())
                && r.path().startsWith("/v1/messages")
                && !r.path().startsWith("/v1/messages/count_tokens");
    }

    private static boolean offersBash(JsonNode body) {
        for (JsonNode t : body.path("tools")) {
            if ("Bash".equals(t.path("name").asText())) {
                return true;
            }
        }
        return false;
    }
}
