package dev.paddock.policy;

import dev.paddock.policy.PathAccess.Kind;
import dev.paddock.policy.PathAccess.Scope;
import dev.paddock.policy.shell.Word;
import java.util.List;
import java.util.Set;

/**
 * The files {@code curl} and {@code wget} write (their output, logs, cookie jars, traces; without an output
 * name, a file named after the URL in the current or {@code -P} directory) and the files they send
 * ({@code curl -T f}, {@code -d @f}, {@code -F x=@f}, {@code wget --post-file f}).
 */
final class Downloads {
    private static final Set<String> CURL_VALUES = Set.of(
            "--output",
            "--upload-file",
            "--data",
            "--data-binary",
            "--data-raw",
            "--data-ascii",
            "--data-urlencode",
            "--json",
            "--form",
            "--cookie",
            "--cookie-jar",
            "--dump-header",
            "--trace",
            "--trace-ascii",
            "--stderr",
            "--libcurl",
            "--config",
            "--netrc-file",
            "--output-dir",
            "--user",
            "--header",
            "--request",
            "--url",
            "--write-out",
            "--cacert",
            "--cert",
            "--key",
            "--proxy",
            "--user-agent",
            "--referer",
            "--max-time",
            "--connect-timeout",
            "--retry",
            "--range",
            "--resolve",
            "--connect-to",
            "--interface");
    private static final Set<String> WGET_VALUES = Set.of(
            "--output-document",
            "--output-file",
            "--append-output",
            "--directory-prefix",
            "--input-file",
            "--post-file",
            "--body-file",
            "--load-cookies",
            "--save-cookies",
            "--execute",
            "--config",
            "--user",
            "--password",
            "--header",
            "--method",
            "--tries",
            "--timeout",
            "--wait",
            "--level",
            "--accept",
            "--reject",
            "--user-agent",
            "--referer");

    private Downloads() {}

    static void curl(List<Word> args, ArgumentEffects fx) {
        Argv a = Argv.parse(args, "AbcCdDeEFHKmoOQrTuUwXxYyz", CURL_VALUES);
        a.values(
                        "-o",
                        "--output",
                        "-c",
                        "--cookie-jar",
                        "-D",
                        "--dump-header",
                        "--trace",
                        "--trace-ascii",
                        "--stderr",
                        "--libcurl")
                .forEach(w -> fx.path(Kind.WRITE, Scope.FILE, w));
        a.values("-T", "--upload-file", "-K", "--config", "--netrc-file")
                .forEach(w -> fx.path(Kind.READ, Scope.FILE, w));
        for (Word w : a.values(
                "-d",
                "--data",
                "--data-binary",
                "--data-ascii",
                "--data-urlencode",
                "--json",
                "-F",
                "--form",
                "-b",
                "--cookie")) {
            String v = w.value();
            int at = v.indexOf('@');
            int lt = v.indexOf('<');
            int i = at >= 0 ? at : lt;
            if (i >= 0 && (i == 0 || v.charAt(i - 1) == '=')) {
                fx.path(Kind.READ, Scope.FILE, LoadingCheck.part(w, v.substring(i + 1)));
            }
        }
        if (a.has("-O", "--remote-name", "-J", "--remote-name-all")) {
            Word dir = a.value("--output-dir");
            fx.path(Kind.WRITE, Scope.PATTERN, glob(dir == null ? "" : dir.value() + "/"));
        }
    }

    static void wget(List<Word> args, ArgumentEffects fx) {
        Argv a = Argv.parse(args, "eoaOPTtwQiBUYlAR", WGET_VALUES);
        Word document = a.value("-O", "--output-document");
        a.values("-O", "--output-document", "-o", "--output-file", "-a", "--append-output", "--save-cookies")
                .forEach(w -> fx.path(Kind.WRITE, Scope.FILE, w));
        a.values("-i", "--input-file", "--post-file", "--body-file", "--load-cookies", "--config")
                .forEach(w -> fx.path(Kind.READ, Scope.FILE, w));
        if (document == null) {
            Word dir = a.value("-P", "--directory-prefix");
            if (a.has("-r", "--recursive", "-m", "--mirror")) {
                fx.path(Kind.WRITE, Scope.TREE, dir != null ? dir : Word.of("."));
            } else {
                fx.path(Kind.WRITE, Scope.PATTERN, glob(dir != null && dir.isStatic() ? dir.value() + "/" : ""));
            }
        }
    }

    private static Word glob(String dir) {
        return new Word(dir + "*", dir + "*", false, false, true, false, List.of(), false, false);
    }
}
