package dev.paddock.publish;

import dev.paddock.agent.Transcript;
import dev.paddock.agent.TranscriptEntry;
import dev.paddock.sandbox.SandboxRecord;
import java.util.List;

/**
 * A pull request's title and body for a sandbox: the title is the task's first line (cut to
 * {@value #TITLE_MAX} characters), the body says the task, the agent, the branch's commits and the agent's last
 * message.
 */
public final class PullRequestText {
    /** Longest title. */
    public static final int TITLE_MAX = 72;
    /** Longest part of the agent's last message quoted. */
    static final int LAST_MESSAGE_MAX = 4000;
    /** Longest task quoted. */
    static final int TASK_MAX = 8000;

    private PullRequestText() {}

    /** The task's first non-blank line, cut to {@link #TITLE_MAX} characters; the sandbox's id for an empty task. */
    public static String title(SandboxRecord s) {
        String task = s.spec().task() == null ? "" : s.spec().task();
        String first = task.lines()
                .map(String::strip)
                .filter(l -> !l.isEmpty())
                .findFirst()
                .orElse("");
        if (first.isEmpty()) {
            return "Work of Paddock sandbox " + s.id();
        }
        return first.length() <= TITLE_MAX
                ? first
                : first.substring(0, TITLE_MAX - 1).stripTrailing() + "…";
    }

    /**
     * The body: the task, the agent (and model), the commits' subjects (oldest first) and the last thing the agent
     * said, when its transcript has it.
     */
    public static String body(SandboxRecord s, List<String> commitSubjects, String lastMessage) {
        StringBuilder b = new StringBuilder();
        b.append("## Task\n\n")
                .append(cut(s.spec().task() == null ? "" : s.spec().task().strip(), TASK_MAX));
        b.append("\n\n## Agent\n\n").append(s.spec().agent());
        if (s.spec().model() != null && !s.spec().model().isBlank()) {
            b.append(" (model ").append(s.spec().model()).append(')');
        }
        b.append(", in Paddock sandbox `")
                .append(s.id())
                .append("` (branch `")
                .append(s.workspace().branch())
                .append("`)");
        b.append("\n\n## Commits\n\n");
        if (commitSubjects.isEmpty()) {
            b.append("(none beyond ").append(s.workspace().baseBranch()).append(")\n");
        }
        for (String c : commitSubjects) {
            b.append("- ").append(c).append('\n');
        }
        if (lastMessage != null && !lastMessage.isBlank()) {
            b.append("\n## The agent's last message\n\n");
            cut(lastMessage.strip(), LAST_MESSAGE_MAX)
                    .lines()
                    .forEach(l -> b.append("> ").append(l).append('\n'));
        }
        return b.toString();
    }

    /** The text of the last assistant message of a transcript that has any text, or null. */
    public static String lastAssistantMessage(Transcript t) {
        List<TranscriptEntry> entries = t.entries();
        for (int i = entries.size() - 1; i >= 0; i--) {
            if (entries.get(i) instanceof TranscriptEntry.Message m
                    && m.role().equals("assistant")
                    && !m.text().isBlank()) {
                return m.text();
            }
        }
        return null;
    }

    private static String cut(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max) + "\n… (cut)";
    }
}
