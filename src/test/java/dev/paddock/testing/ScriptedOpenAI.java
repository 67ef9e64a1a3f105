package dev.paddock.testing;

import com.fasterxml.jackson.databind.JsonNode;
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
 * A scripted stand-in for OpenAI's Responses API on a loopback port, for running the real Codex CLI without a
 * network or a model. Codex reaches it through a model provider of its own configuration ({@link #providerConfig}:
 * {@code base_url = "http://127.0.0.1:PORT/v1"}, {@code wire_api = "responses"}, the key from
 * {@code OPENAI_API_KEY}); Codex 0.171.0 ignores {@code OPENAI_BASE_URL}, and its built-in {@code openai} provider
 * with {@code openai_base_url} set first tries a WebSocket, which a custom provider does not.
 *
 * <p>{@code POST /v1/responses} ({@code "stream": true}, the key as {@code Authorization: Bearer}) answers with
 * server-sent events: {@code response.created}; per output item {@code response.output_item.added},
 * {@code response.output_text.delta} for a message, and {@code response.output_item.done}; then
 * {@code response.completed} with usage. An item is an assistant {@code message} or a {@code function_call} of
 * Codex's {@code exec_command} tool (its shell: {@code {"cmd": "..."}}); Codex runs the call and sends its
 * {@code function_call_output} in the next request, with the whole conversation. What the "model" answers comes
 * from a {@link Script}, which sees that conversation.
 *
 * <p>Only requests that offer tools are the agent's turns and go to the script; any other {@code /v1/responses} call
 * gets a short text answer. Codex 0.171.0 with its default model ({@code gpt-6.2-sol}) sends its tools as an input
 * item of type {@code additional_tools} (its "code mode": a JavaScript {@code exec} tool and a few others) and still
 * runs an {@code exec_command} call as a shell command; with a model of its catalog's older kind it lists
 * {@code exec_command} in {@code tools}. {@code GET /v1/models} answers an empty list, every other
 * route {@code 200 {}}. Everything is recorded ({@link #requests()}).
 */
public final class ScriptedOpenAI implements AutoCloseable {
    /** The API key the CLI must send. */
    public static final String API_KEY = "test-openai-key";
    /** The name of the model provider {@link #providerConfig} defines. */
    public static final String PROVIDER = "scripted";
    /** Codex's shell tool. */
    public static final String SHELL_TOOL = "exec_command";

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

    /** An output item of a reply. */
    public sealed interface Item permits Text, Call {}

    /** An assistant message. */
    public record Text(String text) implements Item {}

    /** A function call; its ids are given by the server when sent. */
    public record Call(String name, ObjectNode arguments) implements Item {}

    /** What the model answers in one turn. */
    public record Reply(List<Item> items) {
        public Reply {
            items = List.copyOf(items);
        }

        /** A text answer that ends the turn. */
        public static Reply text(String text) {
            return new Reply(List.of(new Text(text)));
        }

        /** A shell command, with a line of text before it. */
        public static Reply exec(String command) {
            return new Reply(List.of(
                    new Text("Running a command."),
                    new Call(SHELL_TOOL, Json.mapper().createObjectNode().put("cmd", command))));
        }

        /**
         * A new file written with Codex's {@code apply_patch} through its shell tool (Codex takes such a command as
         * a patch of its own: a {@code file_change}, not a command).
         */
        public static Reply addFile(String path, String line) {
            String patch = "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: " + path + "\n+" + line
                    + "\n*** End Patch\nEOF\n";
            return new Reply(List.of(
                    new Call(SHELL_TOOL, Json.mapper().createObjectNode().put("cmd", patch))));
        }
    }

    /** What the model is shown in one of the agent's turns. */
    public record Turn(JsonNode request) {
        /** The conversation's input items. */
        public List<JsonNode> input() {
            List<JsonNode> out = new ArrayList<>();
            request.path("input").forEach(out::add);
            return out;
        }

        /**
         * The latest prompt a person (or Paddock) gave: the text of the last user message that is not Codex's own
         * context ({@code <environment_context>} and the like).
         */
        public String prompt() {
            int i = lastPrompt();
            return i < 0 ? "" : text(input().get(i));
        }

        /** The function call outputs since the latest prompt, in runs: 0 for the first answer to it. */
        public int turnsSincePrompt() {
            List<JsonNode> in = input();
            int n = 0;
            boolean inRun = false;
            for (int i = lastPrompt() + 1; i < in.size(); i++) {
                boolean output =
                        "function_call_output".equals(in.get(i).path("type").asText());
                if (output && !inRun) {
                    n++;
                }
                inRun = output;
            }
            return n;
        }

        /** The outputs of the calls answered in this request (the trailing function call outputs), oldest first. */
        public List<String> lastToolResults() {
            List<JsonNode> in = input();
            List<String> out = new ArrayList<>();
            for (int i = in.size() - 1;
                    i >= 0
                            && "function_call_output"
                                    .equals(in.get(i).path("type").asText());
                    i--) {
                out.add(0, in.get(i).path("output").asText());
            }
            return out;
        }

        /** Every text of the conversation, in order (messages of all roles), for what the model was shown. */
        public List<String> texts() {
            List<String> out = new ArrayList<>();
            for (JsonNode item : input()) {
                if ("message".equals(item.path("type").asText())) {
                    out.add(item.path("role").asText() + ": " + text(item));
                }
            }
            return out;
        }

        private int lastPrompt() {
            List<JsonNode> in = input();
            for (int i = in.size() - 1; i >= 0; i--) {
                JsonNode m = in.get(i);
                if ("message".equals(m.path("type").asText())
                        && "user".equals(m.path("role").asText())
                        && !text(m).startsWith("<")) {
                    return i;
                }
            }
            return -1;
        }

        private static String text(JsonNode message) {
            JsonNode c = message.path("content");
            if (c.isTextual()) {
                return c.asText();
            }
            StringBuilder sb = new StringBuilder();
            c.forEach(b -> sb.append(b.path("text").asText()));
            return sb.toString();
        }
    }

    /** Decides the model's reply to each of the agent's turns. */
    @FunctionalInterface
    public interface Script {
        Reply reply(Turn turn);

        /**
         * The replies in order for each prompt: the first answers the prompt, the next follows the first call's
         * output, and so on; past the end, {@code "Done."}.
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

    private ScriptedOpenAI(Script script) throws IOException {
        this.script = script;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "scripted-openai");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    /** Starts a server answering with {@code script}. */
    public static ScriptedOpenAI start(Script script) {
        try {
            return new ScriptedOpenAI(script);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code http://127.0.0.1:PORT/v1}, a provider's {@code base_url}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /**
     * Codex's {@code config.toml} lines that make {@value #PROVIDER} (this server, no retries) the model provider:
     * for {@code $CODEX_HOME/config.toml}.
     */
    public String providerConfig() {
        return "model_provider = \"" + PROVIDER + "\"\n\n[model_providers." + PROVIDER + "]\nname = \"Scripted\"\n"
                + "base_url = \"" + baseUrl() + "\"\nenv_key = \"OPENAI_API_KEY\"\nwire_api = \"responses\"\n"
                + "request_max_retries = 0\nstream_max_retries = 0\n";
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
            if ("POST".equals(r.method()) && path.endsWith("/responses")) {
                responses(ex, r);
            } else {
                json(ex, 200, path.endsWith("/models") ? "{\"object\":\"list\",\"data\":[]}" : "{}");
            }
        }
    }

    private void responses(HttpExchange ex, Request r) throws IOException {
        if (!("Bearer " + API_KEY).equals(r.headers().get("authorization"))) {
            json(
                    ex,
                    401,
                    "{\"error\":{\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\","
                            + "\"message\":\"Incorrect API key provided\"}}");
            return;
        }
        JsonNode body = r.json();
        if (body == null) {
            json(ex, 400, "{\"error\":{\"type\":\"invalid_request_error\",\"message\":\"not JSON\"}}");
            return;
        }
        Reply reply;
        if (offersTools(body)) {
            Turn turn = new Turn(body);
            turns.add(turn);
            reply = script.reply(turn);
        } else {
            reply = Reply.text("Scripted side answer.");
        }
        String id = "resp_scripted_" + ids.incrementAndGet();
        ex.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
        ex.getResponseHeaders().set("Cache-Control", "no-cache");
        ex.sendResponseHeaders(200, 0);
        OutputStream out = ex.getResponseBody();
        ObjectNode created = Json.mapper().createObjectNode().put("type", "response.created");
        created.putObject("response").put("id", id).put("object", "response").put("status", "in_progress");
        event(out, created);
        for (int i = 0; i < reply.items().size(); i++) {
            Item item = reply.items().get(i);
            ObjectNode done = Json.mapper().createObjectNode();
            ObjectNode added;
            if (item instanceof Text t) {
                String itemId = "msg_scripted_" + ids.incrementAndGet();
                done.put("type", "message")
                        .put("id", itemId)
                        .put("role", "assistant")
                        .put("status", "completed");
                done.putArray("content")
                        .addObject()
                        .put("type", "output_text")
                        .put("text", t.text())
                        .putArray("annotations");
                added = done.deepCopy();
                added.put("status", "in_progress").putArray("content");
                event(out, itemEvent("response.output_item.added", i, added));
                ObjectNode delta = Json.mapper()
                        .createObjectNode()
                        .put("type", "response.output_text.delta")
                        .put("item_id", itemId)
                        .put("output_index", i)
                        .put("content_index", 0)
                        .put("delta", t.text());
                event(out, delta);
            } else if (item instanceof Call c) {
                int n = ids.incrementAndGet();
                done.put("type", "function_call")
                        .put("id", "fc_scripted_" + n)
                        .put("call_id", "call_scripted_" + n)
                        .put("name", c.name())
                        .put("arguments", Json.mapper().writeValueAsString(c.arguments()))
                        .put("status", "completed");
                added = done.deepCopy();
                added.put("status", "in_progress").put("arguments", "");
                event(out, itemEvent("response.output_item.added", i, added));
            }
            event(out, itemEvent("response.output_item.done", i, done));
        }
        ObjectNode completed = Json.mapper().createObjectNode().put("type", "response.completed");
        ObjectNode resp = completed
                .putObject("response")
                .put("id", id)
                .put("object", "response")
                .put("status", "completed");
        int outputTokens = 5 + reply.toString().length() / 8;
        ObjectNode usage = resp.putObject("usage").put("input_tokens", 12);
        usage.putObject("input_tokens_details").put("cached_tokens", 0);
        usage.put("output_tokens", outputTokens);
        usage.putObject("output_tokens_details").put("reasoning_tokens", 0);
        usage.put("total_tokens", 12 + outputTokens);
        event(out, completed);
        out.flush();
    }

    private static ObjectNode itemEvent(String type, int index, ObjectNode item) {
        ObjectNode e = Json.mapper().createObjectNode().put("type", type).put("output_index", index);
        e.set("item", item);
        return e;
    }

    private static void event(OutputStream out, ObjectNode data) throws IOException {
        out.write(("event: " + data.path("type").asText() + "\ndata: "
                        + Json.mapper().writeValueAsString(data) + "\n\n")
                .getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void json(HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, b.length);
        ex.getResponseBody().write(b);
    }

    private static boolean offersTools(JsonNode body) {
        if (!body.path("tools").isEmpty()) {
            return true;
        }
        for (JsonNode item : body.path("input")) {
            if ("additional_tools".equals(item.path("type").asText())) {
                return true;
            }
        }
        return false;
    }
}
