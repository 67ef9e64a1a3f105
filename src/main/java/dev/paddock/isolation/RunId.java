package dev.paddock.isolation;

import java.nio.file.Path;
import java.util.Map;

/**
 * Who a run is, apart from what it runs: what finds it again after a restart, and where its output goes.
 *
 * @param key whose run it is (a sandbox's id): a runtime follows one run per key
 * @param name the run's own name, unique among its runtime's runs (a container's name)
 * @param labels labels of the run (a container's labels); a run that a Paddock started but did not record is
 *     found again by them
 * @param controlDir Paddock's own directory of the run, or null: writable inside, its {@code bin} folder first on
 *     the PATH, and the run's exit code and pid written there (so its end is known across a restart)
 * @param log where its output (stdout and stderr) is appended
 * @param marker a variable set in the environment of every process of the run, which finds them all even after
 *     the process that started them is gone, or null
 */
public record RunId(String key, String name, Map<String, String> labels, Path controlDir, Path log, Marker marker) {
    /**
     * The file in a run's control directory saying that the workspace on a remote engine holds work not brought
     * back yet (its text says why): a strict removal refuses while it is there.
     */
    public static final String WORKSPACE_OWED = "remote-workspace.owed";

    public RunId {
        labels = Map.copyOf(labels);
    }

    /** An environment variable {@code name=value} that marks every process of a run. */
    public record Marker(String name, String value) {}

    /** The exit-code file the run's wrapper writes at its end, in the control directory. */
    public Path exitCodeFile() {
        return controlDir.resolve("exit-code");
    }

    /** The file the run's wrapper writes its pid to before anything else, in the control directory. */
    public Path pidFile() {
        return controlDir.resolve("agent-pid");
    }
}
