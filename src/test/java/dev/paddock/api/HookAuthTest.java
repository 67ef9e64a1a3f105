package dev.paddock.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The formats the hook and the broker share: what a MAC and a proof depend on, and what a header must look like. */
class HookAuthTest {
    private static final String KEY = "k".repeat(43);
    private static final String NONCE = "0123456789abcdef0123456789abcdef";
    private static final byte[] BODY = "{\"tool_name\":\"Bash\"}".getBytes(StandardCharsets.UTF_8);

    @Test
    void theMacChangesWithEveryFieldItCovers() {
        String base = mac(KEY, "install", 100, NONCE, "127.0.0.1:4000", "POST", "/v1/hooks/claude", BODY);

        Set<String> others = Set.of(
                mac("x".repeat(43), "install", 100, NONCE, "127.0.0.1:4000", "POST", "/v1/hooks/claude", BODY),
                mac(KEY, "sandbox/a", 100, NONCE, "127.0.0.1:4000", "POST", "/v1/hooks/claude", BODY),
                mac(KEY, "install", 101, NONCE, "127.0.0.1:4000", "POST", "/v1/hooks/claude", BODY),
                mac(KEY, "install", 100, NONCE.replace('0', '1'), "127.0.0.1:4000", "POST", "/v1/hooks/claude", BODY),
                mac(KEY, "install", 100, NONCE, "127.0.0.1:4001", "POST", "/v1/hooks/claude", BODY),
                mac(KEY, "install", 100, NONCE, "127.0.0.1:4000", "PUT", "/v1/hooks/claude", BODY),
                mac(KEY, "install", 100, NONCE, "127.0.0.1:4000", "POST", "/v1/hooks/claude?sandbox=a", BODY),
                mac(KEY, "install", 100, NONCE, "127.0.0.1:4000", "POST", "/v1/hooks/claude", "{}".getBytes()));

        assertThat(others).hasSize(8).doesNotContain(base);
        assertThat(base).matches("[0-9a-f]{64}");
    }

    @Test
    void theProofNamesTheNonceTheAddressAndTheKeyAndIsNotTheMac() {
        String proof = HookAuth.answerProof(KEY, "install", NONCE, "127.0.0.1:4000");

        assertThat(proof)
                .isNotEqualTo(HookAuth.answerProof(KEY, "install", NONCE, "127.0.0.1:4001"))
                .isNotEqualTo(HookAuth.answerProof(KEY, "install", NONCE.replace('a', 'b'), "127.0.0.1:4000"))
                .isNotEqualTo(HookAuth.answerProof("x".repeat(43), "install", NONCE, "127.0.0.1:4000"))
                .isNotEqualTo(mac(KEY, "install", 0, NONCE, "127.0.0.1:4000", "POST", "/v1/hooks/claude", BODY));
    }

    @Test
    void eachSandboxHasItsOwnKeyAndNoneIsTheInstallToken() {
        String a = HookAuth.sandboxKey(KEY, "a-1");

        assertThat(a)
                .matches("[0-9a-f]{64}")
                .isEqualTo(HookAuth.sandboxKey(KEY, "a-1"))
                .isNotEqualTo(HookAuth.sandboxKey(KEY, "a-2"))
                .isNotEqualTo(HookAuth.sandboxKey("y".repeat(43), "a-1"))
                .doesNotContain(KEY);
    }

    @Test
    void aWellFormedHeaderParses() {
        HookAuth.Presented p = HookAuth.parse("v1 sandbox/fix-login-001 1700000000 " + NONCE + " " + "a".repeat(64));

        assertThat(p.sandboxId()).isEqualTo("fix-login-001");
        assertThat(p.ts()).isEqualTo(1700000000L);
        assertThat(HookAuth.parse(p.header())).isEqualTo(p);
        assertThat(HookAuth.parse("v1 install 1 " + NONCE + " " + "a".repeat(64))
                        .sandboxId())
                .isNull();
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(
            strings = {
                "",
                "v2 install 1 N M",
                "v1 install 1",
                "v1 root 1 NONCE MAC64",
                "v1 sandbox/../x 1 NONCE MAC64",
                "v1 sandbox/A 1 NONCE MAC64",
                "v1 install soon NONCE MAC64",
                "v1 install 1 0123 MAC64",
                "v1 install 1 NONCE ABCDEF",
                "v1 install 1 NONCE MAC64 extra"
            })
    void aMalformedHeaderIsRefusedSayingWhy(String header) {
        String h = header.replace("NONCE", NONCE).replace("MAC64", "a".repeat(64));

        assertThatThrownBy(() -> HookAuth.parse(h))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageMatching(".*(must be|unknown key id|not a number|nonce|MAC).*");
    }

    private static String mac(
            String key,
            String keyId,
            long ts,
            String nonce,
            String hostPort,
            String method,
            String target,
            byte[] body) {
        return HookAuth.requestMac(key, keyId, ts, nonce, hostPort, method, target, body);
    }
}
