package dev.paddock.ui.sandboxes;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.common.Json;
import dev.paddock.testing.ScriptedAnthropic;
import dev.paddock.testing.ScriptedAnthropic.Reply;
import dev.paddock.testing.ScriptedAnthropic.Text;
import dev.paddock.testing.ScriptedAnthropic.ToolUse;
import dev.paddock.testing.ScriptedAnthropic.Turn;
import java.util.List;

/**
 * A scripted Messages API for screenshots of the Transcript tab with the real Claude Code CLI: a short working
 * session on a repository with {@code shop/total.py} and {@code test_total.py} (the model reads the code, runs the
 * tests, fixes a bug, tries a command the policy denies and one it asks about). Run it
 * ({@code java -cp ... dev.paddock.ui.sandboxes.TranscriptDemoApi}), start Paddock with
 * {@code ANTHROPIC_BASE_URL} set to the address it prints and {@code ANTHROPIC_API_KEY=test-key}, and create a
 * sandbox with {@code --agent claude}.
 */
public final class TranscriptDemoApi {
    private TranscriptDemoApi() {}

    /** Starts the API and waits (Ctrl+C ends it). */
    public static void main(String[] args) throws Exception {
        ScriptedAnthropic api = ScriptedAnthropic.start(TranscriptDemoApi::reply);
        System.out.println(api.baseUrl());
        System.out.flush();
        Thread.currentThread().join();
    }

    private static Reply reply(Turn t) {
        return switch (t.turnsSincePrompt()) {
            case 0 -> say("I'll start with the state of the repository.", bash("git status"));
            case 1 ->
                say(
                        "Clean tree. Let me read the function that computes the total.",
                        tool("Read", Json.mapper().createObjectNode().put("file_path", "shop/total.py")));
            case 2 -> say("Now the tests, to see how it fails.", bash("python3 -m unittest -q test_total"));
            case 3 ->
                say(
                        "The tax is added twice: once in `taxed` and again in the return. Fixing the return.",
                        tool(
                                "Edit",
                                Json.mapper()
                                        .createObjectNode()
                                        .put("file_path", "shop/total.py")
                                        .put("old_string", "    return taxed + subtotal * tax_rate\n")
                                        .put("new_string", "    return taxed\n")));
            case 4 -> say("Running the tests again.", bash("python3 -m unittest -q test_total"));
            case 5 -> say("The tests pass. Removing the build output before committing.", bash("rm -rf build dist"));
            case 6 ->
                say(
                        "Paddock's policy refuses that; the build folder is ignored anyway. Committing the fix.",
                        bash("git commit -am 'Add the tax once'"));
            case 7 -> say("Pushing the branch so the fix can be reviewed.", bash("git push origin HEAD"));
            default ->
                Reply.text("Done: `total()` added the tax twice; it now adds it once, and the tests pass."
                        + " The commit is on this branch; pushing it is left to you (there is no remote here).");
        };
    }

    private static Reply say(String text, ToolUse call) {
        return new Reply(List.of(new Text(text), call));
    }

    private static ToolUse bash(String command) {
        return new ToolUse(
                "Bash", Json.mapper().createObjectNode().put("command", command).put("description", "Run " + command));
    }

    private static ToolUse tool(String name, ObjectNode input) {
        return new ToolUse(name, input);
    }
}
