package dev.paddock.isolation.bubblewrap;

import dev.paddock.isolation.LinkedWorktree;
import dev.paddock.isolation.RunSpec;
import dev.paddock.isolation.host.HostRuntime;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs inside bubblewrap (the namespace tier): a host run ({@link HostRuntime}: process group, wrapper, marker)
 * whose shell runs in {@code bwrap} ({@link BubblewrapCommand}): system read-only, writable only the worktree, its
 * admin directory, what of the common {@code .git} the spec allows and the control directory, private {@code /tmp}
 * with HOME in it, no network unless granted, death with its parent. Secrets go through the (scrubbed) process
 * environment, never on the command line.
 */
public final class BubblewrapRuntime extends HostRuntime {
    private static final Duration PROBE_EVERY = Duration.ofMinutes(1);

    private final BubblewrapCommand bubblewrap;
    private final BubblewrapProbe probe;
    private BubblewrapProbe.Status last;
    private long lastAt;

    /**
     * @param setsid path of setsid(1), or null
     * @param bubblewrap builds the command lines
     * @param probe tells whether bubblewrap works here (asked at most once a minute)
     */
    public BubblewrapRuntime(String setsid, BubblewrapCommand bubblewrap, BubblewrapProbe probe) {
        super(setsid);
        this.bubblewrap = bubblewrap;
        this.probe = probe;
    }

    /** With {@code bwrap} from the PATH and the machine's setsid. */
    public static BubblewrapRuntime create() {
        return new BubblewrapRuntime(findSetsid(), new BubblewrapCommand("bwrap"), new BubblewrapProbe());
    }

    @Override
    public synchronized Optional<String> unavailable() {
        if (last == null || System.nanoTime() - lastAt > PROBE_EVERY.toNanos()) {
            last = probe.probe();
            lastAt = System.nanoTime();
        }
        return last.usable() ? Optional.empty() : Optional.of(last.problem());
    }

    @Override
    protected List<String> isolate(RunSpec spec, List<String> argv) throws IOException {
        List<java.nio.file.Path> writable =
                spec.id().controlDir() == null ? List.of() : List.of(spec.id().controlDir());
        return bubblewrap.command(
                LinkedWorktree.of(spec.workdir()),
                spec.writes(),
                writable,
                spec.network(),
                spec.api(),
                spec.layers(),
                argv);
    }

    /** Scrubbed as an agent's: the kept variables of Paddock's own, and the task's. */
    @Override
    protected Map<String, String> taskEnvironment(RunSpec spec) {
        Map<String, String> env = keptEnvironment();
        env.putIfAbsent("LANG", "C.UTF-8");
        env.put("TERM", "dumb");
        env.putAll(spec.env());
        return env;
    }
}
