package dev.paddock.agent;

import dev.paddock.sandbox.Tier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How Paddock runs one kind of coding agent headless, as a value: the command line for a task and for a follow-up
 * in the same session, the executable (a name looked up on PATH, or the path in a setting), the environment
 * variables it may take from Paddock's own environment ({@link PassThrough}: values never logged), the version the
 * command line was checked against, and the isolation tier a new sandbox gets by default.
 *
 * <p>Checked on 2026-12-05 (Codex and Gemini CLI again on 2026-12-06):
 * <ul>
 * <li>{@code claude} (Claude Code 2.1.332, run here against a scripted Messages API): {@code claude -p
 *     --output-format stream-json --verbose --session-id ID [--model M] -- TASK}; follow-up {@code claude --resume ID
 *     -p --output-format stream-json --verbose [--model M] -- TEXT} (same session id, same directory: sessions are
 *     kept per working directory under {@code ~/.claude/projects/}). Its PreToolUse hook asks Paddock, so it
 *     defaults to the {@code worktree} tier. Details: {@link ClaudeSettingsWriter}.</li>
 * <li>{@code codex} (Codex CLI 0.171.0, run here against a scripted Responses API on 2026-12-06):
 *     {@code codex exec --json [--model M] [-c sandbox_mode="danger-full-access"] -- TASK}; follow-up
 *     {@code codex exec resume --json [--model M] [-c ...] THREAD_ID -- TEXT} ({@code resume} takes no {@code -s}),
 *     where the thread id is the one its {@code thread.started} event names (Codex picks it; Paddock reads it from the
 *     log when the run ends, and the resumed run names the same one). It reads its model provider from its
 *     {@code config.toml}, not from {@code OPENAI_BASE_URL}. Its own sandbox is bubblewrap on Linux: off in a
 *     namespace or container sandbox, whose wall Paddock's tier is ({@link #ownOptions}); in a namespace sandbox its
 *     home is kept in the control directory ({@link CodexHome}). Codex 0.171.0 has hooks (feature {@code hooks},
 *     stable, on): a {@code PreToolUse} command hook in {@code config.toml} gets Claude Code's payload
 *     ({@code tool_name "Bash"}, {@code tool_input.command}, {@code session_id}, {@code cwd}) for shell commands and
 *     patches, and a {@code permissionDecision "deny"} answer blocks the call (checked here); but a hook runs only
 *     once trusted (a hash Codex stores after a person reviews it in {@code /hooks}, or
 *     {@code --dangerously-bypass-hook-trust}). In a namespace sandbox Paddock's hook is in the copied
 *     {@code config.toml} and the run gets that flag (checked: patches come as {@code apply_patch <<'EOF'} commands
 *     with the payload's {@code turn_id}, the call's id as {@code tool_use_id}); elsewhere no Paddock hook, so the
 *     default tier is {@code namespace}. One turn per run: a run that exits 0 is its turn's end
 *     ({@link PresetPrograms#exitTurn}).</li>
 * <li>{@code gemini} (Gemini CLI 0.61.0, run here against a scripted {@code streamGenerateContent} on
 *     {@code GOOGLE_GEMINI_BASE_URL}, 2026-12-06): {@code gemini --skip-trust --output-format stream-json --session-id
 *     ID [--model M] --prompt=TASK}; follow-up {@code gemini --skip-trust --output-format stream-json --resume ID
 *     [--model M] --prompt=TEXT} (a session id is taken by {@code --resume} as well as "latest" or an index; history
 *     carried over, checked). Without {@code --skip-trust} (or {@code GEMINI_CLI_TRUST_WORKSPACE=true}) it refuses to
 *     run headless in a folder not trusted before, as a new worktree is. It needs its auth type chosen in its
 *     {@code settings.json} ({@code security.auth.selectedType}, e.g. {@code gemini-api-key}): with the key alone it
 *     says "Invalid auth method selected." and does nothing. Where HOME is not the user's (namespace, container) its
 *     home is kept in the control directory, the user's settings copied in before each run ({@link GeminiHome}).
 *     Headless with the default approval mode it offers the model read-only tools only
 *     ({@code read_file}, {@code list_directory}, {@code grep_search}, {@code glob}, web search): no shell command,
 *     no file write; so in the worktree tier it stays read-only. In {@code namespace} and {@code container} its
 *     settings get Paddock's {@code BeforeTool} hook ({@link dev.paddock.approval.GeminiHook}) and it runs with
 *     {@code --approval-mode yolo}: every tool offered, each call decided by Paddock, the tier the wall. Default
 *     tier {@code namespace}.</li>
 * <li>{@code aider} (aider-chat 0.86.2, not run here): {@code aider --no-pretty --no-fancy-input --no-check-update
 *     [--model M] --message=TASK}, never {@code --yes-always}; follow-up adds {@code --restore-chat-history}. Plain
 *     text output. No hook of its own: {@code namespace}.</li>
 * <li>{@code custom}: the user's command, run with {@code /bin/sh -c}, the task in {@code PADDOCK_TASK}; no
 *     follow-ups. No hook: {@code namespace}.</li>
 * </ul>
 * A repository's extra flags for an agent ({@link AgentTurn#flags}, checked by {@link AgentFlags}) go after Paddock's
 * options and before the task or follow-up, in first runs and follow-ups alike.
 *
 * @param id the preset's name ({@code claude}, {@code codex}, {@code gemini}, {@code aider}, {@code custom})
 * @param executable the program's name on PATH ({@code /bin/sh} for {@code custom})
 * @param executableSetting the name of the Paddock setting that may give the program's path instead (null for
 *     {@code custom}, whose command line is the user's)
 * @param passThrough the environment variables taken from Paddock's environment when set there
 * @param fixedEnvironment variables every run gets with these values (no secrets)
 * @param checkedVersion the agent's version the command line was checked against
 * @param checkedOn the day it was checked (ISO date)
 * @param defaultTier the isolation tier a new sandbox of this agent gets unless the user picks another
 * @param paddockHook whether the agent asks Paddock before each tool call (Claude Code's PreToolUse hook)
 * @param format what it prints on stdout
 */
public record AgentPreset(
        String id,
        String executable,
        String executableSetting,
        List<String> passThrough,
        Map<String, String> fixedEnvironment,
        String checkedVersion,
        String checkedOn,
        Tier defaultTier,
        boolean paddockHook,
        TranscriptFormat format) {

    private static final List<String> PROXIES =
            List.of("HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "https_proxy", "http_proxy", "no_proxy");

    /** Claude Code. */
    public static final AgentPreset CLAUDE = new AgentPreset(
            "claude",
            "claude",
            "agents.claude.executable",
            with(
                    PROXIES,
                    "ANTHROPIC_API_KEY",
                    "ANTHROPIC_AUTH_TOKEN",
                    "ANTHROPIC_BASE_URL",
                    "ANTHROPIC_MODEL",
                    "ANTHROPIC_CUSTOM_HEADERS",
                    "CLAUDE_CODE_OAUTH_TOKEN",
                    "CLAUDE_CODE_USE_BEDROCK",
                    "CLAUDE_CODE_USE_VERTEX",
                    "CLAUDE_CONFIG_DIR",
                    "DISABLE_TELEMETRY",
                    "DISABLE_ERROR_REPORTING",
                    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"),
            // A sandboxed agent never replaces its own program.
            Map.of("DISABLE_AUTOUPDATER", "1"),
            "2.1.332",
            "2026-12-05",
            Tier.WORKTREE,
            true,
            TranscriptFormat.CLAUDE_STREAM_JSON);

    /** OpenAI's Codex CLI. */
    public static final AgentPreset CODEX = new AgentPreset(
            "codex",
            "codex",
            "agents.codex.executable",
            with(
                    PROXIES,
                    "OPENAI_API_KEY",
                    "OPENAI_BASE_URL",
                    "OPENAI_ORG_ID",
                    "OPENAI_PROJECT_ID",
                    "CODEX_API_KEY",
                    "CODEX_HOME"),
            Map.of(),
            "0.171.0",
            "2026-12-06",
            Tier.NAMESPACE,
            false,
            TranscriptFormat.CODEX_JSON);

    /** Google's Gemini CLI. */
    public static final AgentPreset GEMINI = new AgentPreset(
            "gemini",
            "gemini",
            "agents.gemini.executable",
            with(
                    PROXIES,
                    "GEMINI_API_KEY",
                    "GOOGLE_API_KEY",
                    "GOOGLE_GEMINI_BASE_URL",
                    "GOOGLE_CLOUD_PROJECT",
                    "GOOGLE_CLOUD_LOCATION",
                    "GOOGLE_GENAI_USE_VERTEXAI",
                    "GOOGLE_APPLICATION_CREDENTIALS",
                    "GEMINI_MODEL",
                    "GEMINI_CLI_HOME"),
            Map.of(),
            "0.61.0",
            "2026-12-06",
            Tier.NAMESPACE,
            false,
            TranscriptFormat.GEMINI_STREAM_JSON);

    /** Aider. */
    public static final AgentPreset AIDER = new AgentPreset(
            "aider",
            "aider",
            "agents.aider.executable",
            with(
                    PROXIES,
                    "OPENAI_API_KEY",
                    "OPENAI_API_BASE",
                    "ANTHROPIC_API_KEY",
                    "GEMINI_API_KEY",
                    "OPENROUTER_API_KEY",
                    "DEEPSEEK_API_KEY",
                    "AIDER_MODEL"),
            Map.of(),
            "0.86.2",
            "2026-12-05",
            Tier.NAMESPACE,
            false,
            TranscriptFormat.TEXT);

    /** A command of the user's own. */
    public static final AgentPreset CUSTOM = new AgentPreset(
            "custom",
            "/bin/sh",
            null,
            List.of(),
            Map.of(),
            "",
            "2026-12-05",
            Tier.NAMESPACE,
            false,
            TranscriptFormat.TEXT);

    /** Every preset, in the order a person picks from. */
    public static final List<AgentPreset> ALL = List.of(CLAUDE, CODEX, GEMINI, AIDER, CUSTOM);

    public AgentPreset {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(executable, "executable");
        passThrough = List.copyOf(passThrough);
        fixedEnvironment = Map.copyOf(fixedEnvironment);
        Objects.requireNonNull(defaultTier, "defaultTier");
        Objects.requireNonNull(format, "format");
    }

    /**
     * The preset named {@code id}.
     *
     * @throws IllegalArgumentException for an unknown name, listing the known ones
     */
    public static AgentPreset of(String id) {
        for (AgentPreset p : ALL) {
            if (p.id.equals(id)) {
                return p;
            }
        }
        throw new IllegalArgumentException("Unknown agent \"" + id + "\"; known agents: "
                + String.join(", ", ALL.stream().map(AgentPreset::id).toList()) + ".");
    }

    /** Whether a follow-up prompt can continue a session of this agent. */
    public boolean canFollowUp() {
        return this != CUSTOM && !id.equals(CUSTOM.id);
    }

    /**
     * The command line of a first run.
     *
     * @param program the executable's path; for {@code custom}, the user's command (run by {@code /bin/sh -c})
     * @param turn the task; for Claude Code and Gemini CLI its session id must be set (Paddock chooses it)
     * @throws IllegalArgumentException when a session id is needed and missing
     */
    public List<String> startCommand(String program, AgentTurn turn) {
        List<String> c = new ArrayList<>();
        switch (id) {
            case "claude" -> {
                c.addAll(List.of(
                        program, "-p", "--output-format", "stream-json", "--verbose", "--session-id", need(turn)));
                model(c, "--model", turn);
                c.addAll(turn.flags());
                c.addAll(List.of("--", turn.text()));
            }
            case "codex" -> {
                c.addAll(List.of(program, "exec", "--json"));
                model(c, "--model", turn);
                c.addAll(turn.flags());
                c.addAll(List.of("--", turn.text()));
            }
            case "gemini" -> {
                c.addAll(
                        List.of(program, "--skip-trust", "--output-format", "stream-json", "--session-id", need(turn)));
                model(c, "--model", turn);
                c.addAll(turn.flags());
                // One argument: a text that starts with "-" stays the prompt.
                c.add("--prompt=" + turn.text());
            }
            case "aider" -> {
                c.addAll(List.of(program, "--no-pretty", "--no-fancy-input", "--no-check-update"));
                model(c, "--model", turn);
                c.addAll(turn.flags());
                c.add("--message=" + turn.text());
            }
            default -> c.addAll(List.of("/bin/sh", "-c", program));
        }
        return List.copyOf(c);
    }

    /**
     * The command line of a follow-up in the same session, or empty when the agent cannot take one ({@code custom},
     * or Codex before its thread id is known).
     */
    public Optional<List<String>> followUpCommand(String program, AgentTurn turn) {
        List<String> c = new ArrayList<>();
        switch (id) {
            case "claude" -> {
                c.addAll(List.of(program, "--resume", need(turn), "-p", "--output-format", "stream-json", "--verbose"));
                model(c, "--model", turn);
                c.addAll(turn.flags());
                c.addAll(List.of("--", turn.text()));
            }
            case "codex" -> {
                if (turn.sessionId() == null) {
                    return Optional.empty();
                }
                c.addAll(List.of(program, "exec", "resume", "--json"));
                model(c, "--model", turn);
                c.addAll(turn.flags());
                c.addAll(List.of(turn.sessionId(), "--", turn.text()));
            }
            case "gemini" -> {
                c.addAll(List.of(program, "--skip-trust", "--output-format", "stream-json", "--resume", need(turn)));
                model(c, "--model", turn);
                c.addAll(turn.flags());
                c.add("--prompt=" + turn.text());
            }
            case "aider" -> {
                c.addAll(List.of(
                        program, "--no-pretty", "--no-fancy-input", "--no-check-update", "--restore-chat-history"));
                model(c, "--model", turn);
                c.addAll(turn.flags());
                c.add("--message=" + turn.text());
            }
            default -> {
                return Optional.empty();
            }
        }
        return Optional.of(List.copyOf(c));
    }

    /**
     * Options Paddock gives the agent in a sandbox of {@code tier}, before the repository's extra flags, in first
     * runs and follow-ups alike. Codex runs its shell commands in a sandbox of its own, made with bubblewrap on Linux;
     * inside Paddock's namespace tier (bubblewrap) or a container that would be a second wall of the same kind within
     * the first, so there Codex's
     * {@code sandbox_mode} is {@code danger-full-access} and Paddock's tier is the wall. In the worktree tier Codex's
     * own sandbox is the only one: its mode stays the user's (Codex's configuration, else its read-only default).
     */
    public List<String> ownOptions(Tier tier) {
        if (id.equals("codex") && tier == Tier.NAMESPACE) {
            // Its home is Paddock's there, with Paddock's PreToolUse hook in it: run without Codex's trust review.
            return List.of("-c", CODEX_NO_INNER_SANDBOX, CODEX_HOOK_TRUST);
        }
        if (id.equals("codex") && tier != Tier.WORKTREE) {
            return List.of("-c", CODEX_NO_INNER_SANDBOX);
        }
        if (id.equals("gemini") && tier != Tier.WORKTREE) {
            return List.of("--approval-mode", "yolo");
        }
        return List.of();
    }

    /**
     * Codex runs a hook only once a person trusted it in Codex's own review; this runs the hooks of its (Paddock's)
     * home without that review, for one run.
     */
    static final String CODEX_HOOK_TRUST = "--dangerously-bypass-hook-trust";

    /** The {@code -c} override by which Codex leaves its commands to the tier's wall. */
    static final String CODEX_NO_INNER_SANDBOX = "sandbox_mode=\"danger-full-access\"";

    /**
     * Variables a run gets besides the pass-through ones: {@link #fixedEnvironment()}, and for {@code custom} the
     * task as {@code PADDOCK_TASK}.
     */
    public Map<String, String> extraEnvironment(AgentTurn turn) {
        if (id.equals(CUSTOM.id)) {
            java.util.Map<String, String> m = new java.util.TreeMap<>(fixedEnvironment);
            m.put("PADDOCK_TASK", turn.text());
            return Map.copyOf(m);
        }
        return fixedEnvironment;
    }

    private String need(AgentTurn turn) {
        if (turn.sessionId() == null) {
            throw new IllegalArgumentException(id + " needs a session id chosen by Paddock for each sandbox");
        }
        return turn.sessionId();
    }

    private static void model(List<String> c, String flag, AgentTurn turn) {
        if (turn.model() != null) {
            c.add(flag);
            c.add(turn.model());
        }
    }

    private static List<String> with(List<String> base, String... more) {
        List<String> all = new ArrayList<>(List.of(more));
        all.addAll(base);
        return List.copyOf(all);
    }

    @Override
    public String toString() {
        return id + " (checked against " + (checkedVersion.isEmpty() ? "-" : checkedVersion) + ")";
    }
}
