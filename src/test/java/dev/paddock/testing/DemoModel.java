package dev.paddock.testing;

import dev.paddock.testing.ScriptedAnthropic.Reply;
import dev.paddock.testing.ScriptedAnthropic.Turn;
import java.util.concurrent.CountDownLatch;

/**
 * A scripted model to try Paddock's Claude Code agents with no model account: a {@link ScriptedAnthropic} on a fixed
 * loopback port whose every agent, for each task, looks at the tree ({@code git status}), writes the task into
 * {@code NOTES.md}, commits it, asks to push its branch ({@code git push origin HEAD}) and says it is done; a
 * follow-up gets one line back. The README's "Try it without a model account" runs it:
 * {@code mvn -q test-compile org.codehaus.mojo:exec-maven-plugin:3.5.0:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.paddock.testing.DemoModel -Dexec.args=8765}.
 */
public final class DemoModel {
    private DemoModel() {}

    /** What the model answers in turn {@code t}. */
    static Reply reply(Turn t) {
        if (!firstPrompt(t).equals(t.prompt())) {
            return t.turnsSincePrompt() == 0
                    ? Reply.text("You said: “" + t.prompt() + "”. This model only"
                            + " follows its script, so that is all it says.")
                    : Reply.text("Done.");
        }
        return switch (t.turnsSincePrompt()) {
            case 0 -> Reply.bash("git status");
            case 1 -> Reply.bash("printf '%s\\n' " + quote(t.prompt()) + " > NOTES.md");
            case 2 -> Reply.bash("git add NOTES.md && git commit -q -m 'Add notes on the task'");
            case 3 -> Reply.bash("git push origin HEAD");
            default -> Reply.text("Done: NOTES.md holds the task, committed; the push went as you decided.");
        };
    }

    /** The task: the first prompt of the conversation. */
    private static String firstPrompt(Turn t) {
        for (var m : t.messages()) {
            if ("user".equals(m.path("role").asText())) {
                var c = m.path("content");
                if (c.isTextual()) {
                    return c.asText();
                }
                for (var b : c) {
                    if ("text".equals(b.path("type").asText())
                            && !b.path("text").asText().startsWith("<system-reminder>")) {
                        return b.path("text").asText();
                    }
                }
            }
        }
        return t.prompt();
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /** Serves on the port given (default 8765) until the process is stopped. */
    public static void main(String[] args) throws InterruptedException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8765;
        ScriptedAnthropic api = ScriptedAnthropic.start(DemoModel::reply, port);
        System.out.println("Scripted model on " + api.baseUrl() + ": start Paddock with ANTHROPIC_BASE_URL="
                + api.baseUrl() + " ANTHROPIC_API_KEY=" + ScriptedAnthropic.API_KEY + " (Ctrl+C stops it)");
        new CountDownLatch(1).await();
    }
}
