package dev.paddock.ui.sandboxes;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The details pane's view model. */
class SandboxDetailsViewModelTest {
    @Test
    void theTextOnScreenKeepsTheNewestLinesFromALineStart() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; sb.length() <= SandboxDetailsViewModel.MAX_LOG_CHARS; i++) {
            sb.append("output line ").append(i).append('\n');
        }
        String kept = SandboxDetailsViewModel.trim(sb.toString());

        assertThat(kept.length()).isLessThan(SandboxDetailsViewModel.MAX_LOG_CHARS);
        assertThat(kept).startsWith("output line ").endsWith(sb.substring(sb.lastIndexOf("output line")));
        assertThat(SandboxDetailsViewModel.trim("short\n")).isEqualTo("short\n");
    }
}
