package dev.paddock.sandbox;

import java.util.Map;
import java.util.Optional;

/**
 * What a sandbox's agent runs, by its preset ({@link SandboxRecord#agent()}): checked when a sandbox is asked for,
 * prepared before each run. The presets live in {@code dev.paddock.agent} (which builds on this package); this
 * interface is how the launcher asks them. {@link #CUSTOM_ONLY} knows the {@code custom} agent alone (a command line
 * run with {@code /bin/sh -c}): what a Paddock without the presets wired runs.
 */
public interface AgentPrograms {
    /**
     * Checks a request's agent, model and command.
     *
     * @return the command line to store with the sandbox (for display: a preset's is built again at each start)
     * @throws SandboxException for an unknown agent (the message lists the known ones), a command given with a
     *     preset, or a {@code custom} agent without a command
     */
    String check(String agent, String model, String command) throws SandboxException;

    /**
     * Checks, when a sandbox is created, that the agent's program is where a setting puts it: a set program must be
     * an executable file. Nothing to check for a program looked for on PATH at each start, or a container's (the
     * image's).
     *
     * @throws SandboxException naming the setting and what is wrong with its file
     */
    default void checkProgram(String agent, Tier tier) throws SandboxException {}

    /**
     * Checks a repository's extra flags for {@code agent}'s command lines.
     *
     * @return the flags as they are to be stored
     * @throws SandboxException naming a flag refused and why
     */
    default java.util.List<String> checkFlags(String agent, java.util.List<String> flags) throws SandboxException {
        if (flags != null && !flags.isEmpty()) {
            throw new SandboxException("This Paddock runs custom commands only, which take no extra flags.");
        }
        return java.util.List.of();
    }

    /**
     * The tier a sandbox of {@code agent} gets when the request names none: {@link Tier#WORKTREE} for a custom
     * command; the preset's for the others (an agent that does not ask Paddock before its tool calls is isolated
     * more).
     *
     * @throws SandboxException for an unknown agent
     */
    Tier defaultTier(String agent) throws SandboxException;

    /**
     * Prepares run {@code s.iteration() + 1}: finds the program, writes what the agent reads before it starts
     * (Claude Code's settings) and says what to run.
     *
     * @throws SandboxException when the agent's program is not there (the message names the preset and where it was
     *     looked for) or its settings cannot be written
     */
    Program prepare(SandboxRecord s, SandboxLayout layout) throws SandboxException;

    /**
     * Why a follow-up prompt cannot continue the session of {@code s}'s agent, or empty when it can: a
     * {@code custom} command has no session to resume; an agent whose session id Paddock does not know cannot
     * resume it.
     */
    default Optional<String> followUpRefusal(SandboxRecord s) {
        return Optional.of("a custom command cannot take a follow-up: it has no session to resume (retry it instead,"
                + " or start a sandbox with an agent preset)");
    }

    /**
     * Prepares run {@code s.iteration() + 1} as a follow-up: the agent resumes its session ({@link SandboxRecord#agentSession()})
     * in the same worktree with {@code text} as its prompt.
     *
     * @throws SandboxException when it cannot ({@link #followUpRefusal}), or as {@link #prepare}
     */
    default Program prepareFollowUp(SandboxRecord s, SandboxLayout layout, String text) throws SandboxException {
        throw new SandboxException("Cannot send a follow-up to " + s.id() + ": "
                + followUpRefusal(s).orElse("this Paddock cannot resume its agent") + ".");
    }

    /**
     * The session id a run of {@code s}'s agent chose itself, read from its output in {@code log} once the run ended:
     * for an agent that picks its own (Codex's thread id), stored so a follow-up can resume it. Empty when the agent
     * takes one from Paddock, or none is there.
     */
    default Optional<String> sessionOf(SandboxRecord s, java.nio.file.Path log) {
        return Optional.empty();
    }

    /**
     * The turn's end that an agent's successful exit is, for an agent that has no turn hook but resumes its session
     * in a follow-up (Codex, Gemini CLI: one turn per run), or empty.
     *
     * @param s the sandbox, with the session its run used or chose
     */
    default Optional<AgentSignal> exitTurn(SandboxRecord s, Integer exitCode) {
        return Optional.empty();
    }

    /** The signal in the input of an agent's turn hook (what its turn file holds), or empty when there is none. */
    default Optional<AgentSignal> turnSignal(String payload) {
        return Optional.empty();
    }

    /**
     * One run's program.
     *
     * @param command the shell command line ({@code /bin/sh -c}); may be shown and logged
     * @param env variables for the agent (all tiers); values may be secrets (API keys): never shown or logged
     * @param session the session id the run is started with, to store before it starts; null for none
     * @param describe what is passed, for the log: names only
     */
    record Program(String command, Map<String, String> env, String session, String describe) {
        public Program {
            env = Map.copyOf(env);
        }

        /** Without the environment's values. */
        @Override
        public String toString() {
            return "Program[" + command + ", " + describe + "]";
        }
    }

    /** The {@code custom} agent only: its command line, the task in {@code PADDOCK_TASK}. */
    AgentPrograms CUSTOM_ONLY = new AgentPrograms() {
        @Override
        public String check(String agent, String model, String command) throws SandboxException {
            if (agent != null && !agent.isBlank() && !agent.strip().equals(SandboxRecord.CUSTOM_AGENT)) {
                throw new SandboxException("Unknown agent \"" + agent + "\"; this Paddock runs custom commands only.");
            }
            if (command == null || command.isBlank()) {
                throw new SandboxException("The agent command is empty: say what the agent runs (e.g. --cmd"
                        + " 'claude -p ...'), or pick an agent (--agent claude).");
            }
            return command;
        }

        @Override
        public Tier defaultTier(String agent) {
            return Tier.WORKTREE;
        }

        @Override
        public Program prepare(SandboxRecord s, SandboxLayout layout) {
            return new Program(
                    s.spec().agentCommand(), Map.of("PADDOCK_TASK", s.spec().task()), null, "custom command");
        }
    };
}
