package dev.paddock.sandbox;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The agents of a fan-out and how many sandboxes each gets, written {@code claude:2,codex:1} ({@code codex} alone
 * counts 1). Each count is 1 to {@link #MAX_COUNT}; an agent is named once. Which agents exist is the presets'
 * business ({@link AgentPrograms#check}): here a name is any word of letters, digits and dashes.
 *
 * @param entries in the order given, each agent once
 */
public record AgentCounts(List<Entry> entries) {
    /** Most sandboxes one agent gets in a fan-out. */
    public static final int MAX_COUNT = 20;

    /** One agent and its count. */
    public record Entry(String agent, int count) {}

    public AgentCounts {
        entries = List.copyOf(entries);
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("a fan-out needs at least one agent");
        }
    }

    /**
     * {@code spec} read: items {@code AGENT[:COUNT]} separated by commas, blanks around them ignored, names in any case.
     *
     * @throws IllegalArgumentException saying what is wrong, e.g. "claude:0: a count is a whole number from 1 to 20"
     */
    public static AgentCounts parse(String spec) {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("name the agents and their counts, e.g. claude:2,codex:1");
        }
        List<Entry> entries = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (String raw : spec.split(",", -1)) {
            String item = raw.strip();
            if (item.isEmpty()) {
                throw new IllegalArgumentException("'" + spec + "' has an empty item: write AGENT:COUNT items"
                        + " separated by commas, e.g. claude:2,codex:1");
            }
            int colon = item.indexOf(':');
            String name = (colon < 0 ? item : item.substring(0, colon)).strip().toLowerCase(Locale.ROOT);
            if (!name.matches("[a-z0-9][a-z0-9-]{0,31}")) {
                throw new IllegalArgumentException(
                        "'" + item + "' does not start with an agent's name, e.g." + " claude:2");
            }
            int count = 1;
            if (colon >= 0) {
                String c = item.substring(colon + 1).strip();
                if (!c.matches("[0-9]{1,3}") || Integer.parseInt(c) < 1 || Integer.parseInt(c) > MAX_COUNT) {
                    throw new IllegalArgumentException(
                            "'" + item + "': a count is a whole number from 1 to " + MAX_COUNT);
                }
                count = Integer.parseInt(c);
            }
            if (!seen.add(name)) {
                throw new IllegalArgumentException(
                        "'" + spec + "' names " + name + " twice: give each agent once," + " with its count");
            }
            entries.add(new Entry(name, count));
        }
        return new AgentCounts(entries);
    }

    /** How many sandboxes the fan-out makes. */
    public int total() {
        return entries.stream().mapToInt(Entry::count).sum();
    }

    /** The agents named, in order. */
    public List<String> agents() {
        return entries.stream().map(Entry::agent).toList();
    }

    /** As it is written: {@code claude:2,codex:1}. */
    @Override
    public String toString() {
        return entries.stream().map(e -> e.agent() + ":" + e.count()).collect(Collectors.joining(","));
    }
}
