package dev.paddock.cli;

import dev.paddock.api.ApiAnswerException;
import dev.paddock.api.ApiToken;
import dev.paddock.api.ApiUnreachableException;
import dev.paddock.api.HookAuth;
import dev.paddock.api.HookClient;
import dev.paddock.api.InstanceFile;
import dev.paddock.approval.ApprovalException;
import dev.paddock.approval.ClaudeHook;
import dev.paddock.approval.HookScript;
import dev.paddock.common.PaddockException;
import dev.paddock.settings.PaddockHome;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock hook claude}: Claude Code's PreToolUse hook (Claude Code hooks reference). Reads the
 * event's JSON on stdin, asks Paddock's broker ({@code POST /v1/hooks/claude}, through {@link HookClient}, which
 * never sends a token and believes only an answer with the broker's proof) and prints
 * {@code {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"|"deny",
 * "permissionDecisionReason": "..."}}}; exit 0 on allow, exit 2 with the reason on stderr on deny.
 *
 * <p>The broker: {@code PADDOCK_API} with {@code PADDOCK_HOOK_KEY} and {@code PADDOCK_SANDBOX_ID}, which
 * Paddock gives every agent; otherwise the running Paddock of the home ({@code instance.json},
 * {@code api-token}). The deadlines are the shell hook's ({@link HookScript}). Fail-closed: malformed input, no broker, no token, an error answer or any failure
 * of this command denies with exit 2. It never exits with another code, which Claude Code would take as a
 * non-blocking error and let the call through. A request the policy asks about waits until a person
 * decides or the approval timeout passes.
 */
@Command(
        name = "claude",
        mixinStandardHelpOptions = true,
        description = "Claude Code PreToolUse hook: reads the event on stdin, prints the decision (exit 0 allow,"
                + " 2 deny).")
public final class HookClaudeCommand implements Callable<Integer> {
    /** How long the broker may take without {@code --timeout}: bounded by the approval timeout on its side. */
    static final Duration WAIT = Duration.ofDays(1);

    @Option(
            names = "--timeout",
            paramLabel = "SECONDS",
            description = "Claude Code's timeout for this hook: the hook denies by itself up to 15 s before it.")
    Integer timeout;

    @ParentCommand
    HookCommand parent;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        boolean allow = false;
        String reason;
        try {
            Answer a = decide(System.in, System.getenv());
            allow = a.allow();
            reason = a.reason();
        } catch (Throwable e) { // fail-closed: nothing may escape as another exit code
            reason = "Paddock hook failed, so the call is denied: " + e;
        }
        out.println(ClaudeHook.output(allow, reason));
        out.flush();
        if (!allow) {
            err.println(ClaudeHook.oneLine(reason));
            err.flush();
        }
        return ClaudeHook.exitCode(allow);
    }

    private record Answer(boolean allow, String reason) {
        static Answer deny(String reason) {
            return new Answer(false, reason);
        }
    }

    private Answer decide(InputStream stdin, Map<String, String> env) throws IOException {
        byte[] payload = stdin.readAllBytes();
        try {
            ClaudeHook.parse(new String(payload, StandardCharsets.UTF_8));
        } catch (ApprovalException e) {
            return Answer.deny("Paddock hook: " + e.getMessage() + "; the call is denied");
        }
        String sandbox = blankToNull(env.get(HeartbeatCommand.SANDBOX));
        Optional<HookClient> client;
        try {
            client = client(env, sandbox);
        } catch (PaddockException e) {
            return Answer.deny("Paddock hook: " + e.getMessage() + "; the call is denied");
        }
        if (client.isEmpty()) {
            return Answer.deny("Paddock hook: no running Paddock found (PADDOCK_API is not set and no Paddock runs"
                    + " for this home), so the call is denied");
        }
        try {
            HookClient.Decision d = askOrTheLivePaddock(client.get(), env, payload, sandbox);
            return new Answer(d.allow(), d.reason());
        } catch (ApiUnreachableException e) {
            return Answer.deny("Paddock hook: the broker cannot be reached or did not answer in time (" + e.getMessage()
                    + "), so the call is denied");
        } catch (ApiAnswerException e) {
            return Answer.deny("Paddock hook: the broker refused the request (HTTP " + e.status() + ": "
                    + e.getMessage() + "), so the call is denied");
        } catch (PaddockException e) {
            return Answer.deny("Paddock hook: " + e.getMessage() + "; the call is denied");
        }
    }

    /**
     * Asks {@code client}; when that is an agent's {@code PADDOCK_API} which nothing answers, or where something
     * answers that does not prove it is Paddock (an agent that outlived a restart of Paddock on another port), asks
     * the live Paddock of the home ({@code instance.json}) with the same key instead. It has to prove itself the
     * same way; no secret is sent to either.
     */
    private HookClient.Decision askOrTheLivePaddock(
            HookClient client, Map<String, String> env, byte[] payload, String sandbox) throws PaddockException {
        try {
            return client.ask(payload, sandbox, cap());
        } catch (ApiUnreachableException | HookClient.Unproven e) {
            boolean refused = e instanceof HookClient.Unproven || e.getCause() instanceof java.net.ConnectException;
            String api = blankToNull(env.get(HeartbeatCommand.API));
            if (!refused || api == null) {
                throw e;
            }
            Optional<InstanceFile> live =
                    InstanceFile.live(parent.root.resolveHome().instanceFile());
            String other = live.map(i -> "http://127.0.0.1:" + i.port()).orElse(null);
            if (other == null
                    || other.equals(api.replace("localhost", "127.0.0.1").replaceAll("/+$", ""))) {
                throw e;
            }
            try {
                return new HookClient(
                                other,
                                HookAuth.SANDBOX_PREFIX + sandbox,
                                env.get(HookAuth.KEY_VARIABLE).strip(),
                                Duration.ofSeconds(HookScript.ANSWER_S),
                                Duration.ofSeconds(HookScript.QUIET_S))
                        .ask(payload, sandbox, cap());
            } catch (ApiUnreachableException | HookClient.Unproven second) {
                throw new PaddockException(e.getMessage() + "; and " + second.getMessage(), second);
            }
        }
    }

    /** The whole time a call may take: Claude Code's timeout less a margin, as the shell hook reckons it. */
    private Duration cap() {
        if (timeout == null || timeout < 1) {
            return WAIT;
        }
        int margin = Math.min(15, timeout / 4);
        return Duration.ofSeconds(Math.max(1, timeout - margin));
    }

    /**
     * The broker named by the environment (with the sandbox's hook key), else the running Paddock of the home
     * (with the install's token as the key).
     */
    private Optional<HookClient> client(Map<String, String> env, String sandbox) throws PaddockException {
        String api = blankToNull(env.get(HeartbeatCommand.API));
        Duration answer = Duration.ofSeconds(HookScript.ANSWER_S);
        Duration quiet = Duration.ofSeconds(HookScript.QUIET_S);
        if (api != null) {
            String key = blankToNull(env.get(HookAuth.KEY_VARIABLE));
            if (key == null) {
                throw new PaddockException(HookAuth.KEY_VARIABLE + " is not set, so this hook cannot tell Paddock from"
                        + " another program on its port");
            }
            if (sandbox == null) {
                throw new PaddockException(
                        HeartbeatCommand.API + " is set but " + HeartbeatCommand.SANDBOX + " is not");
            }
            return Optional.of(new HookClient(api, HookAuth.SANDBOX_PREFIX + sandbox, key, answer, quiet));
        }
        PaddockHome home = parent.root.resolveHome();
        Optional<InstanceFile> live = InstanceFile.live(home.instanceFile());
        if (live.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new HookClient(
                "http://127.0.0.1:" + live.get().port(),
                HookAuth.INSTALL,
                ApiToken.read(home.tokenFile()).value(),
                answer,
                quiet));
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
