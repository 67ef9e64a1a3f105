package dev.paddock.container;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.ExecCreateCmdResponse;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A process started in a running container ({@code docker exec}) whose standard input and output Paddock holds,
 * over the engine's own connection (the hijacked HTTP stream: a local socket or TCP with TLS alike). What it writes
 * to standard error is logged. Closing this ends its standard input and drops the stream.
 */
public final class ExecPipe implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ExecPipe.class);
    private static final int CHUNKS = 64;

    private final BytePipe in = new BytePipe(CHUNKS);
    private final BytePipe out = new BytePipe(CHUNKS);
    private final String execId;
    private volatile Closeable stream;

    private ExecPipe(String execId) {
        this.execId = execId;
    }

    /**
     * Starts {@code command} in the container as {@code user} (a name or {@code uid[:gid]}; null: the image's).
     *
     * @throws ContainerException when the engine does not answer or refuses (no such container, not running)
     */
    public static ExecPipe start(DockerEngine engine, String containerId, List<String> command, String user)
            throws ContainerException {
        DockerClient c = engine.streamingClient();
        ExecCreateCmdResponse created;
        try {
            var cmd = c.execCreateCmd(containerId)
                    .withCmd(command.toArray(String[]::new))
                    .withAttachStdin(true)
                    .withAttachStdout(true)
                    .withAttachStderr(true)
                    .withTty(false);
            if (user != null) {
                cmd.withUser(user);
            }
            created = cmd.exec();
        } catch (RuntimeException e) {
            throw new ContainerException(
                    "Cannot start " + command.get(0) + " in the container " + shortId(containerId) + " on "
                            + engine.endpoint() + ": " + DockerEngine.describe(e),
                    e);
        }
        ExecPipe p = new ExecPipe(created.getId());
        OutputStream toReader = p.out.sink();
        try {
            c.execStartCmd(created.getId()).withStdIn(p.in.source()).exec(new ResultCallback.Adapter<Frame>() {
                @Override
                public void onStart(Closeable s) {
                    p.stream = s;
                }

                @Override
                public void onNext(Frame f) {
                    if (f.getStreamType() == StreamType.STDERR) {
                        LOG.info(
                                "{}: {}",
                                command.get(0),
                                new String(f.getPayload(), java.nio.charset.StandardCharsets.UTF_8).strip());
                        return;
                    }
                    try {
                        toReader.write(f.getPayload());
                    } catch (IOException e) {
                        p.close();
                    }
                }

                @Override
                public void onError(Throwable t) {
                    LOG.debug("The exec stream of {} ended: {}", command.get(0), t.toString());
                    p.out.end();
                }

                @Override
                public void onComplete() {
                    p.out.end();
                }
            });
        } catch (RuntimeException e) {
            throw new ContainerException(
                    "Cannot attach to " + command.get(0) + " in " + shortId(containerId) + ": "
                            + DockerEngine.describe(e),
                    e);
        }
        return p;
    }

    /** What the process writes to its standard output; ends when it exits or the stream drops. */
    public InputStream stdout() {
        return out.source();
    }

    /** The process's standard input; closing it ends that input. */
    public OutputStream stdin() {
        return in.sink();
    }

    /** The engine's id of this exec. */
    public String execId() {
        return execId;
    }

    private static String shortId(String id) {
        return id.length() > 12 ? id.substring(0, 12) : id;
    }

    @Override
    public void close() {
        in.end();
        out.end();
        Closeable s = stream;
        if (s != null) {
            try {
                s.close();
            } catch (IOException e) {
                LOG.debug("Closing an exec stream: {}", e.toString());
            }
        }
    }
}
