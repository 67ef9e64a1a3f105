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
 * <p>The endpoint follows the docker CLI's rules as docker-java implements them: {@code DOCKER_HOST},
 * else the current docker context ({@code DOCKER_CONTEXT} or {@code currentContext} in
 * {@code ~/.docker/config.json}), else the local socket.
 */
public final class DockerEngine implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DockerEngine.class);
    /** Time to connect to the engine before a call fails. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    /** Time an ordinary call (ping, version) may take. */
    static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(5);

    private final Clock clock;
    private final String endpoint;
    private final DockerClient client;
    private final String configError;
    private DefaultDockerClientConfig config;
    private DockerClient streaming;

    /** Connects to the engine the docker CLI would use. */
    public DockerEngine(Clock clock) {
        this(clock, null);
    }

    /**
     * Connects to the engine at {@code dockerHost} ({@code unix:///var/run/docker.sock},
     * {@code tcp://host:2376}, ...), or to the docker CLI's default when null.
     */
    public DockerEngine(Clock clock, String dockerHost) {
        this.clock = clock;
        DockerClient c = null;
        String ep = null;
        String err = null;
        try {
            DefaultDockerClientConfig.Builder builder = DefaultDockerClientConfig.createDefaultConfigBuilder();
            if (dockerHost != null) {
                builder.withDockerHost(dockerHost);
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
            err = "Docker configuration is not usable: " + e.getMessage();
            LOG.warn(err);
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
            return new EngineStatus(false, endpoint, null, configError, clock.instant());
        }
        try {
            client.pingCmd().exec();
            Version v = client.versionCmd().exec();
            return new EngineStatus(true, endpoint, v.getVersion(), null, clock.instant());
        } catch (RuntimeException e) {
            return new EngineStatus(false, endpoint, null, describe(e), clock.instant());
        }
    }

    /** The clock of this engine's statuses and samples. */
    Clock clock() {
        return clock;
    }

    /** The engine's address, or null when the docker configuration is not usable. */
    public String endpoint() {
        return endpoint;
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
