package dev.paddock.merge.conflict;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Lockfiles and other files a tool writes from a manifest: a text merge of two of them is a file no tool wrote
 * (a name from one side with a version from the other), so their hunks are {@link HunkClass#LOCKFILE}: take one
 * side whole and regenerate with the repository's configured command. Recognised by file name.
 */
public final class Lockfiles {
    /** File name (lower case) → the command that usually regenerates it, as a hint for people. */
    private static final Map<String, String> USUAL = Map.ofEntries(
            Map.entry("package-lock.json", "npm install --package-lock-only"),
            Map.entry("npm-shrinkwrap.json", "npm install --package-lock-only"),
            Map.entry("yarn.lock", "yarn install --mode update-lockfile"),
            Map.entry("pnpm-lock.yaml", "pnpm install --lockfile-only"),
            Map.entry("bun.lock", "bun install --lockfile-only"),
            Map.entry("cargo.lock", "cargo update --workspace"),
            Map.entry("poetry.lock", "poetry lock --no-update"),
            Map.entry("pipfile.lock", "pipenv lock"),
            Map.entry("uv.lock", "uv lock"),
            Map.entry("pdm.lock", "pdm lock"),
            Map.entry("go.sum", "go mod tidy"),
            Map.entry("gemfile.lock", "bundle lock"),
            Map.entry("composer.lock", "composer update --lock"),
            Map.entry("mix.lock", "mix deps.get"),
            Map.entry("pubspec.lock", "dart pub get"),
            Map.entry("podfile.lock", "pod install"),
            Map.entry("packages.lock.json", "dotnet restore --force-evaluate"),
            Map.entry("gradle.lockfile", "gradle dependencies --write-locks"),
            Map.entry("flake.lock", "nix flake lock"));

    private Lockfiles() {}

    /** Whether the file at {@code path} is a lockfile (by its name). */
    public static boolean isLockfile(String path) {
        return USUAL.containsKey(name(path));
    }

    /** The command that usually regenerates the file at {@code path}, if it is a known lockfile. */
    public static Optional<String> usualCommand(String path) {
        return Optional.ofNullable(USUAL.get(name(path)));
    }

    private static String name(String path) {
        String p = path.replace('\\', '/');
        return p.substring(p.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
    }
}
