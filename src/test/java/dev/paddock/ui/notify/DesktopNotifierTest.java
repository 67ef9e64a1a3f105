package dev.paddock.ui.notify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link DesktopNotifier} with a real {@code notify-send} that records its arguments. */
class DesktopNotifierTest {
    @TempDir
    Path temp;

    private Path recorder(Path dir, Path out) throws Exception {
        Files.createDirectories(dir);
        Path script = dir.resolve("notify-send");
        Files.writeString(script, "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"" + out + "\"\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }

    /** Waits until everything handed to the notifier before this call has run. */
    private static void drain(DesktopNotifier n) throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        n.notify("-", "-", () -> {
            done.countDown();
            return false;
        });
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void textThatLooksLikeAnOptionOrHoldsShellCharactersIsPassedAsItIs() throws Exception {
        Path out = temp.resolve("args");
        recorder(temp.resolve("bin"), out);
        try (DesktopNotifier n = new DesktopNotifier(() -> temp.resolve("bin").toString())) {
            n.notify(
                    "--urgency=critical is waiting for you",
                    "$(touch " + temp.resolve("pwned") + "); `id`",
                    () -> true);
            drain(n);
        }
        assertThat(Files.readAllLines(out))
                .containsExactly(
                        "--app-name=Paddock",
                        "--",
                        "--urgency=critical is waiting for you",
                        "$(touch " + temp.resolve("pwned") + "); `id`");
        assertThat(temp.resolve("pwned")).doesNotExist();
    }

    @Test
    void aRelativePathEntryIsNeverSearchedAndNothingIsShownWhenUnwanted() throws Exception {
        Path out = temp.resolve("args");
        recorder(temp.resolve("bin"), out);
        try (DesktopNotifier n = new DesktopNotifier(() -> "bin:" + temp.resolve("empty"))) {
            n.notify("x is waiting for you", "", () -> true);
            drain(n);
        }
        assertThat(out).doesNotExist();
        assertThat(DesktopNotifier.locate("bin::" + temp.resolve("bin"))).contains(temp.resolve("bin/notify-send"));

        try (DesktopNotifier n = new DesktopNotifier(() -> temp.resolve("bin").toString())) {
            n.notify("x is waiting for you", "", () -> false);
            drain(n);
        }
        assertThat(out).doesNotExist();
        assertThat(List.of(DesktopNotifier.locate(null), DesktopNotifier.locate("")))
                .allMatch(o -> o.isEmpty());
    }
}
