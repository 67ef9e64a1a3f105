package dev.paddock.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The TLS files of one private engine, made with {@code openssl} for it alone: a CA, a server certificate for the
 * engine's address (its subjectAltName the IP) signed by it, and a client certificate ({@code clientAuth}) signed
 * by it. The client's files are laid out as a docker context or {@code DOCKER_CERT_PATH} holds them.
 */
final class TestCertificates {
    private TestCertificates() {}

    /** The client's folder: {@code ca.pem}, {@code cert.pem}, {@code key.pem}. */
    static Path clientDir(Path dir) {
        return dir.resolve("tls");
    }

    private static Path serverDir(Path dir) {
        return dir.resolve("tls-server");
    }

    /** Writes the CA, the server's files for {@code ip} and the client's files under {@code dir}. */
    static void write(Path dir, String ip) throws IOException {
        Path server = Files.createDirectories(serverDir(dir));
        Path client = Files.createDirectories(clientDir(dir));
        Path ca = server.resolve("ca.pem");
        Path caKey = server.resolve("ca-key.pem");
        openssl(
                dir,
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-days",
                "2",
                "-subj",
                "/CN=paddock-test-ca",
                "-keyout",
                caKey.toString(),
                "-out",
                ca.toString());
        sign(
                dir,
                server,
                "server",
                "/CN=" + ip,
                "subjectAltName=IP:" + ip + "\nextendedKeyUsage=serverAuth\n",
                ca,
                caKey);
        sign(dir, client, "client", "/CN=paddock-test-client", "extendedKeyUsage=clientAuth\n", ca, caKey);
        Files.move(client.resolve("client-cert.pem"), client.resolve("cert.pem"));
        Files.move(client.resolve("client-key.pem"), client.resolve("key.pem"));
        Files.copy(ca, client.resolve("ca.pem"));
    }

    /** The options that make dockerd require client certificates signed by this CA. */
    static List<String> serverOptions(Path dir) {
        Path server = serverDir(dir);
        return List.of(
                "--tlsverify",
                "--tlscacert",
                server.resolve("ca.pem").toString(),
                "--tlscert",
                server.resolve("server-cert.pem").toString(),
                "--tlskey",
                server.resolve("server-key.pem").toString());
    }

    private static void sign(Path dir, Path into, String name, String subject, String ext, Path ca, Path caKey)
            throws IOException {
        Path key = into.resolve(name + "-key.pem");
        Path csr = into.resolve(name + ".csr");
        Path extFile = into.resolve(name + ".ext");
        Files.writeString(extFile, ext);
        openssl(
                dir,
                "req",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-subj",
                subject,
                "-keyout",
                key.toString(),
                "-out",
                csr.toString());
        openssl(
                dir,
                "x509",
                "-req",
                "-in",
                csr.toString(),
                "-CA",
                ca.toString(),
                "-CAkey",
                caKey.toString(),
                "-CAcreateserial",
                "-days",
                "2",
                "-extfile",
                extFile.toString(),
                "-out",
                into.resolve(name + "-cert.pem").toString());
        Files.delete(csr);
        Files.delete(extFile);
    }

    private static void openssl(Path dir, String... args) throws IOException {
        List<String> cmd = new java.util.ArrayList<>(List.of("openssl"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException("openssl " + args[0] + " failed: " + out.strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: openssl", e);
        }
    }
}
