package dev.paddock.ui.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.common.PaddockException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Opening folders and terminals with real processes: small scripts on a PATH made for the test. */
class DesktopOpenerTest {
    @TempDir
    Path temp;

    private Path bin;
    private Path folder;
    private Path record;

    @BeforeEach
    void dirs() throws IOException {
        bin = Files.createDirectories(temp.resolve("bin"));
        folder = Files.createDirectories(temp.resolve("my worktree"));
        record = temp.resolve("record.txt");
    }

    /** A script on the test PATH that records its working directory and arguments. */
    private void recorder(String name) throws IOException {
        script(name, "printf '%s\\n' \"$(pwd)\" \"$@\" > '" + record + "'\n");
    }

    private void script(String name, String body) throws IOException {
        Path p = bin.resolve(name);
        Files.writeString(p, "#!/bin/sh\n" + body, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private String recorded() throws Exception {
        Instant until = Instant.now().plus(Duration.ofSeconds(10));
        while (!Files.exists(record) || Files.size(record) == 0) {
            if (Instant.now().isAfter(until)) {
                throw new AssertionError("the tool never ran");
            }
            Thread.sleep(50);
        }
        return Files.readString(record, StandardCharsets.UTF_8);
    }

    @Test
    void withNoTerminalInstalledItSaysWhichItLookedFor() {
        DesktopOpener opener = new DesktopOpener(false, bin.toString());

        assertThatThrownBy(() -> opener.openTerminal(folder))
                .isInstanceOf(PaddockException.class)
                .hasMessageContaining("No terminal found")
                .hasMessageContaining("x-terminal-emulator, gnome-terminal, konsole, xterm")
                .hasMessageContaining(folder.toString());
    }

    @Test
    void theFirstTerminalFoundOpensInTheFolder() throws Exception {
        recorder("xterm");
        recorder("konsole");
        DesktopOpener opener = new DesktopOpener(false, temp.resolve("empty") + ":" + bin);

        assertThat(opener.openTerminal(folder)).isEqualTo("konsole");
        assertThat(recorded()).isEqualTo(folder + "\n--workdir\n" + folder + "\n");
    }

    @Test
    void gnomeTerminalIsToldTheWorkingDirectory() throws Exception {
        recorder("gnome-terminal");
        assertThat(new DesktopOpener(false, bin.toString()).openTerminal(folder))
                .isEqualTo("gnome-terminal");
        assertThat(recorded()).isEqualTo(folder + "\n--working-directory=" + folder + "\n");
    }

    @Test
    void xtermStartsInTheFolder() throws Exception {
        recorder("xterm");
        assertThat(new DesktopOpener(false, bin.toString()).openTerminal(folder))
                .isEqualTo("xterm");
        assertThat(recorded()).isEqualTo(folder + "\n");
    }

    @Test
    void onMacTheTerminalAppIsOpenedThere() throws Exception {
        recorder("open");
        assertThat(new DesktopOpener(true, bin.toString()).openTerminal(folder)).isEqualTo("Terminal");
        assertThat(recorded()).isEqualTo(folder + "\n-a\nTerminal\n" + folder + "\n");
    }

    @Test
    void theFolderOpensWithXdgOpen() throws Exception {
        recorder("xdg-open");
        assertThat(new DesktopOpener(false, bin.toString()).openFolder(folder)).isEqualTo("xdg-open");
        assertThat(recorded()).isEqualTo(folder + "\n" + folder + "\n");
    }

    @Test
    void aFileOpensWithXdgOpenFromItsFolderAndAGoneOneIsRefused() throws Exception {
        recorder("xdg-open");
        Path log = Files.writeString(folder.resolve("7.log"), "test output\n");
        assertThat(new DesktopOpener(false, bin.toString()).openFile(log)).isEqualTo("xdg-open");
        assertThat(recorded()).isEqualTo(folder + "\n" + log + "\n");
        assertThatThrownBy(() -> new DesktopOpener(false, bin.toString()).openFile(folder.resolve("8.log")))
                .hasMessageContaining("8.log does not exist");
    }

    @Test
    void withoutXdgOpenItSaysWhatToInstall() {
        assertThatThrownBy(() -> new DesktopOpener(false, bin.toString()).openFolder(folder))
                .hasMessageContaining("xdg-open is not installed")
                .hasMessageContaining("xdg-utils");
    }

    @Test
    void aToolThatFailsAtOnceReportsWhy() throws IOException {
        script("xdg-open", "echo 'no method available for opening' >&2\nexit 4\n");
        assertThatThrownBy(() -> new DesktopOpener(false, bin.toString()).openFolder(folder))
                .hasMessage("xdg-open failed (exit 4): no method available for opening");
    }

    @Test
    void aFolderThatIsGoneIsRefused() throws IOException {
        recorder("xterm");
        Path gone = temp.resolve("gone");
        assertThatThrownBy(() -> new DesktopOpener(false, bin.toString()).openTerminal(gone))
                .hasMessageContaining("does not exist");
        assertThat(record).doesNotExist();
    }
}
