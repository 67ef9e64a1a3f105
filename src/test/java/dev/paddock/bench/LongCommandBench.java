package dev.paddock.bench;

import dev.paddock.policy.LongCommandFixtures;
import dev.paddock.policy.PolicyEngine;
import dev.paddock.policy.ToolRequest;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How long one decision takes for long commands (a 200 KB and a 1 MiB commit message, a 200 KB script of
 * some 4,000 commands, and the slowest of the deep or slow-to-read 200 KB inputs): the analysis must stay
 * linear, since it runs on every hook call and a command may be as long as the hook's input limit.
 */
class LongCommandBench {
    @Test
    void longCommandsAreDecidedInLinearTime() throws Exception {
        PolicyEngine engine = LongCommandFixtures.engine();
        Path repo = LongCommandFixtures.REPO;
        Map<String, String> inputs = new LinkedHashMap<>();
        inputs.put("200 KB commit message", LongCommandFixtures.commit(200 * 1024));
        inputs.put("1 MiB commit message", LongCommandFixtures.commit(1 << 20));
        inputs.put("200 KB script", LongCommandFixtures.script(200 * 1024, "ls"));
        inputs.put("1 MiB script", LongCommandFixtures.script(1 << 20, "ls"));
        int i = 0;
        for (String p : LongCommandFixtures.pathological(200 * 1024)) {
            inputs.put(
                    "200 KB deep #" + i++ + " ("
                            + p.substring(3, Math.min(p.length(), 9)).replace("\n", "\\n") + ")",
                    p);
        }
        for (int warm = 0; warm < 3; warm++) {
            for (String s : inputs.values()) {
                engine.decide(ToolRequest.bash(s, repo));
            }
        }
        double slowestDeep = 0;
        String slowestName = "";
        for (Map.Entry<String, String> e : inputs.entrySet()) {
            long t0 = System.nanoTime();
            int n = 5;
            for (int k = 0; k < n; k++) {
                engine.decide(ToolRequest.bash(e.getValue(), repo));
            }
            double ms = (System.nanoTime() - t0) / 1e6 / n;
            if (e.getKey().contains("deep")) {
                if (ms > slowestDeep) {
                    slowestDeep = ms;
                    slowestName = e.getKey();
                }
            } else {
                BenchSupport.report(String.format(
                        "policy: %s decided in %.1f ms (load %s)", e.getKey(), ms, PolicyThroughputBench.load()));
            }
        }
        BenchSupport.report(String.format(
                "policy: slowest deep 200 KB input (%s) decided in %.1f ms (load %s)",
                slowestName, slowestDeep, PolicyThroughputBench.load()));
    }
}
