package dev.paddock.agent;

import dev.paddock.common.PaddockException;
import dev.paddock.repo.RepoService;
import dev.paddock.settings.SettingsStore;
import java.util.List;

/**
 * What a person configured for the agent presets: each preset's program ({@code agents.<id>.executable}) and each
 * repository's extra flags ({@code paddock sandbox flags}). Read at every check and run, so a change applies to the
 * next sandbox created and the next run started.
 */
public interface AgentOptions {
    /** The path the preset's executable setting holds, or {@code ""} when it is not set (the program is on PATH). */
    String executable(AgentPreset preset) throws PaddockException;

    /** The repository's extra flags for the preset (empty for none). */
    List<String> flags(long repositoryId, AgentPreset preset) throws PaddockException;

    /** Nothing configured: every program on PATH, no extra flags (a Paddock without a store). */
    AgentOptions NONE = new AgentOptions() {
        @Override
        public String executable(AgentPreset preset) {
            return "";
        }

        @Override
        public List<String> flags(long repositoryId, AgentPreset preset) {
            return List.of();
        }
    };

    /** The options in Paddock's store: its settings and its repositories' flags. */
    static AgentOptions stored(SettingsStore settings, RepoService repos) {
        return new AgentOptions() {
            @Override
            public String executable(AgentPreset preset) throws PaddockException {
                if (preset.executableSetting() == null) {
                    return "";
                }
                @SuppressWarnings("unchecked")
                dev.paddock.settings.Setting<String> s =
                        (dev.paddock.settings.Setting<String>) SettingsStore.known(preset.executableSetting());
                return settings.get(s);
            }

            @Override
            public List<String> flags(long repositoryId, AgentPreset preset) throws PaddockException {
                return repos.agentFlags(repositoryId, preset.id());
            }
        };
    }
}
