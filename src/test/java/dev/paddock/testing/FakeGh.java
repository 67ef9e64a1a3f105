package dev.paddock.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A stand-in for the GitHub CLI ({@code gh}), which needs the network and a GitHub account: a shell script put on a
 * PATH the test chooses.
 */
public final class FakeGh {
    /** The URL {@link #recording} prints for the pull request it pretends to open. */
    public static final String URL = "https://github.com/team/repo/pull/7";

    private FakeGh() {}

    /**
     * A gh that is signed in ({@code gh auth status} exits 0), writes its other calls' arguments to {@code record}
     * (each followed by a line {@code --}) and the folder it ran in to {@code record.dir}, and prints {@link #URL}.
     */
    public static String recording(Path record) {
        return "if [ \"$1 $2\" = \"auth status\" ]; then exit 0; fi\n"
                + "pwd > '" + record + ".dir'\n"
                + "for a in \"$@\"; do printf '%s\\n--\\n' \"$a\"; done > '" + record + "'\n"
                + "echo 'Creating pull request...' >&2\n"
                + "echo " + URL + "\n";
    }

    /** Writes {@code script} as an executable {@code gh} in {@code bin}. */
    public static Path install(Path bin, String script) throws IOException {
        Path gh = Files.createDirectories(bin).resolve("gh");
        Files.writeString(gh, "#!/bin/sh\n" + script);
        Files.setPosixFilePermissions(gh, PosixFilePermissions.fromString("rwxr-xr-x"));
        return gh;
    }
}
