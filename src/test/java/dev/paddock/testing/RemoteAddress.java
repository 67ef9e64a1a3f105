package dev.paddock.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A named network namespace joined to the host by a veth pair on a /30 of its own, {@code 10.231.N.0/30}: the
 * host side is {@code .1}, the namespace side {@code .2}. What a {@link PrivateDockerd#startTls()} engine listens in,
 * so that it is reached only at that address, as a remote machine would be.
 *
 * @param namespace the namespace's name ({@code ip netns})
 * @param hostLink the host side's interface
 * @param subnet N of {@code 10.231.N.0/30}
 */
record RemoteAddress(String namespace, String hostLink, int subnet) {

    /** Makes a namespace named after {@code dir}'s last part, on a free subnet (tried up to 20 times). */
    static RemoteAddress create(Path dir) throws IOException {
        String ns = dir.getFileName().toString();
        ip("netns", "add", ns);
        IOException last = null;
        for (int attempt = 0; attempt < 20; attempt++) {
            int n = ThreadLocalRandom.current().nextInt(1, 255);
            String hostLink = "pdkh" + n;
            String nsLink = "pdkn" + n;
            try {
                ip("link", "add", hostLink, "type", "veth", "peer", "name", nsLink); // fails when N is taken
            } catch (IOException e) {
                last = e;
                continue;
            }
            RemoteAddress a = new RemoteAddress(ns, hostLink, n);
            try {
                ip("link", "set", nsLink, "netns", ns);
                ip("addr", "add", a.hostIp() + "/30", "dev", hostLink);
                ip("link", "set", hostLink, "up");
                ip("netns", "exec", ns, "ip", "addr", "add", a.engineIp() + "/30", "dev", nsLink);
                ip("netns", "exec", ns, "ip", "link", "set", nsLink, "up");
                ip("netns", "exec", ns, "ip", "link", "set", "lo", "up");
                return a;
            } catch (IOException e) {
                a.delete();
                throw e;
            }
        }
        ip("netns", "del", ns);
        throw new IOException("no free 10.231.N.0/30 for a private engine after 20 tries: " + last.getMessage(), last);
    }

    /** The host's address on the pair. */
    String hostIp() {
        return "10.231." + subnet + ".1";
    }

    /** The engine's address: the namespace's side of the pair. */
    String engineIp() {
        return "10.231." + subnet + ".2";
    }

    /** The namespace's file, for {@code nsenter --net=}. */
    String namespacePath() {
        return "/var/run/netns/" + namespace;
    }

    /** Removes the pair and the namespace; what is gone already is fine. */
    void delete() {
        for (List<String> args : List.of(List.of("link", "del", hostLink), List.of("netns", "del", namespace))) {
            try {
                ip(args.toArray(String[]::new));
            } catch (IOException e) {
                // gone already (a veth pair goes with its namespace)
            }
        }
    }

    private static void ip(String... args) throws IOException {
        List<String> cmd = new java.util.ArrayList<>(List.of("ip"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " failed: " + out.strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", cmd), e);
        }
    }
}
