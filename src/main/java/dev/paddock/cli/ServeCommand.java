package dev.paddock.cli;

import dev.paddock.Host;
import dev.paddock.common.PaddockException;
import dev.paddock.repo.RepoRecord;
import dev.paddock.settings.PaddockHome;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock serve}: runs Paddock without a window (watchers and the loopback API) until it is
 * stopped with Ctrl+C or SIGTERM. For scripts, CI and servers.
 */
@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        description = "Run Paddock headless (no window): watch repositories and serve the local API.")
public final class ServeCommand implements Callable<Integer> {
    @ParentCommand
    PaddockCommand root;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--repo",
            paramLabel = "PATH",
            description = "Repository to watch (repeatable; default: every registered repository).")
    List<Path> repos = new ArrayList<>();

    @Override
    public Integer call() throws PaddockException, InterruptedException {
        PaddockHome home = root.resolveHome();
        Host host = Host.start(home, "serve");
        CountDownLatch stopped = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean storeLost = new java.util.concurrent.atomic.AtomicBoolean();
        host.whenStoreLost(() -> {
            storeLost.set(true);
            stopped.countDown();
        });
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            host.close();
                            stopped.countDown();
                        },
                        "shutdown"));
        List<Path> toWatch = new ArrayList<>(repos);
        if (toWatch.isEmpty()) {
            for (RepoRecord r : host.wiring().workspace().recent()) {
                toWatch.add(r.path());
            }
        }
        var err = spec.commandLine().getErr();
        for (Path p : toWatch) {
            try {
                host.wiring().workspace().open(p.toAbsolutePath().normalize());
            } catch (PaddockException e) {
                err.println("paddock: not watching " + p + ": " + e.getMessage());
            }
        }
        var out = spec.commandLine().getOut();
        out.println("Paddock serving on 127.0.0.1:" + host.apiPort() + " (home " + home
                + (home.store() != null ? ", store " + host.wiring().database().name() : "") + ", " + toWatch.size()
                + (toWatch.size() == 1 ? " repository" : " repositories") + "). Stop with Ctrl+C.");
        out.flush();
        err.flush();
        stopped.await();
        if (storeLost.get()) {
            err.println("paddock: this Paddock lost the store's coordinator lease (another Paddock holds it, or the"
                    + " server did not answer for a whole lease); it stopped (see the log).");
            err.flush();
            return 1;
        }
        return 0;
    }
}
