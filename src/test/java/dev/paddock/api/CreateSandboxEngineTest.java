package dev.paddock.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.common.Json;
import dev.paddock.sandbox.NewSandbox;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code sandbox new --engine NAME --engine-label K=V} reaches the running Paddock's request intact. */
class CreateSandboxEngineTest {
    @Test
    void theEngineAndItsLabelsCrossTheWire() throws Exception {
        CreateSandboxRequest sent = new CreateSandboxRequest(
                "/tmp/repo",
                "t",
                "true",
                "container",
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                " far ",
                Map.of("zone", "far"));
        String json = Json.mapper().writeValueAsString(sent);
        NewSandbox got =
                Json.mapper().readValue(json, CreateSandboxRequest.class).toNewSandbox();
        assertThat(got.engine()).isEqualTo("far");
        assertThat(got.engineLabels()).isEqualTo(Map.of("zone", "far"));

        NewSandbox none = Json.mapper()
                .readValue("{\"repo\":\"/tmp/repo\",\"task\":\"t\",\"command\":\"true\"}", CreateSandboxRequest.class)
                .toNewSandbox();
        assertThat(none.engine()).isNull();
        assertThat(none.engineLabels()).isEmpty();
    }
}
