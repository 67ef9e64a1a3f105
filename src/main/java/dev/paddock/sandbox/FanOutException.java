package dev.paddock.sandbox;

import dev.paddock.common.PaddockException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A fan-out that stopped part way: the sandboxes made before the failure stay (their agents start as any new
 * sandbox's), the one that failed was taken back as a failed creation always is, and the rest were not tried. The
 * message says all three, by id and branch, and how to remove what was made.
 */
public final class FanOutException extends SandboxException {
    private static final long serialVersionUID = 1L;

    /**
     * A sandbox of the fan-out, made or not.
     *
     * @param agent its agent preset
     * @param number its number among that agent's sandboxes (from 1)
     * @param id its id
     * @param branch its branch
     */
    public record Member(String agent, int number, String id, String branch) implements java.io.Serializable {
        @Override
        public String toString() {
            return id + " (" + agent + ", branch " + branch + ")";
        }
    }

    private final String group;
    private final transient List<SandboxRecord> created;
    private final Member failed;
    private final List<Member> notTried;
    private final PaddockException reason;

    FanOutException(
            String group, List<SandboxRecord> created, Member failed, PaddockException reason, List<Member> notTried) {
        super(message(group, created, failed, reason, notTried), reason);
        this.group = group;
        this.created = List.copyOf(created);
        this.failed = failed;
        this.notTried = List.copyOf(notTried);
        this.reason = reason;
    }

    private static String message(
            String group, List<SandboxRecord> created, Member failed, PaddockException reason, List<Member> notTried) {
        int total = created.size() + 1 + notTried.size();
        StringBuilder b = new StringBuilder("The fan-out " + group + " made " + created.size() + " of its " + total
                + " sandboxes: " + failed + " could not be created: " + reason.getMessage());
        if (!created.isEmpty()) {
            b.append(" Created, and their agents start: ")
                    .append(created.stream()
                            .map(s -> s.id() + " (" + s.spec().agent() + ", branch "
                                    + s.workspace().branch() + ")")
                            .collect(Collectors.joining(", ")))
                    .append('.');
        }
        if (!notTried.isEmpty()) {
            b.append(" Not tried: ")
                    .append(notTried.stream().map(Member::toString).collect(Collectors.joining(", ")))
                    .append('.');
        }
        if (!created.isEmpty()) {
            b.append(" Keep them, or remove them with paddock sandbox rm ID --force --delete-branch.");
        }
        return b.toString();
    }

    /** The group's id (which the sandboxes created carry). */
    public String group() {
        return group;
    }

    /** The sandboxes made before the failure, in order. */
    public List<SandboxRecord> created() {
        return created;
    }

    /** The sandbox that could not be made. */
    public Member failed() {
        return failed;
    }

    /** The sandboxes after it, not tried. */
    public List<Member> notTried() {
        return notTried;
    }

    /** Why {@link #failed()} could not be made. */
    public PaddockException reason() {
        return reason;
    }
}
