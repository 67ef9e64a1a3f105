package dev.paddock;

import dev.paddock.container.DockerContainers;
import dev.paddock.container.DockerEndpoint;
import dev.paddock.container.DockerEngine;
import dev.paddock.container.EngineRegistry;
import dev.paddock.container.EngineWatch;
import dev.paddock.isolation.ApiRelays;
import dev.paddock.isolation.IsolationRuntimes;
import dev.paddock.isolation.bubblewrap.BubblewrapCommand;
import dev.paddock.isolation.bubblewrap.BubblewrapProbe;
import dev.paddock.isolation.bubblewrap.BubblewrapRuntime;
import dev.paddock.isolation.container.ContainerAgents;
import dev.paddock.isolation.container.ContainerEngines;
import dev.paddock.isolation.container.ContainerRuntime;
import dev.paddock.isolation.host.HostRuntime;
import dev.paddock.sandbox.AgentLauncher;
import dev.paddock.settings.PaddockHome;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What agents run in, built together for {@link Wiring}: the runtime of each isolation tier (host process group,
 * bubblewrap, container), what they stand on (the Docker engine's watch, the bubblewrap probe, the container agents),
 * the launcher that starts agents in them and the relays of namespace and container agents' API sockets.
 */
final class IsolationServices {
    private final Path homeDir;
    private final BubblewrapProbe bubblewrap = new BubblewrapProbe();
    private final EngineWatch engineWatch;
    private final ContainerAgents containers;
    private final ContainerEngines engines;
    private final IsolationRuntimes runtimes;
    private final AgentLauncher launcher;
    private final ApiRelays relays;

    /**
     * @param docker the Docker engine to use, or null for the one the docker CLI would choose
     * @param homeId the home's id (containers carry it as a label), or null
     */
    IsolationServices(PaddockHome home, Clock clock, DockerEndpoint docker, String homeId) {
        this.homeDir = home.dir();
        Supplier<DockerEngine> engines =
                () -> docker == null ? new DockerEngine(clock) : new DockerEngine(clock, docker);
        this.engineWatch = new EngineWatch(engines);
        // Connected on first use: a Paddock without container sandboxes never loads docker-java.
        this.containers = new ContainerAgents(() -> new DockerContainers(engines.get(), homeId), engineWatch);
        String setsid = HostRuntime.findSetsid();
        ContainerRuntime containerRuntime = new ContainerRuntime(containers);
        this.engines = new ContainerEngines(EngineRegistry.in(home.dir()), containerRuntime, clock, homeId);
        this.runtimes = new IsolationRuntimes(
                new HostRuntime(setsid),
                new BubblewrapRuntime(setsid, new BubblewrapCommand("bwrap"), bubblewrap),
                containerRuntime,
                this.engines,
                this.engines);
        this.launcher = new AgentLauncher(runtimes);
        this.relays = new ApiRelays(home.dir().resolve("run").resolve("api"));
    }

    /** Whether bubblewrap works on this machine (the namespace tier and the environment's check). */
    BubblewrapProbe bubblewrap() {
        return bubblewrap;
    }

    /** Whether the Docker engine answers (the container tier and the environment's check). */
    EngineWatch engineWatch() {
        return engineWatch;
    }

    /** The agents of container sandboxes (connects to the Docker engine on first use). */
    ContainerAgents containers() {
        return containers;
    }

    /** The container tier's registered engines besides the local one (each watched once the panel or server runs). */
    ContainerEngines engines() {
        return engines;
    }

    /** Whether nothing is known now of the registered engine {@code name}'s sandboxes (also when it is unknown). */
    boolean engineAway(String name) {
        ContainerEngines.Engine e = engines.engine(name);
        return e == null || e.runtime().stateUnknown();
    }

    /** The runtime of each isolation tier. */
    IsolationRuntimes runtimes() {
        return runtimes;
    }

    /** Starts agents in their sandbox's tier. */
    AgentLauncher launcher() {
        return launcher;
    }

    /** The namespace and container agents' API sockets. */
    ApiRelays relays() {
        return relays;
    }

    /**
     * Opens namespace and container agents' API sockets, relayed to the API on {@code apiPort}, and shows those
     * agents the Claude Code hooks; {@code api} learns which connections they relay.
     */
    void serveSandboxSockets(int apiPort, Consumer<ApiRelays> api) {
        relays.apiPort(apiPort);
        api.accept(relays);
        launcher.sandboxApi(
                relays,
                List.of(
                        dev.paddock.approval.HookScript.path(homeDir),
                        dev.paddock.approval.HookScript.scriptPath(homeDir),
                        dev.paddock.agent.TurnHook.path(homeDir)));
    }
}
