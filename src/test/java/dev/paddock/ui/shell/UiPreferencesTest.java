package dev.paddock.ui.shell;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.ui.theme.Theme;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ui.properties on a real file: written only while allowed (a refused panel must not write another's home). */
class UiPreferencesTest {
    @TempDir
    Path dir;

    @Test
    void changesMadeWhileNotWritableAreKeptOutOfTheFileUntilItIs() {
        Path file = dir.resolve("ui.properties");
        UiPreferences prefs = new UiPreferences(file);
        prefs.setWritable(false);
        prefs.setTheme(Theme.DARK);
        prefs.setSize(1200, 700);
        assertThat(file).doesNotExist();

        prefs.setWritable(true);
        UiPreferences reread = new UiPreferences(file);
        assertThat(reread.theme()).isEqualTo(Theme.DARK);
        assertThat(reread.width()).isEqualTo(1200);
        assertThat(reread.height()).isEqualTo(700);
    }

    @Test
    void theFileIsWrittenOwnerOnly() throws Exception {
        Path file = dir.resolve("ui.properties");

        new UiPreferences(file).setTheme(Theme.DARK);

        assertThat(java.nio.file.Files.getPosixFilePermissions(file))
                .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    }

    @Test
    void aPanelThatNeverMayWriteLeavesTheFileAsItWas() throws Exception {
        Path file = dir.resolve("ui.properties");
        UiPreferences owner = new UiPreferences(file);
        owner.setTheme(Theme.LIGHT);
        String before = java.nio.file.Files.readString(file);

        UiPreferences refused = new UiPreferences(file);
        refused.setWritable(false);
        refused.setTheme(Theme.DARK);
        refused.setSize(900, 600);

        assertThat(java.nio.file.Files.readString(file)).isEqualTo(before);
        assertThat(new UiPreferences(file).theme()).isEqualTo(Theme.LIGHT);
    }

    @Test
    void trackedWindowAndLayoutValuesAreWrittenOnlyBySaveIfChangedAndComeBack() throws Exception {
        Path file = dir.resolve("ui.properties");
        UiPreferences prefs = new UiPreferences(file);
        prefs.trackSize(1280.4, 700);
        prefs.trackMaximized(true);
        prefs.put("sandboxes.detailsDivider", 0.7123);
        assertThat(file).doesNotExist();

        prefs.saveIfChanged();
        java.nio.file.attribute.FileTime written = java.nio.file.Files.getLastModifiedTime(file);
        UiPreferences reread = new UiPreferences(file);
        assertThat(reread.width()).isEqualTo(1280);
        assertThat(reread.height()).isEqualTo(700);
        assertThat(reread.maximized()).isTrue();
        assertThat(reread.get("sandboxes.detailsDivider", 0.62)).isEqualTo(0.712);
        assertThat(reread.get("other", 0.62)).isEqualTo(0.62);

        java.nio.file.Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.fromMillis(0));
        prefs.trackSize(1280, 700); // the same: nothing to write
        prefs.saveIfChanged();
        assertThat(java.nio.file.Files.getLastModifiedTime(file).toMillis()).isZero();
        assertThat(written.toMillis()).isPositive();
    }

    @Test
    void theFirstWindowFillsALaptopScreenAndStaysModestOnALargeOne() {
        UiPreferences prefs = new UiPreferences(dir.resolve("ui.properties"));
        assertThat(prefs.width(1366)).isEqualTo(1366);
        assertThat(prefs.height(768)).isEqualTo(768);
        assertThat(prefs.width(1440)).isEqualTo(1440);
        assertThat(prefs.height(900)).isEqualTo(900);
        assertThat(prefs.width(1920)).isEqualTo(1600);
        assertThat(prefs.height(1080)).isEqualTo(1000);
        assertThat(prefs.width(1680)).isEqualTo(1600);
        assertThat(prefs.height(1050)).isEqualTo(970);
        assertThat(prefs.width()).as("screen not known").isEqualTo(1360);
        assertThat(prefs.height()).isEqualTo(860);
        prefs.setSize(1200, 700);
        assertThat(prefs.width(1920)).as("a size a person chose wins").isEqualTo(1200);
        assertThat(prefs.height(1080)).isEqualTo(700);
    }
}
