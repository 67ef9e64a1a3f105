package dev.paddock.api;

import dev.paddock.sandbox.SandboxGroup;
import java.util.List;

/**
 * A fan-out as the API answers {@code POST /v1/sandboxes} with {@code agents}: the group's id and its sandboxes, in
 * the order they were made. Field names are a public interface: add fields, never rename them.
 *
 * @param group the id its sandboxes share ({@link SandboxView#group()})
 */
public record SandboxGroupView(String group, List<SandboxView> sandboxes) {
    static SandboxGroupView of(SandboxGroup g) {
        return new SandboxGroupView(
                g.id(), g.sandboxes().stream().map(SandboxView::of).toList());
    }
}
