package dev.paddock.testing;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.common.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * Lines of Claude Code's {@code --output-format stream-json --verbose}, in the shape the real CLI (2.1.332) prints
 * them (see {@code claude-stream.jsonl}, captured from it): for logs that grow while a test or a benchmark watches,
 * with as many events as wanted. Each method gives one line without its line break.
 */
public final class ClaudeStreamLog {
    private final String session;
    private int message;

    public ClaudeStreamLog(String session) {
        this.session = session;
    }

    /** A new session id. */
    public static ClaudeStreamLog newSession() {
        return new ClaudeStreamLog(UUID.randomUUID().toString());
    }

    public String session() {
        return session;
    }

    /** {@code {"type":"system","subtype":"init",...}}. */
    public String init(String cwd) {
        ObjectNode n = Json.mapper()
                .createObjectNode()
                .put("type", "system")
                .put("subtype", "init")
                .put("cwd", cwd)
                .put("session_id", session);
        ArrayNode tools = n.putArray("tools");
        for (String t : List.of("Task", "Bash", "Edit", "Glob", "Grep", "Read", "Write", "WebFetch")) {
            tools.add(t);
        }
        n.putArray("mcp_servers");
        n.put("model", "claude-opus-5-5")
                .put("permissionMode", "default")
                .put("apiKeySource", "ANTHROPIC_API_KEY")
                .put("claude_code_version", "2.1.332")
                .put("uuid", UUID.randomUUID().toString());
        return n.toString();
    }

    /** The model says {@code text}. */
    public String text(String text) {
        ObjectNode block = Json.mapper().createObjectNode().put("type", "text").put("text", text);
        return assistant(block);
    }

    /** The model calls Bash with {@code command}, as call {@code id}. */
    public String bash(String id, String command) {
        ObjectNode input = Json.mapper()
                .createObjectNode()
                .put("command", command)
                .put("description", "Run " + command.lines().findFirst().orElse(""));
        return toolUse(id, "Bash", input);
    }

    /** The model calls {@code tool} with {@code input}, as call {@code id}. */
    public String toolUse(String id, String tool, ObjectNode input) {
        ObjectNode block = Json.mapper()
                .createObjectNode()
                .put("type", "tool_use")
                .put("id", id)
                .put("name", tool);
        block.set("input", input);
        return assistant(block);
    }

    /** The result of call {@code id}. */
    public String toolResult(String id, String content, boolean error) {
        ObjectNode n = Json.mapper().createObjectNode().put("type", "user");
        ObjectNode m = n.putObject("message").put("role", "user");
        m.putArray("content")
                .addObject()
                .put("tool_use_id", id)
                .put("type", "tool_result")
                .put("content", content)
                .put("is_error", error);
        n.putNull("parent_tool_use_id");
        n.put("session_id", session).put("uuid", UUID.randomUUID().toString()).put("timestamp", "2026-12-05T17:05:10Z");
        n.putObject("tool_use_result")
                .put("stdout", error ? "" : content)
                .put("stderr", error ? content : "")
                .put("interrupted", false)
                .put("isImage", false);
        return n.toString();
    }

    /** The run's end: {@code {"type":"result",...}} with its figures. */
    public String result(
            boolean error,
            long inputTokens,
            long outputTokens,
            double costUsd,
            long durationMs,
            int turns,
            String result) {
        ObjectNode n = Json.mapper()
                .createObjectNode()
                .put("type", "result")
                .put("subtype", error ? "error_during_execution" : "success")
                .put("is_error", error)
                .put("duration_ms", durationMs)
                .put("duration_api_ms", durationMs / 2)
                .put("num_turns", turns)
                .put("result", result)
                .put("stop_reason", "end_turn")
                .put("session_id", session)
                .put("total_cost_usd", costUsd);
        n.putObject("usage")
                .put("input_tokens", inputTokens)
                .put("cache_creation_input_tokens", 0)
                .put("cache_read_input_tokens", 0)
                .put("output_tokens", outputTokens)
                .put("service_tier", "standard");
        n.putArray("permission_denials");
        n.put("uuid", UUID.randomUUID().toString());
        return n.toString();
    }

    private String assistant(ObjectNode block) {
        message++;
        ObjectNode n = Json.mapper().createObjectNode().put("type", "assistant");
        ObjectNode m = n.putObject("message")
                .put("id", "msg_" + message)
                .put("type", "message")
                .put("role", "assistant")
                .put("model", "claude-opus-5-5");
        m.putArray("content").add(block);
        m.putNull("stop_reason");
        m.putNull("stop_sequence");
        m.putObject("usage")
                .put("input_tokens", 1200 + message)
                .put("output_tokens", 40)
                .put("cache_read_input_tokens", 18000);
        m.putNull("context_management");
        n.putNull("parent_tool_use_id");
        n.put("session_id", session).put("uuid", UUID.randomUUID().toString()).put("timestamp", "2026-12-05T17:05:09Z");
        return n.toString();
    }

    /**
     * A working session of {@code events} lines: the model explains, calls a tool (Bash, Read, Edit, Grep), gets
     * its output (a few lines to a few dozen; now and then an error), and every {@code 400} events a run ends and a
     * new one starts. Tool call ids are {@code toolu_<n>}.
     */
    public List<String> conversation(String cwd, int events, long seed) {
        Random r = new Random(seed);
        List<String> out = new ArrayList<>(events);
        out.add(init(cwd));
        int call = 0;
        int turns = 0;
        while (out.size() < events) {
            int step = out.size() % 400;
            if (step == 399) {
                out.add(result(
                        false,
                        120_000 + r.nextInt(50_000),
                        9_000 + r.nextInt(3_000),
                        0.5 + r.nextInt(1000) / 1000.0,
                        60_000 + r.nextInt(600_000),
                        turns,
                        "Done: the tests pass."));
                turns = 0;
                continue;
            }
            if (step == 0) {
                out.add(init(cwd));
                continue;
            }
            switch (out.size() % 3) {
                case 0 ->
                    out.add(text(sentence(r) + (r.nextInt(4) == 0 ? "\n\n" + sentence(r) + " " + sentence(r) : "")));
                case 1 -> {
                    call++;
                    turns++;
                    out.add(tool(cwd, "toolu_" + call, call, r));
                }
                default -> {
                    boolean error = r.nextInt(25) == 0;
                    out.add(toolResult(
                            "toolu_" + call,
                            error ? "Exit code 1\nerror: test failed: expected 3 but was 4" : output(r),
                            error));
                }
            }
        }
        return out.subList(0, events);
    }

    private String tool(String cwd, String id, int n, Random r) {
        ObjectNode in = Json.mapper().createObjectNode();
        switch (n % 4) {
            case 0 -> {
                return bash(
                        id,
                        List.of(
                                        "git status",
                                        "mvn -q test -Dtest=OrderTest",
                                        "ls -la src/main",
                                        "grep -rn TODO src | head -20")
                                .get(r.nextInt(4)));
            }
            case 1 -> {
                in.put("file_path", cwd + "/src/main/java/shop/Order" + n % 17 + ".java");
                return toolUse(id, "Read", in);
            }
            case 2 -> {
                in.put("file_path", cwd + "/src/main/java/shop/Order" + n % 17 + ".java")
                        .put("old_string", "return total;")
                        .put("new_string", "return total.add(tax);");
                return toolUse(id, "Edit", in);
            }
            default -> {
                in.put("pattern", "class Order").put("path", cwd + "/src");
                return toolUse(id, "Grep", in);
            }
        }
    }

    private static String sentence(Random r) {
        String[] s = {
            "Let me look at how the order total is computed.",
            "The test fails because tax is added twice.",
            "I'll run the tests again to check the fix.",
            "Now the rounding matches the invoice service.",
            "This file has the discount logic; I'll read it first.",
            "The build is green; next, the edge cases."
        };
        return s[r.nextInt(s.length)];
    }

    private static String output(Random r) {
        int lines = 1 + r.nextInt(40);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < lines; i++) {
            b.append(String.format("%4d  ", i + 1))
                    .append("    BigDecimal total = lines.stream().map(Line::amount)")
                    .append(".reduce(BigDecimal.ZERO, BigDecimal::add);")
                    .append('\n');
        }
        return b.toString();
    }
}
