package dev.paddock.bench.corpus;

import java.util.Locale;
import java.util.Set;

/** The language or file family of a corpus path, for the per-family figures. */
final class Family {
    private static final Set<String> LOCKFILES = Set.of(
            "package-lock.json",
            "npm-shrinkwrap.json",
            "yarn.lock",
            "pnpm-lock.yaml",
            "cargo.lock",
            "poetry.lock",
            "go.sum",
            "gemfile.lock",
            "composer.lock",
            "pipfile.lock",
            "uv.lock",
            "pdm.lock",
            "requirements.txt",
            "bun.lock",
            "flake.lock",
            "packages.lock.json",
            "mix.lock",
            "pubspec.lock",
            "podfile.lock",
            "gradle.lockfile");

    private Family() {}

    static String of(String path) {
        String p = path.toLowerCase(Locale.ROOT);
        String name = p.substring(p.lastIndexOf('/') + 1);
        if (LOCKFILES.contains(name) || name.endsWith(".lock")) {
            return "lockfile";
        }
        String ext = name.contains(".") ? name.substring(name.lastIndexOf('.') + 1) : "";
        return switch (ext) {
            case "java", "kt", "scala", "groovy" -> "java";
            case "py", "pyi" -> "python";
            case "js", "mjs", "cjs", "ts", "tsx", "jsx", "vue" -> "js/ts";
            case "go" -> "go";
            case "rs" -> "rust";
            case "md", "rst", "txt", "adoc", "html" -> "docs";
            case "json", "yaml", "yml", "toml", "xml", "cfg", "ini", "mod", "properties", "gradle" -> "config";
            default -> "other";
        };
    }
}
