package dev.paddock.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.paddock.api.CliText;
import dev.paddock.api.SandboxView;
import dev.paddock.common.PaddockException;
import java.util.List;

/** Renders sandboxes and lists of them as text for a terminal, or as indented JSON. */
final class SandboxText {
    private SandboxText() {}

    /** Indented JSON of any answer of the API. */
    static String json(Object value) throws PaddockException {
        try {
            return CliText.indented(value);
        } catch (JsonProcessingException e) {
            throw new PaddockException("Cannot write JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** What {@code sandbox new} prints: the id, the branch and the worktree. */
    static String created(SandboxView s) {
        return "Created sandbox " + s.id() + " (" + s.tier() + " tier); Paddock starts its agent now.\n"
                + "  branch    " + s.branch() + " (from " + s.baseBranch() + " at " + shortId(s.baseCommit()) + ")\n"
                + "  worktree  " + s.worktreePath() + "\n";
    }

    /** What {@code sandbox new --agents} prints: the group, then each sandbox's id, agent, tier and branch. */
    static String group(dev.paddock.api.SandboxGroupView g) {
        int idWidth = 2;
        int agentWidth = 5;
        for (SandboxView s : g.sandboxes()) {
            idWidth = Math.max(idWidth, s.id().length());
            agentWidth = Math.max(agentWidth, s.agent().length());
        }
        String fmt = "  %-" + idWidth + "s  %-" + agentWidth + "s  %-9s  %s%n";
        StringBuilder b = new StringBuilder("Created " + g.sandboxes().size() + " sandboxes in the group " + g.group()
                + "; Paddock starts their agents now.\n");
        b.append(String.format(fmt, "ID", "AGENT", "TIER", "BRANCH"));
        for (SandboxView s : g.sandboxes()) {
            b.append(String.format(fmt, s.id(), s.agent(), s.tier(), s.branch()));
        }
        return b.toString();
    }

    /** One line per sandbox under a header; a sentence when there is none ({@link CliText#sandboxTable}). */
    static String table(List<SandboxView> list, java.nio.file.Path repo) {
        return CliText.sandboxTable(list, java.util.Locale.getDefault(java.util.Locale.Category.FORMAT), repo);
    }

    /**
     * The commands that go on from a refused removal: after a strict one, commit or force; after a commit-mode one
     * (what the commit cannot keep, its message says how to keep), force only.
     */
    static String howToGoOn(String id, dev.paddock.sandbox.RemoveMode refused) {
        String commit = refused == dev.paddock.sandbox.RemoveMode.COMMIT
                ? ""
                : "  paddock sandbox rm " + id + " --commit   keep the work: commit it on the sandbox's branch (kept),"
                        + " then remove the worktree\n";
        return "Nothing was removed. To go on:\n" + commit + "  paddock sandbox rm " + id
                + " --force    throw the work away\n";
    }

    private static String shortId(String commit) {
        return commit == null ? "?" : commit.substring(0, Math.min(8, commit.length()));
    }
}
