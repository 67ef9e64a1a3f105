package dev.paddock.container;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Version;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection to a Docker engine through docker-java. Only this package imports docker-java; the
 * other packages use {@link DockerEngine} (status) and {@link DockerContainers} (containers).
 *
 * <p>The endpoint follows the docker CLI's rules ({@link DockerEndpoint}): {@code DOCKER_HOST}, else the
 * current docker context ({@code DOCKER_CONTEXT} or {@code currentContext} in {@code ~/.docker/config.json}),
 * else the local socket.
 */
public final class DockerEngine implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DockerEngine.class);
    /** Time to connect to the engine before a call fails. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    /** Time an ordinary call (ping, version) may take. */
    static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(5);

    private final Clock clock;
    private final String endpoint;
    private final String source;
    private final DockerClient client;
    private final String configError;
    private DefaultDockerClientConfig config;
    private DockerClient streaming;

    /** Connects to the engine the docker CLI would use ({@link DockerEndpoint#current()}). */
    public DockerEngine(Clock clock) {
        this(clock, DockerEndpoint.current());
    }

    /**
     * Connects to the engine at {@code dockerHost} ({@code unix:///var/run/docker.sock},
     * {@code tcp://host:2376}, ...), or to the docker CLI's choice when null.
     */
    public DockerEngine(Clock clock, String dockerHost) {
        this(
                clock,
                dockerHost == null ? DockerEndpoint.current() : new DockerEndpoint(dockerHost, "given", null, null));
    }

    /**
     * Connects to {@code endpoint}. An endpoint docker-java cannot use (an {@code ssh://} context, a malformed
     * address) or a context that could not be read is not an exception: {@link #check()} reports it.
     */
    public DockerEngine(Clock clock, DockerEndpoint endpoint) {
        this.clock = clock;
        this.source = endpoint.source();
        DockerClient c = null;
        String ep = endpoint.host();
        String err = null;
        try {
            DefaultDockerClientConfig.Builder builder =
                    DefaultDockerClientConfig.createDefaultConfigBuilder().withDockerHost(endpoint.host());
            if (endpoint.tlsDir() != null) {
                builder.withDockerTlsVerify(true)
                        .withDockerCertPath(endpoint.tlsDir().toString());
            }
            config = builder.build();
            ep = config.getDockerHost().toString();
            ApacheDockerHttpClient http = new ApacheDockerHttpClient.Builder()
                    .dockerHost(config.getDockerHost())
                    .sslConfig(config.getSSLConfig())
                    .connectionTimeout(CONNECT_TIMEOUT)
                    .responseTimeout(RESPONSE_TIMEOUT)
                    .maxConnections(100)
                    .build();
            c = DockerClientImpl.getInstance(config, http);
        } catch (RuntimeException e) {
            err = "Docker configuration is not usable"
                    + (ep.startsWith("ssh://")
                            ? " (Paddock's Docker client speaks unix:// and tcp:// only; forward"
                                    + " the remote socket, e.g. ssh -L, and use DOCKER_HOST)"
                            : "")
                    + ": " + DockerEngine.describe(e);
            LOG.warn(err);
        }
        if (endpoint.problem() != null) {
            err = (err == null ? "" : err + "; ") + endpoint.problem();
            LOG.warn("Docker endpoint: {}", endpoint.problem());
        }
        this.client = c;
        this.endpoint = ep;
        this.configError = err;
    }

    /**
     * Pings the engine and reads its version. Never throws: an unreachable engine is a status.
     * Blocks up to about {@link #CONNECT_TIMEOUT} + {@link #RESPONSE_TIMEOUT}; call it off the UI thread.
     */
    public EngineStatus check() {
        if (client == null) {
            return new EngineStatus(false, endpoint, null, configError, clock.instant(), source);
        }
        try {
            client.pingCmd().exec();
            Version v = client.versionCmd().exec();
            return new EngineStatus(true, endpoint, v.getVersion(), null, clock.instant(), source);
        } catch (RuntimeException e) {
            String why = describe(e);
            if (configError != null) {
                why = why + " (" + configError + ")"; // e.g. a broken context, so the default socket was tried
            }
            return new EngineStatus(false, endpoint, null, why, clock.instant(), source);
        }
    }

    /** The clock of this engine's statuses and samples. */
    Clock clock() {
        return clock;
    }

    /** The engine's address. */
    public String endpoint() {
        return endpoint;
    }

    /** Where the address came from ({@link DockerEndpoint#source()}). */
    public String source() {
        return source;
    }

    /**
     * The client for ordinary calls (each bounded by {@link #RESPONSE_TIMEOUT}).
     *
     * @throws ContainerException when the docker configuration is not usable
     */
    DockerClient client() throws ContainerException {
        if (client == null) {
            throw new ContainerException(configError);
        }
        return client;
    }

    /**
     * A second client without a response timeout, for streams that stay quiet for minutes (a container's log
     * followed while its agent thinks); built on first use.
     *
     * @throws ContainerException when the docker configuration is not usable
     */
    synchronized DockerClient streamingClient() throws ContainerException {
        client();
        if (streaming == null) {
            ApacheDockerHttpClient http = new ApacheDockerHttpClient.Builder()
                    .dockerHost(config.getDockerHost())
                    .sslConfig(config.getSSLConfig())
                    .connectionTimeout(CONNECT_TIMEOUT)
                    .maxConnections(500)
                    .build();
            streaming = DockerClientImpl.getInstance(config, http);
        }
        return streaming;
    }

    static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String msg = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return msg.length() > 200 ? msg.substring(0, 200) + "…" : msg;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (streaming != null) {
                try {
                    streaming.close();
                } catch (IOException e) {
                    LOG.debug("Closing the docker streaming client: {}", e.getMessage());
                }
            }
        }
        if (client != null) {
            try {
                client.close();
            } catch (IOException e) {
                LOG.debug("Closing the docker client: {}", e.getMessage());
            }
        }
    }
}
