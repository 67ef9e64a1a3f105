package dev.paddock.isolation.bubblewrap;

import dev.paddock.common.Processes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Tells whether the namespace tier can work here: {@code bwrap} is on the PATH and can create the
 * namespaces a sandbox uses ({@code --unshare-all}).
 */
public final class BubblewrapProbe {
    private final String executable;

    public BubblewrapProbe() {
        this("bwrap");
    }

    public BubblewrapProbe(String executable) {
        this.executable = executable;
    }

    /**
     * Result of a probe.
     *
     * @param installed whether {@code bwrap} ran at all
     * @param usable whether it could create a sandbox with all namespaces unshared
     * @param version {@code bwrap --version} output, or null
     * @param problem why it is not usable, or null
     */
    public record Status(boolean installed, boolean usable, String version, String problem) {
        private static final String NOT_CHECKED = "not checked yet";

        /** The status before the first probe. */
        public static Status notChecked() {
            return new Status(false, false, null, NOT_CHECKED);
        }

        /** One short line for a status bar. */
        public String summary() {
            if (!installed && NOT_CHECKED.equals(problem)) {
                return "bubblewrap: checking…";
            }
            if (usable) {
                return "bubblewrap " + (version == null ? "" : version.replace("bubblewrap ", ""));
            }
            return installed ? "bubblewrap unusable" : "bubblewrap missing";
        }
    }

    /** Runs the probe (two short processes). Never throws. */
    public Status probe() {
        Run v = run(List.of(executable, "--version"));
        if (v == null || v.exit != 0) {
            return new Status(false, false, null, "bwrap is not installed (apt-get install bubblewrap)");
        }
        Run ns = run(List.of(executable, "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "true"));
        if (ns == null || ns.exit != 0) {
            String why = ns == null ? "did not finish" : ns.output.strip();
            return new Status(true, false, v.output.strip(), "bwrap cannot create namespaces here: " + why);
        }
        return new Status(true, true, v.output.strip(), null);
    }

    private record Run(int exit, String output) {}

    private static Run run(List<String> cmd) {
        try {
            Process p = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectInput(Processes.NO_INPUT)
                    .start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
