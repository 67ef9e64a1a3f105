package dev.paddock.policy;

import java.net.URI;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The specifier of a {@code WebFetch(domain:HOST)} rule (https://code.claude.com/docs/en/permissions,
 * "WebFetch"): matches URLs whose host is {@code HOST} (case-insensitive). Paddock also accepts
 * {@code domain:*.example.com} for every subdomain of example.com (not example.com itself).
 */
final class DomainPattern {
    private static final Pattern HOST_NAME =
            Pattern.compile("[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*");
    private static final Pattern TRAILING_DOT = Pattern.compile("\\.$");
    private final String host;
    private final boolean subdomains;

    private DomainPattern(String host, boolean subdomains) {
        this.host = host;
        this.subdomains = subdomains;
    }

    static DomainPattern parse(String spec) throws RuleSyntaxException {
        String s = spec.strip();
        if (!s.startsWith("domain:")) {
            throw new RuleSyntaxException("a WebFetch rule takes domain:HOST, e.g. WebFetch(domain:example.com)");
        }
        String h = s.substring("domain:".length()).strip().toLowerCase(Locale.ROOT);
        boolean sub = h.startsWith("*.");
        String bare = sub ? h.substring(2) : h;
        if (!HOST_NAME.matcher(bare).matches()) {
            throw new RuleSyntaxException("`" + h + "` is not a host name (write it without scheme, port or path,"
                    + " e.g. domain:docs.example.com)");
        }
        return new DomainPattern(bare, sub);
    }

    /** Whether {@code url} is on this domain; a URL that does not parse or has no host does not match. */
    boolean matches(String url) {
        return matchesHost(host(url));
    }

    /** Whether a URL whose {@link #host(String)} is {@code h} (null: none) is on this domain. */
    boolean matchesHost(String h) {
        if (h == null) {
            return false;
        }
        return subdomains
                ? h.length() > host.length() && h.endsWith(host) && h.charAt(h.length() - host.length() - 1) == '.'
                : h.equals(host);
    }

    /** The lower-case host of {@code url}, or null. */
    static String host(String url) {
        try {
            String h = URI.create(url.strip()).getHost();
            return h == null
                    ? null
                    : TRAILING_DOT.matcher(h.toLowerCase(Locale.ROOT)).replaceFirst("");
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
