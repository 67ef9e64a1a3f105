package dev.paddock.approval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.common.Json;
import org.junit.jupiter.api.Test;

/** Codex's apply_patch calls as its PreToolUse hook shows them, judged as edits only when nothing else can run. */
class CodexPatchTest {
    private static final String ADD =
            "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: notes.txt\n+hello\n" + "*** End Patch\nEOF\n";

    @Test
    void aPatchOfOneFileIsAnEditOfThatFile() {
        assertThat(CodexPatch.onlyFile(ADD)).contains("notes.txt");
        assertThat(CodexPatch.onlyFile("apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: src/A.java\n@@\n-a\n+b\n"
                        + "*** End Patch\nEOF"))
                .contains("src/A.java");
    }

    @Test
    void severalFilesAMoveOrAnythingAfterTheHereDocumentStayAShellCommand() {
        assertThat(CodexPatch.onlyFile("apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a\n+x\n*** Update File: "
                        + ".paddock/policy.json\n@@\n-a\n+b\n*** End Patch\nEOF\n"))
                .isEmpty();
        assertThat(CodexPatch.onlyFile("apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: a\n*** Move to: b\n"
                        + "@@\n-a\n+b\n*** End Patch\nEOF\n"))
                .isEmpty();
        assertThat(CodexPatch.onlyFile(ADD + "rm -rf ~\n")).isEmpty();
        assertThat(CodexPatch.onlyFile("apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a\n+x\nEOF\nrm -rf ~\n"
                        + "*** End Patch\nEOF\n"))
                .isEmpty();
        assertThat(CodexPatch.onlyFile("echo hi; " + ADD)).isEmpty();
        // Codex trims each line: an indented header is a second file, so the patch is no edit of x.txt alone
        assertThat(CodexPatch.onlyFile("apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: x.txt\n+hi\n"
                        + " *** Add File: .claude/evil.json\n+{}\n*** End Patch\nEOF\n"))
                .isEmpty();
        assertThat(CodexPatch.onlyFile("apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: x.txt\n+hi\n"
                        + "\t*** Add File: .claude/evil.json\n+{}\n*** End Patch\nEOF\n"))
                .isEmpty();
    }

    @Test
    void onlyCodexsPayloadIsReadThisWay() throws Exception {
        ObjectNode claude = Json.mapper()
                .createObjectNode()
                .put("hook_event_name", "PreToolUse")
                .put("tool_name", "Bash")
                .put("cwd", "/r");
        claude.putObject("tool_input").put("command", ADD);
        assertThat(ClaudeHook.parse(claude.toString()).tool())
                .as("Claude Code would run it in a shell")
                .isEqualTo("Bash");
        ObjectNode codex = claude.deepCopy().put("turn_id", "t-1");
        ClaudeHook.Call call = ClaudeHook.parse(codex.toString());
        assertThat(call.tool()).isEqualTo("Edit");
        assertThat(call.toRequest("s").input()).isEqualTo("notes.txt");
    }
}
