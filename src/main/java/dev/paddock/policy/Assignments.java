package dev.paddock.policy;

import dev.paddock.policy.LoadingOptions.EnvEffect;
import dev.paddock.policy.LoadingOptions.Variable;
import dev.paddock.policy.PathAccess.Kind;
import dev.paddock.policy.PathAccess.Scope;
import dev.paddock.policy.shell.Arithmetic;
import dev.paddock.policy.shell.Snippet;
import dev.paddock.policy.shell.Word;
import java.util.regex.Pattern;

/**
 * The environment rule of {@link LoadingOptions} applied to one assignment: {@code VAR=x cmd},
 * {@code env VAR=x}, {@code export VAR=x} and {@code declare -x} reach a program's environment and are allowed
 * only for harmless variables with plain values; a plain {@code VAR=x} in the script is asked for listed and
 * upper-case names, and for harmless ones without a plain value (the variable may be exported already). Every
 * other way a variable is set or removed is judged the same way as a plain assignment whose value is only known
 * at run time: a loop variable ({@code for}, {@code select}), {@code read}, {@code printf -v}, {@code mapfile},
 * {@code getopts}, {@code wait -p}, {@code declare} and its kin without a value, {@code unset}, {@code coproc NAME},
 * a descriptor variable ({@code {NAME}>file}) and the default assignments <code>${NAME=x}</code> and
 * <code>${NAME:=x}</code>. A variable naming a file a program writes is also an Edit of that file.
 */
final class Assignments {
    private static final Pattern NO_FILE = Pattern.compile("(?i)|[0-9]|true|false|yes|no|on|off");
    /** A socket prefix before the file of a variable that names one ({@code af_unix:stream:/tmp/s}). */
    private static final Pattern AF_UNIX = Pattern.compile("^af_unix:((stream|dgram):)?");

    private static final String HARMLESS = "only the locale (LANG, LC_*), TZ, terminal (TERM, COLUMNS, LINES), colour"
            + " (NO_COLOR, FORCE_COLOR...) and CI variables are known harmless";

    private Assignments() {}

    /** The variable {@code w} assigns ({@code NAME=value}, {@code NAME+=value}, {@code NAME[i]=value}). */
    static String name(Word w) {
        String v = w.value();
        int end = 0;
        while (end < v.length() && (Character.isLetterOrDigit(v.charAt(end)) || v.charAt(end) == '_')) {
            end++;
        }
        return v.substring(0, end);
    }

    /**
     * Checks assignment {@code w} of variable {@code name}.
     *
     * @param exported whether it reaches a program's environment (a command prefix, {@code env}, {@code export})
     */
    static void check(Word w, String name, boolean exported, ArgumentEffects fx) {
        String raw = w.raw();
        if (raw.startsWith(name + "[")) {
            int end = raw.indexOf("]=") > 0 ? raw.indexOf("]=") : raw.indexOf("]+=");
            String sub = end > 0 ? raw.substring(name.length() + 1, end) : "";
            if (!Arithmetic.isLiteralInteger(sub) && !sub.isEmpty()) {
                java.util.List<String> problems = new java.util.ArrayList<>();
                Arithmetic.check(sub, Snippet.of(raw), new java.util.ArrayList<>(), problems, 0);
                problems.forEach(fx::problem); // an indexed array's subscript is arithmetic
            }
        }
        Variable v = LoadingCheck.variable(name);
        String value = valueOf(w);
        if (exported) {
            if (v != null && v.effect() == EnvEffect.HARMLESS) {
                if (value == null || !v.value().matcher(value).matches()) {
                    fx.problem("`" + Snippet.of(w.raw()) + "`: " + name + " is harmless only with a plain value ("
                            + v.reason() + ")");
                }
            } else {
                fx.problem("`" + Snippet.of(w.raw()) + "` puts " + name + " into a program's environment: "
                        + (v != null ? v.reason() : HARMLESS));
            }
        } else if (v != null && v.effect() != EnvEffect.HARMLESS) {
            fx.problem("`" + Snippet.of(w.raw()) + "` changes " + name + ", which the commands after it get when it"
                    + " is exported (as it usually is): " + v.reason());
        } else if (v != null && (value == null || !v.value().matcher(value).matches())) {
            fx.problem("`" + Snippet.of(w.raw()) + "` changes " + name + ", which the commands after it get when it"
                    + " is exported (as it often is), and it is harmless only with a plain value (" + v.reason() + ")");
        } else if (v == null && upperCase(name)) {
            fx.problem("`" + Snippet.of(w.raw()) + "` changes " + name + ", a name written as environment variables"
                    + " are (the commands after it get it when it is exported): " + HARMLESS);
        }
        if (v != null && v.effect() == EnvEffect.WRITES_FILE) {
            writesFile(w, value, fx);
        }
    }

    /** The value of a static assignment, or null when it is only known at run time. */
    private static String valueOf(Word w) {
        int eq = w.value().indexOf('=');
        return w.isStatic() && eq >= 0 ? w.value().substring(eq + 1) : null;
    }

    private static void writesFile(Word w, String value, ArgumentEffects fx) {
        int eq = w.value().indexOf('=');
        if (value == null) {
            fx.path(Kind.WRITE, Scope.UNKNOWN, LoadingCheck.part(w, w.value().substring(eq + 1)));
            return;
        }
        String file = AF_UNIX.matcher(value).replaceFirst("");
        if (!NO_FILE.matcher(file).matches()) {
            fx.path(Kind.WRITE, Scope.FILE, Word.of(file));
        }
    }

    /** Whether {@code name} has letters and none in lower case ({@code HOME}, {@code GIT_DIR}, {@code X1}). */
    static boolean upperCase(String name) {
        boolean letter = false;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isLowerCase(c)) {
                return false;
            }
            letter |= Character.isLetter(c);
        }
        return letter;
    }
}
