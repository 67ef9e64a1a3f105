package dev.paddock.policy;

import dev.paddock.policy.PathAccess.Kind;
import dev.paddock.policy.PathAccess.Scope;
import dev.paddock.policy.shell.Word;

/** What the models of programs' arguments ({@link PathArguments}, {@link GitArguments}) report to the analysis. */
interface ArgumentEffects {
    /** Something that keeps the command from being allowed automatically. */
    void problem(String problem);

    /** A file the program reads or writes, named by {@code path} (resolved against its directory). */
    void path(Kind kind, Scope scope, Word path);
}
