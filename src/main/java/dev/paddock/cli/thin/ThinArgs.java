package dev.paddock.cli.thin;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * The command lines the thin client answers, read without picocli: {@code [--home DIR] status [--repo PATH]
 * [--json]}, {@code [--home DIR] sandbox list [--repo PATH] [--json]} (each option at most once, {@code --opt VALUE}
 * or {@code --opt=VALUE}), and {@code --version} or {@code -V} alone. Anything else, including {@code --help}, a
 * repeated option, an empty value or one that starts with {@code -}, is left to the full CLI ({@link #parse} answers
 * null), which parses it and reports on it as always.
 *
 * @param what {@link What#STATUS}, {@link What#SANDBOXES} or {@link What#VERSION}
 * @param home {@code --home} as given, or null
 * @param repo {@code --repo} as given, or null (the current directory)
 * @param json whether {@code --json} was given
 */
record ThinArgs(What what, Path home, Path repo, boolean json) {

    /** What a command line asks for. */
    enum What {
        STATUS,
        SANDBOXES,
        VERSION
    }

    /** The thin client's reading of {@code args}, or null when the full CLI must read them. */
    static ThinArgs parse(String... args) {
        try {
            return read(args);
        } catch (InvalidPathException e) {
            return null;
        }
    }

    private static ThinArgs read(String... args) {
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
            return new ThinArgs(What.VERSION, null, null, false);
        }
        int i = 0;
        Path home = null;
        // The root's options before the command's name: only --home (--repo there opens the panel).
        while (i < args.length && args[i].startsWith("-")) {
            String value = valueOf("--home", args, i);
            if (value == null || home != null) {
                return null;
            }
            home = Path.of(value);
            i += args[i].equals("--home") ? 2 : 1;
        }
        What what;
        if (i < args.length && args[i].equals("status")) {
            what = What.STATUS;
            i++;
        } else if (i + 1 < args.length && args[i].equals("sandbox") && args[i + 1].equals("list")) {
            what = What.SANDBOXES;
            i += 2;
        } else {
            return null;
        }
        Path repo = null;
        boolean json = false;
        while (i < args.length) {
            if (args[i].equals("--json") && !json) {
                json = true;
                i++;
                continue;
            }
            String value = valueOf("--repo", args, i);
            if (value == null || repo != null) {
                return null;
            }
            repo = Path.of(value);
            i += args[i].equals("--repo") ? 2 : 1;
        }
        return new ThinArgs(what, home, repo, json);
    }

    /**
     * The value of {@code option} at {@code args[i]} ({@code --opt VALUE} or {@code --opt=VALUE}), or null when
     * {@code args[i]} is another word or the value is missing, blank or looks like an option.
     */
    private static String valueOf(String option, String[] args, int i) {
        String value;
        if (args[i].equals(option)) {
            value = i + 1 < args.length ? args[i + 1] : null;
        } else if (args[i].startsWith(option)
                && args[i].length() > option.length()
                && args[i].charAt(option.length()) == '=') {
            value = args[i].substring(option.length() + 1);
        } else {
            return null;
        }
        return value == null || value.isBlank() || value.startsWith("-") ? null : value;
    }
}
