package dev.paddock.cli.thin;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URLEncoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TimeZone;

/**
 * The thin client: answers the few read-only commands a running Paddock can answer ({@code status [--json]},
 * {@code sandbox list [--json]}, {@code --version}) with the JDK alone, before picocli, Jackson, logging or any
 * other library is loaded, so such a call costs little more than the JVM's start. The running Paddock renders the
 * text ({@code render=} on its API, see {@code dev.paddock.api.CliText}), the same code the full CLI renders with,
 * and this prints it as it comes: the output is the full CLI's, byte for byte.
 *
 * <p>It answers only when everything is as expected: a command line it knows ({@link ThinArgs}), a live Paddock for
 * the home found as the full CLI finds it ({@link LiveApi}), and a {@code 200} rendered answer over loopback
 * ({@link LoopbackGet}) with the same install token. Anything else (no Paddock running, an error, a refusal, an
 * older Paddock that does not render, {@code PADDOCK_THIN_CLI=off}) returns {@link #NOT_ANSWERED} and the full CLI
 * runs as it always did, which then reports on the problem. Written without lambdas or {@code +} on strings (see
 * {@link LiveApi}).
 */
public final class ThinCli {
    /** What {@link #answer} returns when the full CLI must run. */
    public static final int NOT_ANSWERED = -1;
    /** Environment variable: {@code off} turns the thin client off. */
    public static final String ENV = "PADDOCK_THIN_CLI";
    /** The header and value a rendered answer carries ({@code dev.paddock.api.CliText}). */
    static final String RENDER_HEADER = "Paddock-Render";

    static final String RENDER_VERSION = "cli-1";

    private ThinCli() {}

    /**
     * Answers {@code args} on {@code out} (stdout) when the thin client can.
     *
     * @return the exit code (0), or {@link #NOT_ANSWERED} when nothing was printed and the full CLI must run
     */
    public static int answer(String[] args, Map<String, String> env, PrintStream out) {
        if ("off".equals(env.get(ENV))) {
            return NOT_ANSWERED;
        }
        ThinArgs a = ThinArgs.parse(args);
        if (a == null) {
            return NOT_ANSWERED;
        }
        try {
            String text = a.what() == ThinArgs.What.VERSION ? version() : fromRunningPaddock(a, env);
            if (text == null) {
                return NOT_ANSWERED;
            }
            // As picocli's stdout writer encodes (CommandLine.getOut): sun.stdout.encoding, else the default.
            out.write(text.getBytes(stdoutCharset()));
            out.flush();
            return 0;
        } catch (IOException | RuntimeException e) {
            return NOT_ANSWERED;
        }
    }

    /** The rendered answer of the running Paddock, or null when there is none to be had. */
    private static String fromRunningPaddock(ThinArgs a, Map<String, String> env) throws IOException {
        Optional<LiveApi> api = LiveApi.find(a.home(), env);
        if (api.isEmpty()) {
            return null;
        }
        Path repo = (a.repo() == null ? Path.of("") : a.repo()).toAbsolutePath().normalize();
        StringBuilder q = new StringBuilder(a.what() == ThinArgs.What.STATUS ? "/v1/status" : "/v1/sandboxes")
                .append("?repo=")
                .append(URLEncoder.encode(repo.toString(), StandardCharsets.UTF_8));
        if (a.json()) {
            q.append("&render=json");
        } else {
            q.append("&render=text&locale=")
                    .append(URLEncoder.encode(
                            Locale.getDefault(Locale.Category.FORMAT).toLanguageTag(), StandardCharsets.UTF_8));
            if (a.what() == ThinArgs.What.STATUS) {
                // The id of ZoneId.systemDefault() (TimeZone.getDefault().toZoneId()), without the zone rules that
                // ZoneId loads: about half of the client's own time for a status.
                q.append("&zone=")
                        .append(URLEncoder.encode(TimeZone.getDefault().getID(), StandardCharsets.UTF_8));
            }
        }
        byte[] body = LoopbackGet.get(api.get(), q.toString(), RENDER_HEADER, RENDER_VERSION);
        return body == null ? null : new String(body, StandardCharsets.UTF_8);
    }

    /**
     * What {@code paddock --version} prints ({@code dev.paddock.cli.VersionProvider} through picocli, which formats
     * each line and reads {@code @|...|@} as markup): null when a line holds either, so picocli prints it.
     */
    private static String version() {
        String v = ThinCli.class.getPackage().getImplementationVersion();
        String[] lines = {
            new StringBuilder("Paddock ").append(v == null ? "development" : v).toString(),
            new StringBuilder("Java ")
                    .append(System.getProperty("java.version"))
                    .append(" (")
                    .append(System.getProperty("java.vendor"))
                    .append(')')
                    .toString()
        };
        StringBuilder b = new StringBuilder();
        for (String line : lines) {
            if (line.indexOf('%') >= 0 || line.contains("@|")) {
                return null;
            }
            b.append(line).append(System.lineSeparator());
        }
        return b.toString();
    }

    private static Charset stdoutCharset() {
        String name = System.getProperty("sun.stdout.encoding");
        if (name == null) {
            return Charset.defaultCharset();
        }
        try {
            return Charset.forName("cp65001".equalsIgnoreCase(name) ? "UTF-8" : name);
        } catch (RuntimeException e) {
            return Charset.defaultCharset();
        }
    }
}
