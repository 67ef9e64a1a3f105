package dev.paddock.agent;

import dev.paddock.approval.ClaudeHookInstaller;
import dev.paddock.approval.HookScript;
import dev.paddock.common.PaddockException;
import dev.paddock.isolation.SandboxApi;
import dev.paddock.policy.PolicyFile;
import dev.paddock.sandbox.AgentPrograms;
import dev.paddock.sandbox.SandboxException;
import dev.paddock.sandbox.SandboxLayout;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.Tier;
import dev.paddock.worktree.GitCli;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The agents a sandbox can run, by {@link AgentPreset}: checks a request's agent, model and command, and prepares each
 * run. A preset's run is its headless command line for the task ({@link AgentPreset#startCommand}) with a session id
 * Paddock chooses where the agent takes one (Claude Code, Gemini CLI; stored before the start), the task also in
 * {@code PADDOCK_TASK}, and the variables of {@link PassThrough} taken from Paddock's own environment (their values go
 * into the agent's environment alone: {@link AgentPrograms.Program#toString()} and the log name them only). For
 * Claude Code the sandbox's settings are written first ({@link ClaudeSettingsWriter}): Paddock's PreToolUse hook,
 * which asks the broker about every call, the turn hook, and the policy's deny rules.
 *
 * <p>The program is the file its setting names ({@code agents.<id>.executable}, checked when a sandbox is created and
 * at each start), else the one found on Paddock's {@code PATH} (on the host and in bubblewrap, which shows the host's
 * folders); a container sandbox runs the name on its image's {@code PATH}. The repository's extra flags
 * ({@link AgentFlags}) go into every command line, first runs and follow-ups.
 */
public final class PresetPrograms implements AgentPrograms {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PresetPrograms.class);
    private static final Pattern MODEL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/@+\\[\\]-]{0,199}");
    /** A session id an agent picked, as Paddock stores it (Codex's are UUIDs). */
    private static final Pattern SESSION = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,127}");
    /** The turn hook's file in the control directory ({@link TurnHook#FILE_VARIABLE}). */
    static final String TURN_FILE = SandboxLayout.TURN_FILE;

    private final Path paddockHome;
    private final Path userHome;
    private final GitCli git;
    private final LongSupplier approvalTimeoutMs;
    private final Supplier<Map<String, String>> environment;
    private final AgentOptions options;

    /** Presets with nothing configured ({@link AgentOptions#NONE}): every program on PATH, no extra flags. */
    public PresetPrograms(
            Path paddockHome,
            Path userHome,
            GitCli git,
            LongSupplier approvalTimeoutMs,
            Supplier<Map<String, String>> environment) {
        this(paddockHome, userHome, git, approvalTimeoutMs, environment, AgentOptions.NONE);
    }

    /**
     * @param paddockHome the home whose hook scripts the agents run
     * @param userHome the user's home (for {@code ~/} policy rules)
     * @param approvalTimeoutMs the approval timeout in force (bounds the hook's time)
     * @param environment Paddock's own environment (normally {@code System::getenv}): PATH, and the pass-through
     *     variables
     * @param options the programs' settings and the repositories' extra flags
     */
    public PresetPrograms(
            Path paddockHome,
            Path userHome,
            GitCli git,
            LongSupplier approvalTimeoutMs,
            Supplier<Map<String, String>> environment,
            AgentOptions options) {
        this.options = options;
        this.paddockHome = paddockHome.toAbsolutePath();
        this.userHome = userHome;
        this.git = git;
        this.approvalTimeoutMs = approvalTimeoutMs;
        this.environment = environment;
    }

    /** The preset named {@code agent} (null or blank: {@code custom}), as {@link AgentPreset#of}. */
    public static AgentPreset presetOf(String agent) throws SandboxException {
        String name = agent == null || agent.isBlank()
                ? AgentPreset.CUSTOM.id()
                : agent.strip().toLowerCase(Locale.ROOT);
        try {
            return AgentPreset.of(name);
        } catch (IllegalArgumentException e) {
            throw new SandboxException(e.getMessage());
        }
    }

    @Override
    public String check(String agent, String model, String command) throws SandboxException {
        AgentPreset p = presetOf(agent);
        boolean hasCommand = command != null && !command.isBlank();
        if (p == AgentPreset.CUSTOM) {
            if (!hasCommand) {
                throw new SandboxException("The agent command is empty: say what the agent runs (--cmd CMD), or pick"
                        + " an agent (--agent " + names() + ").");
            }
            if (model != null && !model.isBlank()) {
                throw new SandboxException("A model (--model) is for an agent preset (" + presets()
                        + "); a custom command names its own.");
            }
            return command;
        }
        if (hasCommand) {
            throw new SandboxException("A command (--cmd) is for the custom agent only: Paddock builds the " + p.id()
                    + " agent's command line itself. Leave out --cmd, or use --agent custom --cmd CMD.");
        }
        if (model != null && !model.isBlank() && !MODEL.matcher(model.strip()).matches()) {
            throw new SandboxException("\"" + model + "\" is not a model name: letters, digits and . _ : / @ + [ ] -,"
                    + " starting with a letter or digit, at most 200 characters.");
        }
        return p.executable();
    }

    @Override
    public Tier defaultTier(String agent) throws SandboxException {
        AgentPreset p = presetOf(agent);
        // A custom command keeps the tier sandboxes always had by default.
        return p == AgentPreset.CUSTOM ? Tier.WORKTREE : p.defaultTier();
    }

    @Override
    public void checkProgram(String agent, Tier tier) throws SandboxException {
        AgentPreset p = presetOf(agent);
        if (p == AgentPreset.CUSTOM || tier == Tier.CONTAINER) {
            return; // the user's command line; a container runs the name on its image's PATH
        }
        configured(p, "Cannot create a " + p.id() + " sandbox");
    }

    @Override
    public List<String> checkFlags(String agent, List<String> flags) throws SandboxException {
        return AgentFlags.check(presetOf(agent), flags);
    }

    /**
     * The program the preset's setting names, or null when the setting is empty (PATH).
     *
     * @throws SandboxException starting with {@code what}, naming the setting, when its file is not an executable
     *     one, or when the setting cannot be read
     */
    private Path configured(AgentPreset p, String what) throws SandboxException {
        String value;
        try {
            value = options.executable(p);
        } catch (PaddockException e) {
            throw new SandboxException(
                    what + ": the setting " + p.executableSetting() + " cannot be read: " + e.getMessage(), e);
        }
        if (value == null || value.isBlank()) {
            return null;
        }
        Path program = Path.of(value.strip());
        Optional<String> problem = dev.paddock.settings.Setting.executableProblem(program);
        if (problem.isPresent()) {
            throw new SandboxException(what + ": the setting " + p.executableSetting() + " names " + program + ", and "
                    + problem.get() + ". Point it at the program (paddock config set " + p.executableSetting()
                    + " PATH), or reset it to run " + p.executable() + " from Paddock's PATH (paddock config reset "
                    + p.executableSetting() + ").");
        }
        return program;
    }

    /**
     * Paddock's own options for the preset in the sandbox's tier ({@link AgentPreset#ownOptions}), then the
     * repository's extra flags, checked again (they may predate a rule).
     */
    private List<String> flags(AgentPreset p, SandboxRecord s) throws SandboxException {
        try {
            List<String> all = new java.util.ArrayList<>(p.ownOptions(s.spec().tier()));
            all.addAll(AgentFlags.check(p, options.flags(s.repositoryId(), p)));
            return List.copyOf(all);
        } catch (SandboxException e) {
            throw new SandboxException(
                    "Cannot start the " + p.id() + " agent of " + s.id() + ": its repository's extra"
                            + " flags are refused now: " + e.getMessage() + " Change them with paddock sandbox flags.",
                    e);
        } catch (PaddockException e) {
            throw new SandboxException(
                    "Cannot start the " + p.id() + " agent of " + s.id() + ": its repository's extra"
                            + " flags cannot be read: " + e.getMessage(),
                    e);
        }
    }

    @Override
    public Program prepare(SandboxRecord s, SandboxLayout layout) throws SandboxException {
        AgentPreset p = presetOf(s.spec().agent());
        if (p == AgentPreset.CUSTOM) {
            Map<String, String> env = new TreeMap<>();
            env.put("PADDOCK_TASK", s.spec().task());
            return new Program(s.spec().agentCommand(), env, null, "custom command");
        }
        String session = p.id().equals("claude") || p.id().equals("gemini")
                ? UUID.randomUUID().toString()
                : null;
        AgentTurn turn = new AgentTurn(s.spec().task(), session, s.spec().model(), flags(p, s));
        Map<String, String> own = environment.get();
        return program(p, s, layout, turn, p.startCommand(program(p, s, own), turn), own);
    }

    @Override
    public Optional<String> followUpRefusal(SandboxRecord s) {
        AgentPreset p;
        try {
            p = presetOf(s.spec().agent());
        } catch (SandboxException e) {
            return Optional.of(e.getMessage());
        }
        if (!p.canFollowUp()) {
            return Optional.of("a custom command has no session to resume (retry it instead, or start a sandbox with"
                    + " an agent preset: " + presets() + ")");
        }
        if ((needsSession(p) && s.run().agentSession() == null)
                || p.followUpCommand(p.executable(), new AgentTurn("-", s.run().agentSession(), null))
                        .isEmpty()) {
            return Optional.of("Paddock knows no session of its " + p.id() + " agent to resume"
                    + (s.run().iteration() == 0 ? " (it never started)" : ""));
        }
        return Optional.empty();
    }

    @Override
    public Program prepareFollowUp(SandboxRecord s, SandboxLayout layout, String text) throws SandboxException {
        Optional<String> refusal = followUpRefusal(s);
        if (refusal.isPresent()) {
            throw new SandboxException("Cannot send a follow-up to " + s.id() + ": " + refusal.get() + ".");
        }
        AgentPreset p = presetOf(s.spec().agent());
        AgentTurn turn = new AgentTurn(text, s.run().agentSession(), s.spec().model(), flags(p, s));
        Map<String, String> own = environment.get();
        List<String> argv = p.followUpCommand(program(p, s, own), turn)
                .orElseThrow(() -> new SandboxException("Cannot send a follow-up to " + s.id() + ": its " + p.id()
                        + " agent cannot resume a session."));
        return program(p, s, layout, turn, argv, own);
    }

    @Override
    public Optional<dev.paddock.sandbox.AgentSignal> turnSignal(String payload) {
        return TurnSignal.parse(payload)
                .map(t -> new dev.paddock.sandbox.AgentSignal(
                        t.kind() == TurnSignal.Kind.TURN_ENDED
                                ? dev.paddock.sandbox.AgentSignal.Kind.TURN_ENDED
                                : dev.paddock.sandbox.AgentSignal.Kind.WAITING,
                        t.sessionId(),
                        t.detail(),
                        t.notificationType()));
    }

    /**
     * Codex and Gemini CLI run one turn and exit; having no turn hook of Paddock's, a run that ended well with a
     * session to resume is their turn's end (Claude Code's comes from its Stop hook).
     */
    @Override
    public Optional<dev.paddock.sandbox.AgentSignal> exitTurn(SandboxRecord s, Integer exitCode) {
        AgentPreset p;
        try {
            p = presetOf(s.spec().agent());
        } catch (SandboxException e) {
            return Optional.empty();
        }
        if (p == AgentPreset.CUSTOM
                || p.paddockHook()
                || !p.canFollowUp()
                || exitCode == null
                || exitCode != 0
                || s.run().agentSession() == null) {
            return Optional.empty();
        }
        return Optional.of(new dev.paddock.sandbox.AgentSignal(
                dev.paddock.sandbox.AgentSignal.Kind.TURN_ENDED,
                s.run().agentSession(),
                "its " + p.id() + " run ended",
                null));
    }

    /** Codex picks its thread id itself: the last one its {@code thread.started} events in the log name. */
    @Override
    public Optional<String> sessionOf(SandboxRecord s, Path log) {
        try {
            if (presetOf(s.spec().agent()) != AgentPreset.CODEX) {
                return Optional.empty();
            }
            String id = SandboxTranscript.read(s, log).sessionId();
            return id != null && SESSION.matcher(id).matches() ? Optional.of(id) : Optional.empty();
        } catch (SandboxException e) {
            return Optional.empty();
        }
    }

    /** Whether the preset's follow-up needs the session id of its first run. */
    private static boolean needsSession(AgentPreset p) {
        return !p.id().equals(AgentPreset.AIDER.id());
    }

    /** A preset's run of {@code argv}: its environment, and Claude Code's settings written first. */
    private Program program(
            AgentPreset p,
            SandboxRecord s,
            SandboxLayout layout,
            AgentTurn turn,
            List<String> argv,
            Map<String, String> own)
            throws SandboxException {
        Map<String, String> env = new TreeMap<>();
        PassThrough pass = PassThrough.from(p, own);
        pass.applyTo(env);
        env.putAll(p.extraEnvironment(turn));
        env.put("PADDOCK_TASK", s.spec().task());
        if (p == AgentPreset.CODEX && s.spec().tier() == Tier.NAMESPACE) {
            // In the namespace tier Codex asks Paddock before each tool call (its PreToolUse hook).
            env.put(
                    CodexHome.VARIABLE,
                    CodexHome.prepare(s, layout, own, insideHookCommand(s), hookTimeout())
                            .toString());
        }
        if (p == AgentPreset.GEMINI && s.spec().tier() != Tier.WORKTREE) {
            // Outside the worktree tier Gemini CLI asks Paddock before each tool call (BeforeTool hook) and runs in
            // its yolo mode: Paddock's policy and you decide, Paddock's tier is the wall.
            env.put(
                    GeminiHome.VARIABLE,
                    GeminiHome.prepare(
                                    s,
                                    layout,
                                    own,
                                    pass.names().contains("GEMINI_API_KEY"),
                                    insideHookCommand(s),
                                    hookTimeout())
                            .toString());
        }
        if (p.paddockHook()) {
            env.put(TurnHook.FILE_VARIABLE, layout.turnFile().toString());
            writeClaudeSettings(s, layout, own);
        }
        return new Program(
                "exec " + argv.stream().map(PresetPrograms::quote).collect(Collectors.joining(" ")),
                env,
                turn.sessionId(),
                p.id() + " " + pass.describe());
    }

    /**
     * The preset's program: the one its setting names, else the one on Paddock's PATH, or (container) the name on
     * the image's.
     */
    private String program(AgentPreset p, SandboxRecord s, Map<String, String> own) throws SandboxException {
        if (s.spec().tier() == Tier.CONTAINER) {
            return p.executable();
        }
        Path set = configured(p, "Cannot start the " + p.id() + " agent of " + s.id());
        if (set != null) {
            return set.toString();
        }
        String path = own.get("PATH");
        return ExecutableLocator.locate(p, null, path)
                .map(Path::toString)
                .orElseThrow(() -> new SandboxException("Cannot start the " + p.id() + " agent of " + s.id()
                        + ": no executable \"" + p.executable()
                        + "\" on Paddock's PATH (" + (path == null ? "not set" : path) + "). Install it (checked"
                        + " against " + p + ") or put its folder on the PATH Paddock is started with."));
    }

    private void writeClaudeSettings(SandboxRecord s, SandboxLayout layout, Map<String, String> own)
            throws SandboxException {
        try {
            long timeoutMs = approvalTimeoutMs.getAsLong();
            Path hook = HookScript.write(paddockHome, timeoutMs);
            Path turn = TurnHook.write(paddockHome);
            int timeout = ClaudeHookInstaller.timeoutFor(timeoutMs);
            List<String> deny = ClaudePermissions.denyRules(
                    PolicyFile.loadStandard(paddockHome, layout.mainWorktree(), layout.worktree(), userHome),
                    layout.worktree(),
                    paddockHome);
            // Inside a namespace or a container the hooks are shown at fixed paths (the home is not).
            boolean inside = s.spec().tier().dialsSandboxSocket();
            String hookCommand = inside
                    ? ClaudeHookInstaller.hookCommand(Path.of(SandboxApi.inside(hook)), timeout)
                    : ClaudeHookInstaller.hookCommand(hook, timeout);
            String turnCommand = inside ? SandboxApi.inside(turn) : turn.toString();
            // In the worktree tier Claude Code's own sandbox is the wall around its Bash commands (in the other tiers
            // Paddock's is, and no second one of the same kind is nested inside).
            ClaudeSandboxGrant grant = null;
            if (s.spec().tier() == Tier.WORKTREE) {
                if (ClaudeSandboxGrant.toolsOn(own.get("PATH"))) {
                    grant = ClaudeSandboxGrant.forWorktree(
                            git,
                            layout.worktree(),
                            layout.controlDir(),
                            s.spec().networkGranted());
                } else {
                    LOG.warn(
                            "Claude Code's own sandbox is off for {}: bubblewrap (bwrap) and socat are not both on"
                                    + " Paddock's PATH; only Paddock's hook and deny rules stand before its Bash commands",
                            s.id());
                }
            }
            new ClaudeSettingsWriter(git)
                    .write(
                            layout.worktree(),
                            new ClaudeSettingsWriter.Spec(hookCommand, timeout, turnCommand, deny, grant));
        } catch (IOException | PaddockException e) {
            throw new SandboxException("Cannot write the Claude Code settings of " + s.id() + ": " + e.getMessage(), e);
        }
    }

    /** The hook's timeout in seconds, from the approval timeout. */
    private int hookTimeout() {
        return ClaudeHookInstaller.timeoutFor(approvalTimeoutMs.getAsLong());
    }

    /** The hook program's command line as a namespace or container sandbox sees it ({@code /run/paddock/bin}). */
    private String insideHookCommand(SandboxRecord s) throws SandboxException {
        try {
            return ClaudeHookInstaller.hookCommand(
                    Path.of(SandboxApi.inside(HookScript.write(paddockHome, approvalTimeoutMs.getAsLong()))),
                    hookTimeout());
        } catch (IOException e) {
            throw new SandboxException("Cannot write the hook of " + s.id() + ": " + e.getMessage(), e);
        }
    }

    /** {@code word} as one shell word. */
    static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    private static String names() {
        return AgentPreset.ALL.stream().map(AgentPreset::id).collect(Collectors.joining("|"));
    }

    private static String presets() {
        return AgentPreset.ALL.stream()
                .map(AgentPreset::id)
                .filter(n -> !n.equals("custom"))
                .collect(Collectors.joining(", "));
    }
}
