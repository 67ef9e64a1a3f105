package dev.paddock.sandbox;

import java.util.List;

/**
 * The sandboxes of one fan-out ({@link SandboxService#createGroup}): one task, several agents, each in its own sandbox
 * and branch, sharing the group's id ({@link SandboxRecord#group()}).
 *
 * @param id the group's id, also the start of its sandboxes' ids ({@code <id>-<agent>-<n>})
 * @param sandboxes in the order they were made: the agents as named, each's sandboxes by number
 */
public record SandboxGroup(String id, List<SandboxRecord> sandboxes) {
    public SandboxGroup {
        sandboxes = List.copyOf(sandboxes);
    }
}
