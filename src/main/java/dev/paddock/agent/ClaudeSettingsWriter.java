package dev.paddock.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.approval.ClaudeHookInstaller;
import dev.paddock.common.Json;
import dev.paddock.common.JsonFiles;
import dev.paddock.common.PaddockException;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.GitException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Writes a sandbox's Claude Code settings, {@code <worktree>/.claude/settings.local.json}, merged into the file
 * when one is there (the user's keys, hooks and rules kept), and keeps the file out of commits
 * ({@link WorktreeExclude}). Nothing is committed and the repository's {@code .claude/settings.json} is not
 * touched. Paddock's part:
 * <pre>{"permissions": {"deny": [...], "defaultMode": "default", "disableBypassPermissionsMode": "disable"},
 *  "hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command",
 *              "command": "/home/me/.paddock/bin/paddock-hook-claude --timeout 660", "timeout": 660,
 *              "onFailure": "block"}]}],
 *            "PermissionRequest": [{"matcher": "*", "hooks": [{"type": "command", "command": "<the same>",
 *              "timeout": 660}]}],
 *            "Stop": [{"hooks": [{"type": "command", "command": ".../paddock-turn-claude", "timeout": 15}]}],
 *            "Notification": [{"hooks": [{"type": "command", "command": ".../paddock-turn-claude", "timeout": 15}]}]},
 *  "sandbox": {"enabled": true, "failIfUnavailable": true, "allowUnsandboxedCommands": true,
 *              "filesystem": {"allowWrite": [...]}, "network": {"deniedDomains": ["*"]}}}</pre>
 * ({@code sandbox} only when a {@link ClaudeSandboxGrant} is given.) Paddock's deny rules and hook entries are
 * recognised on a rewrite (the rules through a note in the worktree's own git folder, the hooks by their script's
 * name) and replaced, never doubled. Why this file and these rules:
 * {@code docs/decisions/0008-real-agents-per-sandbox-claude-settings.md}.
 *
 * <p>Checked against Claude Code 2.1.x (2.1.332) on 2026-12-05 with the real binary and a scripted Messages API:
 * <ul>
 * <li>Hooks in the working directory's {@code .claude/settings.local.json} run in {@code -p} mode without any trust
 *     prompt. PreToolUse input: {@code {"session_id", "transcript_path", "cwd", "prompt_id", "permission_mode",
 *     "effort": {"level"}, "hook_event_name": "PreToolUse", "tool_name", "tool_input", "tool_use_id"}}; the hook's
 *     environment has {@code CLAUDE_PROJECT_DIR}, {@code CLAUDE_CODE_SESSION_ID} and the agent's own variables.
 *     PostToolUse adds {@code tool_response} and {@code duration_ms}; SessionStart has {@code source}
 *     ({@code startup}, {@code resume}); SessionEnd {@code reason}; UserPromptSubmit {@code prompt}. Stop and
 *     Notification: {@link TurnSignal}.</li>
 * <li>A hook's allow runs a call the default permissions would refuse in {@code -p} (a write through a shell
 *     redirection). A hook's deny (exit 2, reason on stderr) reaches the model as the tool result
 *     {@code "PreToolUse:Bash hook error: <reason>"} with {@code is_error: true}. A hook's {@code ask} is a refusal
 *     in {@code -p} with the hook's reason as the result.</li>
 * <li>{@code permissions.deny} beats a hook's allow; {@code permissions.ask} refuses in {@code -p} even after a
 *     hook's allow (so Paddock never writes ask rules); a hook that cannot start lets the call go to the normal
 *     permission check (refused in {@code -p} when it would ask), and with {@code "onFailure": "block"} it is
 *     refused outright ({@code "... failed; blocking because onFailure is \"block\""}).</li>
 * <li>Keys read from this file ({@code localSettings}): {@code permissions.allow/ask/deny/defaultMode/
 *     disableBypassPermissionsMode/additionalDirectories}, {@code hooks}, {@code env}, and {@code sandbox.enabled,
 *     failIfUnavailable, autoAllowBashIfSandboxed, allowUnsandboxedCommands, filesystem.allowWrite/denyWrite/
 *     denyRead/allowRead, network.allowedDomains/deniedDomains}. Some sandbox keys are honoured only from user,
 *     managed or {@code --settings} settings, never from project or local files ({@code network.strictAllowlist},
 *     {@code filesystem.disabled}, {@code enableWeakerNestedSandbox}, {@code tlsTerminate}, ...), and
 *     {@code allowWrite} / {@code allowedDomains} from a local file are ignored once managed or {@code --settings}
 *     settings set {@code allowUnsandboxedCommands: false}.</li>
 * <li>{@code sandbox.enabled} with bubblewrap and socat installed: a Bash write outside the working directory fails
 *     ("Read-only file system"), and loopback connections fail too (a sandboxed {@code paddock heartbeat} uses its
 *     file); hooks run outside that sandbox and still reach Paddock.</li>
 * <li>{@code --resume ID -p TEXT} in the same directory continues the session (same id; the earlier messages are
 *     sent again, SessionStart says {@code "source": "resume"}).</li>
 * <li>Files under {@code .claude/} are "sensitive" to Claude Code itself: a write there is asked about even after a
 *     hook's allow, so refused in {@code -p}; Paddock's compiled {@code Edit(//<worktree>/.claude/**)} denies it
 *     outright.</li>
 * <li>With {@code sandbox.enabled}, a Bash call with {@code "dangerouslyDisableSandbox": true} (the model's, or
 *     the PreToolUse hook's {@code updatedInput}) is refused in {@code -p} ("Run outside of the sandbox") even after
 *     the hook's allow, unless a {@code PermissionRequest} hook answers {@code {"decision": {"behavior": "allow"}}};
 *     that event's input is PreToolUse's without {@code tool_use_id}. With {@code allowUnsandboxedCommands: false}
 *     the flag is ignored and the call runs sandboxed. {@code sandbox.excludedCommands} is not a way out in
 *     {@code -p}: an excluded command is refused the same way.</li>
 * <li>{@code permissions.disableBypassPermissionsMode: "disable"} from this file makes the CLI ignore
 *     {@code --dangerously-skip-permissions} (it runs in {@code default} mode).</li>
 * </ul>
 */
public final class ClaudeSettingsWriter {
    /** The file, relative to the worktree. */
    public static final String RELATIVE = ".claude/settings.local.json";

    private static final String NOTE = "paddock-claude-settings.json";

    private final GitCli git;

    public ClaudeSettingsWriter(GitCli git) {
        this.git = git;
    }

    /**
     * What Paddock puts in a sandbox's settings.
     *
     * @param preToolUseCommand the PreToolUse hook's command ({@link ClaudeHookInstaller#hookCommand})
     * @param hookTimeoutSeconds its {@code timeout}
     * @param turnCommand the Stop / Notification hook's command ({@link TurnHook#path}), or null for none
     * @param denyRules {@link ClaudePermissions#denyRules}
     * @param sandbox Claude Code's own Bash sandbox, or null to leave {@code sandbox} as it is
     */
    public record Spec(
            String preToolUseCommand,
            int hookTimeoutSeconds,
            String turnCommand,
            List<String> denyRules,
            ClaudeSandboxGrant sandbox) {
        public Spec {
            denyRules = List.copyOf(denyRules);
            if (hookTimeoutSeconds < 1) {
                throw new IllegalArgumentException("the hook timeout must be at least 1 second");
            }
        }
    }

    /** What a write did. */
    public record Result(Path file, boolean changed, WorktreeExclude.How keptOut) {}

    /**
     * Writes the settings into {@code worktree}.
     *
     * @throws PaddockException when the existing file is not a JSON object (it is left untouched, the message says
     *     where), has {@code permissions} or {@code hooks} of the wrong shape, or git or the disk fail
     */
    public Result write(Path worktree, Spec spec) throws PaddockException {
        Path file = worktree.resolve(RELATIVE);
        refuseLinks(worktree, file);
        ObjectNode root = JsonFiles.readObject(file);
        String before = root.toString();
        Path note = notePath(worktree);
        ObjectNode previous;
        try {
            previous = JsonFiles.readObject(note);
        } catch (PaddockException unreadable) {
            // Only Paddock writes the note; one that does not parse counts as none.
            previous = Json.mapper().createObjectNode();
        }

        ObjectNode perms = object(root, "permissions", file);
        ArrayNode deny = array(perms, "deny", file);
        Set<String> ours = strings(previous.path("deny"));
        Set<String> kept = new LinkedHashSet<>();
        deny.forEach(d -> {
            if (!ours.contains(d.asText())) {
                kept.add(d.asText());
            }
        });
        kept.addAll(spec.denyRules());
        deny.removeAll();
        kept.forEach(deny::add);
        perms.put("defaultMode", "default");
        perms.put("disableBypassPermissionsMode", "disable");

        ObjectNode hooks = object(root, "hooks", file);
        ObjectNode pre = hook(hooks, "PreToolUse", "*", file, ClaudeHookInstaller::isPaddockHook);
        pre.put("type", "command")
                .put("command", spec.preToolUseCommand())
                .put("timeout", spec.hookTimeoutSeconds())
                .put("onFailure", "block");
        // Where Claude Code would ask a person (a call to run outside its own sandbox), Paddock answers: yes only
        // for the call a person approved in Paddock.
        hook(hooks, "PermissionRequest", "*", file, ClaudeHookInstaller::isPaddockHook)
                .put("type", "command")
                .put("command", spec.preToolUseCommand())
                .put("timeout", spec.hookTimeoutSeconds());
        for (String event : List.of("Stop", "Notification")) {
            if (spec.turnCommand() != null) {
                hook(hooks, event, null, file, ClaudeSettingsWriter::isTurnHook)
                        .put("type", "command")
                        .put("command", spec.turnCommand())
                        .put("timeout", TurnHook.HOOK_TIMEOUT_S);
            } else {
                removeHook(hooks, event);
            }
        }

        if (spec.sandbox() != null) {
            sandbox(root, worktree, spec.sandbox(), file);
        } else if (previous.path("sandbox").asBoolean(false)) {
            root.remove("sandbox");
        }

        boolean changed = !root.toString().equals(before) || !Files.exists(file);
        try {
            if (changed) {
                Files.createDirectories(file.getParent());
                replace(file, Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n");
            }
            WorktreeExclude.How how = new WorktreeExclude(git).keepOut(worktree, RELATIVE);
            ObjectNode n = Json.mapper().createObjectNode();
            ArrayNode d = n.putArray("deny");
            spec.denyRules().forEach(d::add);
            n.put("sandbox", spec.sandbox() != null);
            replace(note, n + "\n");
            return new Result(file, changed, how);
        } catch (IOException e) {
            throw new PaddockException("Cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Refuses a {@code .claude} folder or settings file that is a symbolic link: the worktree is the agent's to
     * write, and a link would make Paddock read another file into the worktree (where the agent reads it) or write
     * outside it. Paddock writes the settings before it starts the agent, so nothing swaps the link in between.
     */
    private static void refuseLinks(Path worktree, Path file) throws PaddockException {
        for (Path p : List.of(worktree.resolve(".claude"), file)) {
            if (Files.isSymbolicLink(p)) {
                throw new PaddockException(p + " is a symbolic link; Paddock does not follow links in a sandbox's"
                        + " worktree. Remove it, then start the agent again.");
            }
        }
    }

    /** Replaces {@code file} with {@code text} through a new file and a rename (a link in its place is replaced, not followed). */
    private static void replace(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(
                "." + file.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        Files.deleteIfExists(tmp);
        Files.writeString(tmp, text, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE_NEW);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The note of what Paddock wrote, in the worktree's own git folder (never part of the worktree). */
    private Path notePath(Path worktree) throws PaddockException {
        try {
            return Path.of(git.runOk(worktree, "rev-parse", "--path-format=absolute", "--git-dir")
                            .strip())
                    .resolve(NOTE);
        } catch (GitException e) {
            throw new PaddockException(worktree + " is not a git worktree: " + e.getMessage(), e);
        }
    }

    private static void sandbox(ObjectNode root, Path worktree, ClaudeSandboxGrant g, Path file)
            throws PaddockException {
        ObjectNode s = object(root, "sandbox", file);
        // Unsandboxed commands stay possible, but each is a PermissionRequest that Paddock grants only for a call a
        // person approved (the model's own dangerouslyDisableSandbox is at most an ask in Paddock's policy).
        s.put("enabled", true).put("failIfUnavailable", true).put("allowUnsandboxedCommands", true);
        ObjectNode fs = object(s, "filesystem", file);
        ArrayNode write = fs.putArray("allowWrite");
        write.add(worktree.toAbsolutePath().normalize().toString());
        g.extraWritable().forEach(p -> write.add(p.normalize().toString()));
        ObjectNode net = s.putObject("network");
        if (g.network()) {
            ArrayNode allowed = net.putArray("allowedDomains");
            g.allowedDomains().forEach(allowed::add);
        } else {
            net.putArray("deniedDomains").add("*");
        }
    }

    /** The hook object of Paddock's entry for {@code event}, made when missing. */
    private static ObjectNode hook(
            ObjectNode hooks, String event, String matcher, Path file, java.util.function.Predicate<String> ours)
            throws PaddockException {
        ArrayNode entries = array(hooks, event, file);
        for (JsonNode entry : entries) {
            for (JsonNode h : entry.path("hooks")) {
                if (h.isObject() && ours.test(h.path("command").asText())) {
                    return (ObjectNode) h;
                }
            }
        }
        ObjectNode entry = entries.addObject();
        if (matcher != null) {
            entry.put("matcher", matcher);
        }
        return entry.putArray("hooks").addObject();
    }

    private static void removeHook(ObjectNode hooks, String event) {
        JsonNode entries = hooks.get(event);
        if (entries == null || !entries.isArray()) {
            return;
        }
        List<Integer> empty = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            JsonNode hs = entries.get(i).path("hooks");
            if (hs instanceof ArrayNode a) {
                for (int j = a.size() - 1; j >= 0; j--) {
                    if (isTurnHook(a.get(j).path("command").asText())) {
                        a.remove(j);
                    }
                }
                if (a.isEmpty()) {
                    empty.add(0, i);
                }
            }
        }
        empty.forEach(i -> ((ArrayNode) entries).remove(i));
        if (entries.isEmpty()) {
            hooks.remove(event);
        }
    }

    static boolean isTurnHook(String command) {
        String c = command.strip().replace("'", "");
        return c.endsWith("/" + TurnHook.NAME) || c.equals(TurnHook.NAME);
    }

    private static ObjectNode object(ObjectNode parent, String key, Path file) throws PaddockException {
        JsonNode n = parent.get(key);
        if (n == null || n.isNull()) {
            return parent.putObject(key);
        }
        if (!n.isObject()) {
            throw new PaddockException(file + ": \"" + key + "\" is not an object; it was left untouched.");
        }
        return (ObjectNode) n;
    }

    private static ArrayNode array(ObjectNode parent, String key, Path file) throws PaddockException {
        JsonNode n = parent.get(key);
        if (n == null || n.isNull()) {
            return parent.putArray(key);
        }
        if (!n.isArray()) {
            throw new PaddockException(file + ": \"" + key + "\" is not an array; it was left untouched.");
        }
        return (ArrayNode) n;
    }

    private static Set<String> strings(JsonNode array) {
        Set<String> out = new LinkedHashSet<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
