package dev.paddock.ui.layers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.layer.SharedLayers;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class SharedLayersViewModelTest {
    @Test
    void foldersAreReadOnePerLineOrCommaSeparatedWithoutBlanks() {
        assertThat(SharedLayersViewModel.parseFolders("node_modules\n\n  .venv , ~/.m2,\r\nweb/node_modules  "))
                .containsExactly("node_modules", ".venv", "~/.m2", "web/node_modules");
        assertThat(SharedLayersViewModel.parseFolders("  \n , ")).isEmpty();
        assertThat(SharedLayersViewModel.parseFolders(null)).isEmpty();
    }

    @Test
    void theGenerationIsSaidInWords() {
        Instant now = Instant.parse("2026-12-07T12:00:00Z");
        assertThat(SharedLayersViewModel.generationText(new SharedLayers.Status(List.of(), null, 0, null), now))
                .contains("nothing is shared");
        assertThat(SharedLayersViewModel.generationText(
                        new SharedLayers.Status(List.of("node_modules"), null, 0, null), now))
                .startsWith("None built yet");
        assertThat(SharedLayersViewModel.generationText(
                        new SharedLayers.Status(List.of("node_modules"), "npm ci", 3, now.minus(Duration.ofMinutes(5))),
                        now))
                .startsWith("Generation 3, built ")
                .doesNotContain("ago");
        assertThat(SharedLayersViewModel.generationText(
                        new SharedLayers.Status(List.of("node_modules"), null, 4, now.minus(Duration.ofDays(2))), now))
                .startsWith("Generation 4, built ")
                .endsWith("(2 d ago)");
    }
}
