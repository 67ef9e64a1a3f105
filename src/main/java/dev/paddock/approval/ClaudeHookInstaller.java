package dev.paddock.approval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.common.JsonFiles;
import dev.paddock.common.PaddockException;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * "Install hook in this repository": merges Paddock's PreToolUse hook into
 * {@code <repository>/.claude/settings.json} (Claude Code's project settings):
 * <pre>{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command",
 *   "command": "/home/me/.paddock/bin/paddock-hook-claude --timeout 660", "timeout": 660}]}]}}</pre>
 * Every other key, hook and matcher of the user's file is kept; an entry already pointing at a
 * {@code paddock-hook-claude} script is updated in place rather than added again, so installing twice
 * changes nothing; the previous file is kept as {@code settings.json.bak}. A file that does not parse is
 * refused with its line and column and left untouched.
 *
 * <p>{@code timeout} is in seconds (Claude Code hooks reference); it must be longer than Paddock's approval
 * timeout, or Claude Code stops waiting first and, for a timed-out hook, lets the call through. The same number
 * goes to the script as {@code --timeout}: the script then denies by itself before Claude Code gives up (up to
 * 15 s before), whatever the approval timeout has become since, and whatever the server on its port does.
 */
public final class ClaudeHookInstaller {
    /** Default hook timeout, in seconds: the default approval timeout (600 s) and a minute to spare. */
    public static final int DEFAULT_TIMEOUT_S = 660;

    /** Seconds the hook's {@code timeout} gets beyond Paddock's approval timeout. */
    public static final int SPARE_S = 60;

    /**
     * The hook {@code timeout} for an approval timeout: the approval timeout rounded up to whole seconds, plus
     * {@link #SPARE_S}, so Paddock's deny always reaches Claude Code before Claude Code gives up on the hook.
     *
     * @param approvalTimeoutMs Paddock's {@code approval.timeoutMs}, in ms
     * @return seconds
     */
    public static int timeoutFor(long approvalTimeoutMs) {
        return (int) Math.min(Integer.MAX_VALUE, (Math.max(0, approvalTimeoutMs) + 999) / 1000 + SPARE_S);
    }

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9/._+@%:,-]+");

    private ClaudeHookInstaller() {}

    /** What an install did. */
    public record Result(Path settingsFile, boolean changed, String command) {}

    /** {@code <repository>/.claude/settings.json}. */
    public static Path settingsFile(Path repository) {
        return repository.resolve(".claude").resolve("settings.json");
    }

    /**
     * Merges the hook entry for {@code script} into the repository's Claude Code settings.
     *
     * @param timeoutSeconds the hook's {@code timeout}, in seconds
     * @throws PaddockException when the file does not parse (line and column), its {@code hooks} or
     *     {@code hooks.PreToolUse} has the wrong shape, or it cannot be written; nothing is changed then
     */
    public static Result install(Path repository, Path script, int timeoutSeconds) throws PaddockException {
        if (timeoutSeconds < 1) {
            throw new PaddockException("The hook timeout must be at least 1 second, not " + timeoutSeconds + ".");
        }
        Path file = settingsFile(repository);
        String command = hookCommand(script, timeoutSeconds);
        ObjectNode root = JsonFiles.readObject(file);
        ArrayNode pre = preToolUse(root, file);
        ObjectNode ours = findOurs(pre);
        if (ours != null
                && ours.path("command").asText().equals(command)
                && ours.path("timeout").asInt() == timeoutSeconds
                && "command".equals(ours.path("type").asText())) {
            return new Result(file, false, command);
        }
        if (ours == null) {
            ObjectNode entry = pre.addObject();
            entry.put("matcher", "*");
            ours = entry.putArray("hooks").addObject();
        }
        ours.put("type", "command");
        ours.put("command", command);
        ours.put("timeout", timeoutSeconds);
        JsonFiles.writeWithBackup(file, root);
        return new Result(file, true, command);
    }

    /**
     * The hook's {@code command}: the script's absolute path (single-quoted for sh when it needs it) and
     * {@code --timeout SECONDS}.
     */
    public static String hookCommand(Path script, int timeoutSeconds) {
        return shellWord(script.toAbsolutePath().toString()) + " --timeout " + timeoutSeconds;
    }

    /** Whether a hook {@code command} runs a {@code paddock-hook-claude} script (with or without arguments). */
    public static boolean isPaddockHook(String command) {
        return runsOurScript(command);
    }

    private static ArrayNode preToolUse(ObjectNode root, Path file) throws PaddockException {
        JsonNode hooks = root.get("hooks");
        if (hooks != null && !hooks.isObject()) {
            throw new PaddockException(file + ": \"hooks\" is not an object; it was left untouched.");
        }
        ObjectNode h = hooks == null ? root.putObject("hooks") : (ObjectNode) hooks;
        JsonNode pre = h.get("PreToolUse");
        if (pre != null && !pre.isArray()) {
            throw new PaddockException(file + ": \"hooks.PreToolUse\" is not an array; it was left untouched.");
        }
        return pre == null ? h.putArray("PreToolUse") : (ArrayNode) pre;
    }

    /**
     * The hook object of an entry that already runs a {@code paddock-hook-claude} script (with or without
     * arguments), or null.
     */
    private static ObjectNode findOurs(ArrayNode pre) {
        for (JsonNode entry : pre) {
            for (JsonNode hook : entry.path("hooks")) {
                if (hook.isObject() && runsOurScript(hook.path("command").asText())) {
                    return (ObjectNode) hook;
                }
            }
        }
        return null;
    }

    private static boolean runsOurScript(String command) {
        String c = command.strip();
        int args = c.indexOf(" --timeout");
        String program = (args < 0 ? c : c.substring(0, args)).replace("'", "").strip();
        return program.endsWith("/" + HookScript.NAME) || program.equals(HookScript.NAME);
    }

    private static String shellWord(String path) {
        return PLAIN.matcher(path).matches() ? path : HookScript.shellQuote(path);
    }
}
