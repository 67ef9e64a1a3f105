package dev.paddock.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.events.Event;
import dev.paddock.events.EventKinds;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A repository's merge target (local or push, its remote, a pull request) stored in the H2 file and read back. */
class MergeTargetSettingTest {
    @TempDir
    Path tmp;

    @Test
    void theTargetRoundTripsKeepsTheOtherSettingsAndSaysWhatChanged() throws Exception {
        try (MergeRig rig = new MergeRig(tmp)) {
            assertThat(rig.service.settings(rig.repo.dir()).target())
                    .as("by default approved work is merged locally")
                    .isEqualTo(MergeTarget.LOCAL);
            rig.service.configure(rig.repo.dir(), "rebase", "true", 5_000L, 2, "apply");

            MergeSettings s = rig.service.configureTarget(rig.repo.dir(), "PUSH", " upstream ", true);

            assertThat(s.target()).isEqualTo(new MergeTarget(MergeTarget.Kind.PUSH, "upstream", true));
            assertThat(s.strategy()).isEqualTo(MergeStrategy.REBASE);
            assertThat(s.testCommand()).isEqualTo("true");
            assertThat(s.autoResolve()).isEqualTo(AutoResolveMode.APPLY);
            List<String> changed = rig.recent().stream()
                    .filter(e -> e.kind().equals(EventKinds.SETTING_CHANGED))
                    .map(Event::message)
                    .toList();
            assertThat(changed)
                    .anyMatch(m -> m.contains("Merge setting target") && m.endsWith("local → push"))
                    .anyMatch(m -> m.contains("Merge setting remote") && m.endsWith("→ upstream"))
                    .anyMatch(m -> m.contains("Merge setting pull-request") && m.endsWith("false → true"));

            // The other settings keep the target, and a blank remote means origin or the only one again.
            rig.service.configure(rig.repo.dir(), "merge", null, null, null, null);
            assertThat(rig.service.settings(rig.repo.dir()).target().pushes()).isTrue();
            MergeSettings back = rig.service.configureTarget(rig.repo.dir(), null, "", null);
            assertThat(back.target()).isEqualTo(new MergeTarget(MergeTarget.Kind.PUSH, null, true));
        }
        try (MergeRig reopened = new MergeRig(tmp, tmp.resolve("repo"))) {
            assertThat(reopened.service.settings(reopened.repo.dir()).target())
                    .as("read back from the store's file after it was closed")
                    .isEqualTo(new MergeTarget(MergeTarget.Kind.PUSH, null, true));
        }
    }

    @Test
    void anUnknownTargetOrABadRemoteNameChangesNothing() throws Exception {
        try (MergeRig rig = new MergeRig(tmp)) {
            assertThatThrownBy(() -> rig.service.configureTarget(rig.repo.dir(), "github", null, null))
                    .isInstanceOf(MergeException.class)
                    .hasMessageContaining("use local (merged into the local base branch) or push");
            assertThatThrownBy(() -> rig.service.configureTarget(rig.repo.dir(), "push", "--upload-pack=x", null))
                    .isInstanceOf(MergeException.class)
                    .hasMessageContaining("is not a remote's name");
            assertThat(rig.service.settings(rig.repo.dir()).target()).isEqualTo(MergeTarget.LOCAL);
        }
    }
}
