package dev.paddock.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Commands of 200 KB and up to the hook's input limit (1 MiB) are judged, part by part, without an error, and
 * input built to be slow or deep (tens of thousands of unclosed substitutions, nested groups) is asked rather
 * than taking quadratic time or overflowing the stack. The timeout only guards against a hang; the time
 * itself is measured by {@code LongCommandBench}.
 */
class LongCommandTest {
    private static final Path REPO = LongCommandFixtures.REPO;

    private static PolicyEngine engine() {
        return LongCommandFixtures.engine();
    }

    private static String commit(int bytes) {
        return LongCommandFixtures.commit(bytes);
    }

    private static String script(int bytes, String last) {
        return LongCommandFixtures.script(bytes, last);
    }

    private static List<String> pathological(int bytes) {
        return LongCommandFixtures.pathological(bytes);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aTwoHundredKilobyteCommitMessageIsJudgedAndAllowed() {
        String command = commit(200 * 1024);
        Decision d = engine().decide(ToolRequest.bash(command, REPO));

        assertThat(command.length()).isGreaterThan(200 * 1024);
        assertThat(d.verdict()).as(d.reason()).isEqualTo(Verdict.ALLOW);
        assertThat(d.reason().length()).as("the reason stays readable").isLessThan(4_000);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aTwoHundredKilobyteScriptIsJudgedPartByPartAndItsLastPartDecides() {
        PolicyEngine engine = engine();
        Decision allowed = engine.decide(ToolRequest.bash(script(200 * 1024, "ls"), REPO));
        Decision denied = engine.decide(ToolRequest.bash(script(200 * 1024, "rm -rf build"), REPO));

        assertThat(allowed.verdict()).as(allowed.reason()).isEqualTo(Verdict.ALLOW);
        assertThat(allowed.reason()).contains("parts are allowed").endsWith("more");
        assertThat(denied.verdict()).isEqualTo(Verdict.DENY);
        assertThat(denied.rule().text()).isEqualTo("Bash(rm -rf:*)");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aCommandAsLongAsTheHooksInputLimitIsDecided() {
        PolicyEngine engine = engine();
        assertThat(engine.decide(ToolRequest.bash(commit(1 << 20), REPO)).verdict())
                .isEqualTo(Verdict.ALLOW);
        assertThat(engine.decide(ToolRequest.bash(script(1 << 20, "cat .env"), REPO))
                        .verdict())
                .isEqualTo(Verdict.DENY);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void deepOrSlowTwoHundredKilobyteInputIsDecidedWithoutAnError() {
        PolicyEngine engine = engine();
        for (String input : pathological(200 * 1024)) {
            Decision d = engine.decide(ToolRequest.bash(input, REPO));
            String unit = input.substring(3, Math.min(input.length(), 12));
            assertThat(d.reason()).as(unit).isNotBlank();
            if (!engine.analyze(input, REPO).problems().isEmpty()) {
                assertThat(d.verdict()).as(unit).isNotEqualTo(Verdict.ALLOW);
            }
        }
    }
}
