package dev.paddock.policy;

import java.util.Set;

/**
 * The bash options ({@code set -o}, {@code shopt -s}, {@code bash -o/-O}) known to change nothing the analysis
 * relies on. Any other option turned on is asked: {@code expand_aliases} makes alias definitions run,
 * {@code allexport} and {@code keyword} put assignments into commands' environments, {@code history} with
 * {@code fc} re-runs text, {@code posix} and {@code extdebug} change how bash reads and runs commands. Turning
 * an option off ({@code set +o}, {@code shopt -u}) only takes a feature away and is harmless.
 */
final class ShellOptions {
    /** {@code set -o} names (and the letters below) that are harmless to turn on. */
    static final Set<String> HARMLESS_SET = Set.of(
            "errexit",
            "nounset",
            "pipefail",
            "xtrace",
            "verbose",
            "noglob",
            "noclobber",
            "noexec",
            "errtrace",
            "functrace",
            "hashall",
            "notify",
            "physical",
            "braceexpand",
            "ignoreeof",
            "onecmd",
            "privileged",
            "interactive-comments");
    /** {@code set} letters that are harmless to turn on: e u x v f C n E T h b P t B p. */
    static final String HARMLESS_SET_LETTERS = "euxvfCnETPhbtBp";
    /** {@code shopt} names that are harmless to turn on. */
    static final Set<String> HARMLESS_SHOPT = Set.of(
            "nullglob",
            "failglob",
            "dotglob",
            "globstar",
            "nocaseglob",
            "nocasematch",
            "extglob",
            "globasciiranges",
            "checkwinsize",
            "cmdhist",
            "lithist",
            "xpg_echo",
            "lastpipe",
            "inherit_errexit",
            "localvar_inherit",
            "localvar_unset",
            "assoc_expand_once",
            "patsub_replacement",
            "shift_verbose",
            "huponexit",
            "execfail",
            "gnu_errfmt",
            "checkhash",
            "checkjobs",
            "direxpand",
            "globskipdots",
            "noexpand_translation",
            "varredir_close",
            "mailwarn");

    private ShellOptions() {}

    /** Whether turning on the option {@code name} ({@code set -o} or {@code shopt -s} name) is harmless. */
    static boolean harmless(String name) {
        return HARMLESS_SET.contains(name) || HARMLESS_SHOPT.contains(name);
    }
}
