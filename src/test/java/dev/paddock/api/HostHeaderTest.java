package dev.paddock.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.testing.BrokerRig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A web page cannot use the loopback API: a request for another host name (DNS rebinding: the page's own name
 * resolving to 127.0.0.1) or from a browser context ({@code Origin}, {@code Sec-Fetch-Site}) is refused with a
 * JSON error even when it carries the install token. Raw HTTP over real sockets, as a browser would send it.
 */
class HostHeaderTest {
    @TempDir
    static Path shared;

    private static BrokerRig rig;

    @BeforeAll
    static void start() throws Exception {
        rig = BrokerRig.start(shared.resolve("home"));
    }

    @AfterAll
    static void stop() {
        rig.close();
    }

    @ParameterizedTest(name = "Host: {0}")
    @ValueSource(strings = {"127.0.0.1:PORT", "localhost:PORT", "LOCALHOST:PORT", "127.0.0.1", "localhost"})
    void requestsForTheLoopbackAddressAreServed(String host) throws Exception {
        String answer = get(host.replace("PORT", Integer.toString(rig.port())), "");

        assertThat(answer).startsWith("HTTP/1.1 200");
    }

    @ParameterizedTest(name = "Host: {0}")
    @ValueSource(
            strings = {
                "attacker.example:PORT",
                "attacker.example",
                "127.0.0.1.nip.io:PORT",
                "127.0.0.1:OTHER",
                "localhost:OTHER",
                "[::1]:OTHER",
                "127.0.0.2:PORT"
            })
    void aRequestForAnotherHostIsRefusedWith421(String host) throws Exception {
        String answer = get(
                host.replace("PORT", Integer.toString(rig.port())).replace("OTHER", Integer.toString(otherPort())), "");

        assertThat(answer).startsWith("HTTP/1.1 421");
        JsonNode error = body(answer);
        assertThat(error.get("code").asText()).isEqualTo("bad_host");
        assertThat(error.get("error").asText()).contains("DNS rebinding").contains("127.0.0.1:" + rig.port());
    }

    @Test
    void aRequestWithoutHostIsRefusedWith400() throws Exception {
        String answer = raw("GET /v1/health HTTP/1.0\r\nAuthorization: Bearer " + rig.installToken() + "\r\n\r\n");

        assertThat(answer).startsWith("HTTP/1.1 400");
        assertThat(body(answer).get("code").asText()).isEqualTo("bad_host");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "Origin: http://127.0.0.1:PORT",
                "Origin: https://attacker.example",
                "Origin: null",
                "Sec-Fetch-Site: cross-site",
                "Sec-Fetch-Site: none"
            })
    void aRequestFromABrowserIsRefusedEvenWithTheToken(String header) throws Exception {
        String answer = get("127.0.0.1:" + rig.port(), header.replace("PORT", Integer.toString(rig.port())) + "\r\n");

        assertThat(answer).startsWith("HTTP/1.1 403");
        assertThat(body(answer).get("code").asText()).isEqualTo("browser_request");
    }

    private static String get(String host, String extraHeaders) throws IOException {
        return raw("GET /v1/health HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: Bearer " + rig.installToken()
                + "\r\n" + extraHeaders + "Connection: close\r\n\r\n");
    }

    private static String raw(String request) throws IOException {
        try (Socket s = new Socket(InetAddress.getByName("127.0.0.1"), rig.port())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static JsonNode body(String answer) throws IOException {
        return Json.mapper().readTree(answer.substring(answer.indexOf("\r\n\r\n") + 4));
    }

    private static int otherPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
