package dev.paddock.agent;

import dev.paddock.sandbox.SandboxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A repository's extra flags for an agent preset ({@code paddock sandbox flags}): words added to the preset's command
 * line after Paddock's own options, as typed (no shell reads them). They may tune the agent ({@code --max-turns 30},
 * {@code --add-dir ../common-lib}), never take Paddock's place: the options Paddock sets itself (the output format, the
 * session, the prompt, the model, which has its own field) and the ones that would switch off what Paddock relies on
 * are refused, in every spelling the agent reads ({@code --name}, {@code --name=value}, a short letter alone or in a
 * cluster such as {@code -pc}).
 *
 * <ul>
 * <li>Claude Code: its local settings carry Paddock's hook and deny rules, so {@code --settings},
 *     {@code --setting-sources} (which can leave the local file out), the permission modes,
 *     {@code --dangerously-skip-permissions}, and {@code --bare} and {@code --safe-mode} (both skip hooks; checked
 *     against Claude Code 2.1.332) are refused.</li>
 * <li>Codex CLI and Gemini CLI: the switches that turn their own approvals and sandbox off
 *     ({@code --dangerously-bypass-approvals-and-sandbox}, {@code --yolo}, {@code -y}, {@code --approval-mode}); for
 *     Codex also its sandbox mode ({@code -s}, {@code --sandbox}, a {@code -c sandbox_mode=...} override), which
 *     Paddock sets by the tier ({@link AgentPreset#ownOptions}).</li>
 * <li>Aider: {@code --yes-always} (it would confirm every action of its own).</li>
 * </ul>
 */
public final class AgentFlags {
    /** Most words a preset's flags may have. */
    public static final int MAX_WORDS = 64;
    /** Longest word. */
    public static final int MAX_WORD = 1024;

    private static final Map<String, Set<String>> REFUSED = Map.of(
            "claude",
                    Set.of(
                            "-p",
                            "--print",
                            "--output-format",
                            "--input-format",
                            "--session-id",
                            "-r",
                            "--resume",
                            "-c",
                            "--continue",
                            "--fork-session",
                            "--model",
                            "--settings",
                            "--setting-sources",
                            "--permission-mode",
                            "--permission-prompt-tool",
                            "--dangerously-skip-permissions",
                            "--allow-dangerously-skip-permissions",
                            "--bare",
                            "--safe-mode"),
            "codex",
                    Set.of(
                            "--json",
                            "-m",
                            "--model",
                            "--dangerously-bypass-approvals-and-sandbox",
                            "--yolo",
                            "-s",
                            "--sandbox"),
            "gemini",
                    Set.of(
                            "-o",
                            "--output-format",
                            "--session-id",
                            "-r",
                            "--resume",
                            "-p",
                            "--prompt",
                            "-i",
                            "--prompt-interactive",
                            "-m",
                            "--model",
                            "-y",
                            "--yolo",
                            "--approval-mode"),
            "aider", Set.of("-m", "--message", "-f", "--message-file", "--model", "--yes-always"));

    private AgentFlags() {}

    /**
     * The flags checked.
     *
     * @param flags the words, each one argument (null or empty: none)
     * @return the same words, unchanged
     * @throws SandboxException naming the first word refused and why, or for the {@code custom} agent (its command
     *     line is the user's own)
     */
    public static List<String> check(AgentPreset preset, List<String> flags) throws SandboxException {
        if (flags == null || flags.isEmpty()) {
            return List.of();
        }
        if (preset == AgentPreset.CUSTOM) {
            throw new SandboxException("The custom agent takes no extra flags: its command line (--cmd) is your own,"
                    + " so put them there.");
        }
        if (flags.size() > MAX_WORDS) {
            throw new SandboxException("Too many extra flags for " + preset.id() + ": " + flags.size()
                    + " words, at most " + MAX_WORDS + ".");
        }
        List<String> out = new ArrayList<>();
        for (String w : flags) {
            if (w == null
                    || w.isEmpty()
                    || w.length() > MAX_WORD
                    || w.indexOf('\0') >= 0
                    || w.indexOf('\n') >= 0
                    || w.indexOf('\r') >= 0) {
                throw new SandboxException("\"" + w + "\" cannot be a flag of " + preset.id()
                        + ": each word is one line" + " of 1 to " + MAX_WORD + " characters.");
            }
            if (out.isEmpty() && !w.startsWith("-")) {
                throw new SandboxException("Extra flags start with a flag (a word that starts with -), not \"" + w
                        + "\": Paddock puts the task after them.");
            }
            if (w.equals("--")) {
                throw new SandboxException("\"--\" cannot be an extra flag of " + preset.id() + ": it would end the"
                        + " options before Paddock's own.");
            }
            String previous = out.isEmpty() ? "" : out.get(out.size() - 1);
            if (preset == AgentPreset.CODEX && setsCodexSandbox(previous, w)) {
                throw new SandboxException("\"" + w + "\" cannot be an extra flag of codex: Paddock sets Codex's"
                        + " sandbox_mode itself (by the sandbox's tier). Leave it out.");
            }
            String refused = refused(preset, w);
            if (refused != null) {
                throw new SandboxException("\"" + w + "\" cannot be an extra flag of " + preset.id() + ": Paddock "
                        + (ownedByPaddock(refused)
                                ? "sets " + refused + " itself"
                                : "relies on what " + refused + " would switch off")
                        + ". Leave it out"
                        + (refused.contains("model") || refused.equals("-m")
                                ? " (a sandbox's model is its own field: --model)."
                                : "."));
            }
            out.add(w);
        }
        return List.copyOf(out);
    }

    /** The refused option {@code word} spells for {@code preset}, or null when it spells none. */
    private static String refused(AgentPreset preset, String word) {
        Set<String> refused = REFUSED.getOrDefault(preset.id(), Set.of());
        if (word.startsWith("--")) {
            int eq = word.indexOf('=');
            String name = eq < 0 ? word : word.substring(0, eq);
            return refused.contains(name) ? name : null;
        }
        if (word.startsWith("-") && word.length() > 1) {
            // A cluster of short options ("-pc") or one with its value attached ("-mgpt-5"): every letter counts.
            for (char c : word.substring(1).toCharArray()) {
                if (refused.contains("-" + c)) {
                    return "-" + c;
                }
            }
        }
        return null;
    }

    /**
     * Whether {@code word} (after {@code previous}) overrides Codex's {@code sandbox_mode}: {@code -c sandbox_mode=...},
     * {@code --config sandbox_mode=...} or {@code --config=sandbox_mode=...}.
     */
    private static boolean setsCodexSandbox(String previous, String word) {
        String value = previous.equals("-c") || previous.equals("--config")
                ? word
                : word.startsWith("--config=")
                        ? word.substring("--config=".length())
                        : word.startsWith("-c") && !word.startsWith("--") ? word.substring(2) : null;
        return value != null && value.strip().replace("\"", "").startsWith("sandbox_mode");
    }

    private static boolean ownedByPaddock(String option) {
        return !Set.of(
                        "--settings",
                        "--setting-sources",
                        "--permission-mode",
                        "--permission-prompt-tool",
                        "--dangerously-skip-permissions",
                        "--allow-dangerously-skip-permissions",
                        "--bare",
                        "--safe-mode",
                        "--dangerously-bypass-approvals-and-sandbox",
                        "--yolo",
                        "-y",
                        "--approval-mode",
                        "--yes-always")
                .contains(option);
    }
}
