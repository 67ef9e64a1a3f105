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
import java.util.function.Function;

/**
 * A scripted stand-in for the Gemini API on a loopback port, for running the real Gemini CLI without a network or a
 * model ({@code GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:PORT}, {@code GEMINI_API_KEY=}{@value #API_KEY}, and
 * {@code security.auth.selectedType = "gemini-api-key"} in its settings). Gemini CLI 0.61.0 with a model named
 * ({@code -m}) calls {@code POST /v1beta/models/MODEL:streamGenerateContent?alt=sse} (the key as
 * {@code x-goog-api-key}), which answers one server-sent event: a candidate whose parts are the reply's texts and
 * function calls, {@code finishReason: STOP}, and usage. A request with tools is one of the agent's turns and goes
 * to the script, which sees the conversation ({@code contents}); any other ({@code generateContent}, e.g. the
 * router of the {@code auto} model) gets a short text. Everything is recorded.
 */
public final class ScriptedGemini implements AutoCloseable {
    /** The API key the CLI must send. */
    public static final String API_KEY = "test-gemini-key";

    /** One request as received; header names in lower case. */
    public record Request(String method, String path, Map<String, String> headers, String body) {}

    /** What the model is shown in one turn: the request's {@code contents}. */
    public record Turn(JsonNode request) {
        /** The latest user text that is not Gemini CLI's own context, or "". */
        public String prompt() {
            List<JsonNode> cs = new ArrayList<>();
            request.path("contents").forEach(cs::add);
            for (int i = cs.size() - 1; i >= 0; i--) {
                String last = "";
                for (JsonNode p : cs.get(i).path("parts")) {
                    if (p.has("text") && !p.path("text").asText().startsWith("<")) {
                        last = p.path("text").asText();
                    }
                }
                if ("user".equals(cs.get(i).path("role").asText()) && !last.isEmpty()) {
                    return last;
                }
            }
            return "";
        }

        /** The function responses of the last content (the answers to the model's last calls). */
        public List<JsonNode> lastFunctionResponses() {
            List<JsonNode> out = new ArrayList<>();
            JsonNode cs = request.path("contents");
            if (cs.isEmpty()) {
                return out;
            }
            for (JsonNode p : cs.get(cs.size() - 1).path("parts")) {
                if (p.has("functionResponse")) {
                    out.add(p.get("functionResponse"));
                }
            }
            return out;
        }

        /** Every text of the conversation as {@code role: text}, in order. */
        public List<String> texts() {
            List<String> out = new ArrayList<>();
            for (JsonNode c : request.path("contents")) {
                for (JsonNode p : c.path("parts")) {
                    if (p.has("text")) {
                        out.add(c.path("role").asText() + ": " + p.path("text").asText());
                    }
                }
            }
            return out;
        }

        /** The names of the functions offered. */
        public List<String> tools() {
            List<String> out = new ArrayList<>();
            for (JsonNode t : request.path("tools")) {
                t.path("functionDeclarations")
                        .forEach(d -> out.add(d.path("name").asText()));
            }
            return out;
        }
    }

    /** A reply's parts: {@code {"text": ...}} or {@code {"functionCall": {"name", "args"}}}. */
    public static ArrayNode text(String text) {
        ArrayNode parts = Json.mapper().createArrayNode();
        parts.addObject().put("text", text);
        return parts;
    }

    /** A function call with a line of text before it. */
    public static ArrayNode call(String name, ObjectNode args) {
        ArrayNode parts = text("Looking.");
        ObjectNode fc = parts.addObject().putObject("functionCall").put("name", name);
        fc.set("args", args);
        return parts;
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final Function<Turn, ArrayNode> script;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final List<Turn> turns = new CopyOnWriteArrayList<>();

    private ScriptedGemini(Function<Turn, ArrayNode> script) throws IOException {
        this.script = script;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "scripted-gemini");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    /** Starts a server whose model answers each turn with the parts {@code script} gives. */
    public static ScriptedGemini start(Function<Turn, ArrayNode> script) {
        try {
            return new ScriptedGemini(script);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code http://127.0.0.1:PORT}, for {@code GOOGLE_GEMINI_BASE_URL}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Every request so far. */
    public List<Request> requests() {
        return List.copyOf(requests);
    }

    /** The agent's turns the script answered, in order. */
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
            if (!"POST".equals(r.method())) {
                json(ex, 200, "{}");
                return;
            }
            if (!API_KEY.equals(headers.get("x-goog-api-key"))) {
                json(
                        ex,
                        400,
                        "{\"error\":{\"code\":400,\"message\":\"API key not valid.\",\"status\":\"INVALID_ARGUMENT\"}}");
                return;
            }
            if (path.endsWith(":countTokens")) {
                json(ex, 200, "{\"totalTokens\":" + Math.max(1, in.length / 4) + "}");
                return;
            }
            JsonNode body = Json.mapper().readTree(in);
            ArrayNode parts;
            if (!body.path("tools").isEmpty()) {
                Turn turn = new Turn(body);
                turns.add(turn);
                parts = script.apply(turn);
            } else {
                parts = text("Scripted side answer.");
            }
            ObjectNode chunk = Json.mapper().createObjectNode();
            ObjectNode cand = chunk.putArray("candidates").addObject();
            cand.putObject("content").put("role", "model").set("parts", parts);
            cand.put("finishReason", "STOP").put("index", 0);
            chunk.putObject("usageMetadata")
                    .put("promptTokenCount", 12)
                    .put("candidatesTokenCount", 5)
                    .put("totalTokenCount", 17);
            if (path.endsWith(":streamGenerateContent")) {
                ex.getResponseHeaders().set("Content-Type", "text/event-stream");
                ex.sendResponseHeaders(200, 0);
                OutputStream out = ex.getResponseBody();
                out.write(("data: " + Json.mapper().writeValueAsString(chunk) + "\r\n\r\n")
                        .getBytes(StandardCharsets.UTF_8));
                out.flush();
            } else {
                json(ex, 200, Json.mapper().writeValueAsString(chunk));
            }
        }
    }

    private static void json(HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, b.length);
        ex.getResponseBody().write(b);
    }
}
