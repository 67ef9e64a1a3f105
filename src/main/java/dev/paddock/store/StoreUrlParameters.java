package dev.paddock.store;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Which of the PostgreSQL driver's parameters a store URL may carry. The driver takes parameters that load a class
 * by name ({@code socketFactory}, {@code sslfactory}, {@code sslhostnameverifier}, {@code sslpasswordcallback},
 * {@code authenticationPluginClassName}) or write a file ({@code loggerFile}): a URL that reaches Paddock through
 * an environment variable must not make it run a class or write where it names. So an allow-list, not a deny-list:
 * the connection, its credentials, TLS and timeouts; anything else is refused with the list.
 */
final class StoreUrlParameters {
    /** Lower case; the driver's own spelling differs in case only. */
    static final Set<String> ALLOWED = Set.of(
            "user",
            "password",
            "passfile",
            "ssl",
            "sslmode",
            "sslcert",
            "sslkey",
            "sslrootcert",
            "sslpassword",
            "sslnegotiation",
            "channelbinding",
            "gssencmode",
            "connecttimeout",
            "sockettimeout",
            "logintimeout",
            "cancelsignaltimeout",
            "tcpkeepalive",
            "tcpnodelay",
            "applicationname",
            "currentschema",
            "options",
            "targetservertype",
            "loadbalancehosts",
            "hostrecheckseconds");

    private StoreUrlParameters() {}

    /**
     * Why {@code url}'s parameters are not taken, or empty when they are. Names only the parameter, never its value.
     */
    static Optional<String> problem(String url) {
        int q = url.indexOf('?');
        if (q < 0) {
            return Optional.empty();
        }
        for (String pair : url.substring(q + 1).split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = (eq < 0 ? pair : pair.substring(0, eq)).strip();
            if (!ALLOWED.contains(name.toLowerCase(Locale.ROOT))) {
                String shown = name.length() > 40 || !name.matches("[A-Za-z0-9_.-]*") ? "(a parameter)" : name;
                return Optional.of("The store URL parameter " + shown + " is not taken: Paddock passes the driver"
                        + " only the connection's own parameters (user, password, passfile, ssl…, *Timeout,"
                        + " tcpKeepAlive, ApplicationName, currentSchema, options, targetServerType), none that"
                        + " loads a class or writes a file.");
            }
        }
        return Optional.empty();
    }

    /** Whether {@code url} carries a password parameter (shown in the process list when given as an option). */
    static boolean hasPassword(String url) {
        int q = url.indexOf('?');
        if (q < 0) {
            return false;
        }
        for (String pair : url.substring(q + 1).split("&")) {
            int eq = pair.indexOf('=');
            String name = (eq < 0 ? pair : pair.substring(0, eq)).strip().toLowerCase(Locale.ROOT);
            if (name.equals("password") || name.equals("sslpassword")) {
                return true;
            }
        }
        return false;
    }
}
