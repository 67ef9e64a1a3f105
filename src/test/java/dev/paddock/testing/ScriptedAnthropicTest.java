package dev.paddock.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.testing.ScriptedAnthropic.Reply;
import dev.paddock.testing.ScriptedAnthropic.Script;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scripted Messages API speaks the API's wire format (the real CLI runs against it in ClaudeCodeCliTest). */
class ScriptedAnthropicTest {
    private static final String TURN = "{\"model\":\"m\",\"stream\":%s,\"tools\":[{\"name\":\"Bash\"}],"
            + "\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"<system-reminder>x\"},"
            + "{\"type\":\"text\",\"text\":\"do it\"}]}%s]}";
    private static final String RESULT = ",{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"a\"}]},"
            + "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"a\",\"content\":\"ok\"}]}";
    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> post(ScriptedAnthropic api, String path, String body, String key) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(api.baseUrl() + path))
                        .header("x-api-key", key)
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void streamsTheEventsOfAToolCallThenAnswersTheNextStep() throws Exception {
        try (ScriptedAnthropic api = ScriptedAnthropic.start(Script.steps(Reply.bash("ls -la"), Reply.text("Bye.")))) {
            HttpResponse<String> r = post(api, "/v1/messages?beta=true", TURN.formatted("true", ""), "test-key");
            assertThat(r.headers().firstValue("content-type"))
                    .hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));
            List<String> events = new ArrayList<>();
            StringBuilder json = new StringBuilder();
            for (String line : r.body().split("\n")) {
                if (line.startsWith("event: ")) {
                    events.add(line.substring(7));
                } else if (line.startsWith("data: ") && line.contains("input_json_delta")) {
                    json.append(Json.mapper()
                            .readTree(line.substring(6))
                            .path("delta")
                            .path("partial_json")
                            .asText());
                } else if (line.startsWith("data: ") && line.contains("\"message_delta\"")) {
                    assertThat(Json.mapper()
                                    .readTree(line.substring(6))
                                    .path("delta")
                                    .path("stop_reason")
                                    .asText())
                            .isEqualTo("tool_use");
                }
            }
            assertThat(events)
                    .containsExactly(
                            "message_start",
                            "ping",
                            "content_block_start",
                            "content_block_delta",
                            "content_block_stop",
                            "content_block_start",
                            "content_block_delta",
                            "content_block_delta",
                            "content_block_stop",
                            "message_delta",
                            "message_stop");
            assertThat(Json.mapper().readTree(json.toString()).path("command").asText())
                    .isEqualTo("ls -la");

            JsonNode second = Json.mapper()
                    .readTree(post(api, "/v1/messages", TURN.formatted("false", RESULT), "test-key")
                            .body());
            assertThat(second.path("stop_reason").asText()).isEqualTo("end_turn");
            assertThat(second.path("content").get(0).path("text").asText()).isEqualTo("Bye.");
            assertThat(api.turns()).extracting(ScriptedAnthropic.Turn::prompt).containsExactly("do it", "do it");
            assertThat(api.turns().get(1).lastToolResults()).containsExactly("ok");
            assertThat(api.turns().get(1).turnsSincePrompt()).isEqualTo(1);
        }
    }

    @Test
    void otherRoutesAnswerHarmlesslyAndAreRecorded() throws Exception {
        try (ScriptedAnthropic api = ScriptedAnthropic.start(t -> Reply.text("x"))) {
            assertThat(post(api, "/v1/messages", TURN.formatted("false", ""), "wrong")
                            .statusCode())
                    .isEqualTo(401);
            assertThat(post(api, "/v1/messages/count_tokens", "{\"messages\":[]}", "test-key")
                            .body())
                    .startsWith("{\"input_tokens\":");
            assertThat(post(api, "/api/event_logging/batch", "{}", "test-key").statusCode())
                    .isEqualTo(200);
            assertThat(http.send(
                                    HttpRequest.newBuilder(URI.create(api.baseUrl() + "/v1/models"))
                                            .GET()
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .body())
                    .contains("\"data\":[]");
            assertThat(http.send(
                                    HttpRequest.newBuilder(URI.create(api.baseUrl() + "/"))
                                            .method("HEAD", HttpRequest.BodyPublishers.noBody())
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode())
                    .isEqualTo(200);
            JsonNode side = Json.mapper()
                    .readTree(post(api, "/v1/messages", "{\"messages\":[]}", "test-key")
                            .body());
            assertThat(side.path("content").get(0).path("text").asText()).isEqualTo("Scripted side answer.");
            assertThat(api.requests())
                    .extracting(ScriptedAnthropic.Request::path)
                    .containsExactly(
                            "/v1/messages",
                            "/v1/messages/count_tokens",
                            "/api/event_logging/batch",
                            "/v1/models",
                            "/",
                            "/v1/messages");
            assertThat(api.turns()).isEmpty();
        }
    }
}
