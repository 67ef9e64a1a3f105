package dev.paddock.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.sun.net.httpserver.HttpExchange;
import dev.paddock.common.Json;
import dev.paddock.status.RepositoryStatus;
import dev.paddock.status.StatusText;
import java.io.IOException;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;

/**
 * What the CLI prints for the API's answers, written once for both of its paths: the full CLI renders an answer
 * itself; the thin client ({@code dev.paddock.cli.thin}) asks the running Paddock for the rendered text with
 * {@code render=json} or {@code render=text} (and the CLI's {@code zone} and {@code locale}) on
 * {@code GET /v1/status} and {@code GET /v1/sandboxes}, and prints it as it comes. A rendered answer is
 * {@code text/plain; charset=utf-8} with the header {@value #HEADER}: {@value #VERSION}, so a client never takes an
 * older Paddock's JSON for it.
 */
public final class CliText {
    /** The header of a rendered answer. */
    public static final String HEADER = "Paddock-Render";
    /** Its value: the version of the rendering (change it when the CLI's output changes shape). */
    public static final String VERSION = "cli-1";

    private CliText() {}

    /** Indented JSON, as the CLI prints the API's answers with {@code --json}. */
    public static String indented(Object value) throws JsonProcessingException {
        return Json.mapper().writer().with(SerializationFeature.INDENT_OUTPUT).writeValueAsString(value);
    }

    /** The JSON text {@code json} indented as {@link #indented} does. */
    public static String reindented(String json) throws JsonProcessingException {
        return indented(Json.mapper().readTree(json));
    }

    /** What {@code paddock status --json} prints: the API's JSON, indented, and a line separator. */
    public static String statusJson(RepositoryStatus status) throws JsonProcessingException {
        return reindented(Json.mapper().writeValueAsString(status)) + System.lineSeparator();
    }

    /** What {@code paddock sandbox list --json} prints. */
    public static String sandboxesJson(List<SandboxView> list) throws JsonProcessingException {
        return indented(Map.of("sandboxes", list)) + "\n";
    }

    /**
     * What {@code paddock sandbox list} prints: one line per sandbox under a header, numbers in {@code locale}; a
     * sentence naming the repository asked about ({@code repo}, or none) when there is none, so that a list run
     * from another clone does not read as "they are gone".
     */
    public static String sandboxTable(List<SandboxView> list, Locale locale, Path repo) {
        if (list.isEmpty()) {
            return repo == null
                    ? "No open sandboxes.\n"
                    : "No open sandboxes in " + repo.toAbsolutePath().normalize() + ".\n";
        }
        int idWidth = 2;
        int tierWidth = 9;
        int branchWidth = 6;
        for (SandboxView s : list) {
            idWidth = Math.max(idWidth, s.id().length());
            tierWidth = Math.max(tierWidth, tier(s).length());
            branchWidth = Math.max(branchWidth, s.branch().length());
        }
        String fmt = "%-" + idWidth + "s  %-" + tierWidth + "s  %-14s  %-" + branchWidth + "s  %s%n";
        StringBuilder b = new StringBuilder(String.format(locale, fmt, "ID", "TIER", "STATE", "BRANCH", "PROGRESS"));
        for (SandboxView s : list) {
            String note = s.engineUnreachable()
                    ? "(the Docker engine" + (s.engine() == null || s.engine().equals("local") ? "" : " " + s.engine())
                            + " does not answer; last known " + s.state() + ")"
                    : s.progress() != null ? s.progress() : s.lastError() != null ? "(" + s.lastError() + ")" : "";
            String state = s.engineUnreachable() ? "unknown" : s.state();
            b.append(String.format(locale, fmt, s.id(), tier(s), state, s.branch(), note));
        }
        return b.toString();
    }

    /** The tier, with the engine of a sandbox on a registered one: {@code container@build}. */
    private static String tier(SandboxView s) {
        return s.engine() == null || s.engine().equals(dev.paddock.isolation.Engines.LOCAL)
                ? s.tier()
                : s.tier() + "@" + s.engine();
    }

    /**
     * The rendering a request asks for: {@code json}, {@code text}, or null for the API's own JSON.
     *
     * @throws ApiError 400 for any other value
     */
    static String asked(HttpExchange ex) throws ApiError {
        String render = HttpIo.query(ex, "render");
        if (render == null || render.equals("json") || render.equals("text")) {
            return render;
        }
        throw ApiError.badRequest("render must be json or text, not \"" + render + "\"");
    }

    /** The request's {@code locale} (a BCP 47 tag), else this process's. */
    static Locale locale(HttpExchange ex) {
        String tag = HttpIo.query(ex, "locale");
        // The inverse of the client's Locale.toLanguageTag(); lenient, like it.
        return tag == null ? Locale.getDefault(Locale.Category.FORMAT) : Locale.forLanguageTag(tag);
    }

    /**
     * The request's {@code zone}, the id of the client's {@code TimeZone.getDefault()}, as the client's
     * {@code ZoneId.systemDefault()} makes it ({@code TimeZone.toZoneId()}); else this process's.
     *
     * @throws ApiError 400 when it is not the id of a time zone
     */
    static ZoneId zone(HttpExchange ex) throws ApiError {
        String id = HttpIo.query(ex, "zone");
        if (id == null) {
            return ZoneId.systemDefault();
        }
        TimeZone zone = TimeZone.getTimeZone(id); // GMT for an id it does not know
        if (!zone.getID().equals(id)) {
            throw ApiError.badRequest("zone \"" + id + "\" is not the id of a time zone");
        }
        try {
            return zone.toZoneId();
        } catch (DateTimeException e) {
            throw ApiError.badRequest("zone \"" + id + "\" is not a time zone: " + e.getMessage());
        }
    }

    /** What {@code paddock status} prints, in the request's rendering. */
    static String status(HttpExchange ex, String render, RepositoryStatus status) throws ApiError, IOException {
        return render.equals("json") ? statusJson(status) : StatusText.render(status, zone(ex), locale(ex));
    }

    /** What {@code paddock sandbox list} prints, in the request's rendering. */
    static String sandboxes(HttpExchange ex, String render, List<SandboxView> list, Path repo)
            throws ApiError, IOException {
        return render.equals("json") ? sandboxesJson(list) : sandboxTable(list, locale(ex), repo);
    }

    /** Answers the rendered {@code text}. */
    static void answer(HttpExchange ex, String text) throws IOException {
        ex.getResponseHeaders().set(HEADER, VERSION);
        HttpIo.text(ex, 200, text);
    }
}
