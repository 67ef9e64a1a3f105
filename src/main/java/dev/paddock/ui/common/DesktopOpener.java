package dev.paddock.ui.common;

import dev.paddock.common.PaddockException;
import dev.paddock.common.Processes;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Opens a folder in the desktop's file manager, a file in its application, or a terminal in a folder,
 * through the platform's own tools started with {@link ProcessBuilder} ({@code HostServices.showDocument}
 * crashes under Monocle and cannot open a terminal). Blocks for up to {@link #SETTLE_MS} ms to catch a tool that fails at once:
 * call it off the FX thread.
 *
 * <p>Linux: {@code xdg-open} for folders; the first of {@code x-terminal-emulator}, {@code gnome-terminal},
 * {@code konsole}, {@code xterm} found on the {@code PATH} for terminals. macOS: {@code open} and
 * {@code open -a Terminal}.
 */
public final class DesktopOpener {
    /** Terminals tried on Linux, in this order. */
    public static final List<String> LINUX_TERMINALS =
            List.of("x-terminal-emulator", "gnome-terminal", "konsole", "xterm");
    /** How long a started tool is watched for an immediate failure, in ms. */
    static final long SETTLE_MS = 1_000;

    private final boolean mac;
    private final List<Path> searchPath;

    /** For this machine: its operating system and {@code PATH}. */
    public DesktopOpener() {
        this(System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("mac"), System.getenv("PATH"));
    }

    /**
     * @param mac whether to use the macOS tools
     * @param pathVariable a {@code PATH}-style list of directories to look for the tools in
     */
    public DesktopOpener(boolean mac, String pathVariable) {
        this.mac = mac;
        List<Path> dirs = new ArrayList<>();
        for (String d : (pathVariable == null ? "" : pathVariable).split(File.pathSeparator)) {
            if (!d.isBlank()) {
                dirs.add(Path.of(d));
            }
        }
        this.searchPath = List.copyOf(dirs);
    }

    /**
     * Opens {@code dir} in the file manager.
     *
     * @return the command that was started, e.g. {@code xdg-open}
     * @throws PaddockException when the folder is gone, no opener is installed, or it fails at once
     */
    public String openFolder(Path dir) throws PaddockException {
        requireDirectory(dir);
        String tool = mac ? "open" : "xdg-open";
        Path exe = find(tool)
                .orElseThrow(() -> new PaddockException("Cannot open the folder: " + tool + " is not installed"
                        + (mac ? "" : " (it comes with xdg-utils)") + ". The folder is " + dir + "."));
        start(List.of(exe.toString(), dir.toString()), dir, tool);
        return tool;
    }

    /**
     * Opens {@code file} with the desktop's application for its type (a text editor for a {@code .log}).
     *
     * @return the command that was started, e.g. {@code xdg-open}
     * @throws PaddockException when the file is gone, no opener is installed, or it fails at once
     */
    public String openFile(Path file) throws PaddockException {
        if (file == null || !Files.isRegularFile(file)) {
            throw new PaddockException("The file " + file + " does not exist (any more).");
        }
        String tool = mac ? "open" : "xdg-open";
        Path exe = find(tool)
                .orElseThrow(() -> new PaddockException("Cannot open the file: " + tool + " is not installed"
                        + (mac ? "" : " (it comes with xdg-utils)") + ". The file is " + file + "."));
        Path dir = file.toAbsolutePath().getParent();
        start(List.of(exe.toString(), file.toString()), dir, tool);
        return tool;
    }

    /**
     * Opens a terminal whose shell starts in {@code dir}.
     *
     * @return the terminal that was started, e.g. {@code gnome-terminal}
     * @throws PaddockException when the folder is gone, no terminal is installed, or it fails at once
     */
    public String openTerminal(Path dir) throws PaddockException {
        requireDirectory(dir);
        if (mac) {
            Path open =
                    find("open").orElseThrow(() -> new PaddockException("Cannot open a terminal: open is missing."));
            start(List.of(open.toString(), "-a", "Terminal", dir.toString()), dir, "Terminal");
            return "Terminal";
        }
        for (String name : LINUX_TERMINALS) {
            Optional<Path> exe = find(name);
            if (exe.isPresent()) {
                start(terminalCommand(name, exe.get(), dir), dir, name);
                return name;
            }
        }
        throw new PaddockException("No terminal found: Paddock looks for " + String.join(", ", LINUX_TERMINALS)
                + " on the PATH and none is installed. Open one yourself in " + dir + ".");
    }

    private static List<String> terminalCommand(String name, Path exe, Path dir) {
        return switch (name) {
            case "gnome-terminal" -> List.of(exe.toString(), "--working-directory=" + dir);
            case "konsole" -> List.of(exe.toString(), "--workdir", dir.toString());
            default -> List.of(exe.toString()); // x-terminal-emulator, xterm: the shell starts in the working directory
        };
    }

    /** The executable {@code name} on the search path, if any. */
    Optional<Path> find(String name) {
        for (Path d : searchPath) {
            Path p = d.resolve(name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    private static void requireDirectory(Path dir) throws PaddockException {
        if (dir == null || !Files.isDirectory(dir)) {
            throw new PaddockException("The folder " + dir + " does not exist (any more).");
        }
    }

    private static void start(List<String> cmd, Path dir, String tool) throws PaddockException {
        Path err = null;
        try {
            err = Files.createTempFile("paddock-open", ".err");
            Process p = Processes.withoutPaddockSecrets(new ProcessBuilder(cmd))
                    .directory(dir.toFile())
                    .redirectInput(Processes.NO_INPUT)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(err.toFile())
                    .start();
            if (p.waitFor(SETTLE_MS, TimeUnit.MILLISECONDS) && p.exitValue() != 0) {
                String why = Files.readString(err, StandardCharsets.UTF_8).strip();
                throw new PaddockException(tool + " failed (exit " + p.exitValue() + ")"
                        + (why.isEmpty() ? "." : ": " + why.lines().findFirst().orElse(why)));
            }
        } catch (IOException e) {
            throw new PaddockException("Cannot start " + tool + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PaddockException("Interrupted while starting " + tool, e);
        } finally {
            if (err != null) {
                try {
                    Files.deleteIfExists(err);
                } catch (IOException ignored) {
                    // a temp file left behind is harmless
                }
            }
        }
    }
}
