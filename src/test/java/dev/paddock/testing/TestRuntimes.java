package dev.paddock.testing;

import dev.paddock.isolation.IsolationRuntimes;
import dev.paddock.isolation.bubblewrap.BubblewrapCommand;
import dev.paddock.isolation.bubblewrap.BubblewrapProbe;
import dev.paddock.isolation.bubblewrap.BubblewrapRuntime;
import dev.paddock.isolation.container.ContainerAgents;
import dev.paddock.isolation.container.ContainerRuntime;
import dev.paddock.isolation.host.HostRuntime;

/** The runtime of each tier as Paddock builds them: the machine's setsid, {@code bwrap} from the PATH. */
public final class TestRuntimes {
    private TestRuntimes() {}

    /** Without a container engine (a container run fails, saying so). */
    public static IsolationRuntimes local() {
        return with(new BubblewrapProbe(), ContainerAgents.none());
    }

    /** With {@code containers} for the container tier. */
    public static IsolationRuntimes with(ContainerAgents containers) {
        return with(new BubblewrapProbe(), containers);
    }

    /** With {@code probe} telling whether bubblewrap works, and {@code containers}. */
    public static IsolationRuntimes with(BubblewrapProbe probe, ContainerAgents containers) {
        String setsid = HostRuntime.findSetsid();
        ContainerRuntime container = new ContainerRuntime(containers);
        return new IsolationRuntimes(
                new HostRuntime(setsid),
                new BubblewrapRuntime(setsid, new BubblewrapCommand("bwrap"), probe),
                container,
                container);
    }
}
