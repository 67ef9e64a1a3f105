package dev.paddock.merge.conflict;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognises changed lines that make a hunk a person's decision whatever its class ("two sides changed one
 * function in semantically different ways: never resolve automatically"): a
 * method or function signature, and a lock/release call. Heuristic, by regular expressions per language
 * family; it errs on the side of flagging (a false alarm costs a look, a miss can merge a broken contract).
 * A signature spread over several lines is caught by {@link #openSignature}: the changed lines sit inside the
 * parentheses a signature line above them opened.
 */
public final class RiskyLines {
    /** Words that start statements which look like "Type name(" but are not declarations. */
    private static final Set<String> NOT_A_TYPE = Set.of(
            "return",
            "new",
            "throw",
            "else",
            "case",
            "yield",
            "await",
            "goto",
            "delete",
            "sizeof",
            "typeof",
            "not",
            "and",
            "or",
            "in",
            "is",
            "assert",
            "print",
            "echo",
            "import",
            "package",
            "using",
            "raise",
            "del",
            "instanceof",
            "do",
            "if",
            "while",
            "for",
            "switch",
            "catch");

    private static final Set<String> NOT_A_NAME = Set.of(
            "if",
            "for",
            "while",
            "switch",
            "catch",
            "return",
            "sizeof",
            "synchronized",
            "foreach",
            "using",
            "lock",
            "with",
            "elif",
            "when",
            "typeof",
            "new");

    private static final List<Pattern> KEYWORD_DECLARATIONS = List.of(
            // Python: def name( / async def name(
            Pattern.compile("^(async\\s+)?def\\s+\\w+\\s*\\("),
            // Go: func name( / func (r *T) name(
            Pattern.compile("^func\\s+(\\([^)]*\\)\\s*)?\\w+\\s*[(\\[]"),
            // Rust: [pub[(crate)]] [async] [unsafe] [extern "C"] [const] fn name
            Pattern.compile(
                    "^(pub(\\([^)]*\\))?\\s+)?((async|unsafe|const|default)\\s+)*(extern\\s+\"[^\"]*\"\\s+)?fn\\s+\\w+"),
            // JavaScript / TypeScript: [export] [default] [async] function [*] [name](
            Pattern.compile("^(export\\s+)?(default\\s+)?(async\\s+)?function\\b\\s*\\*?\\s*\\w*\\s*[(<]"),
            // JS/TS arrow function bound to a name: const name = (a) => / const name = async x =>
            Pattern.compile(
                    "^(export\\s+)?(const|let|var)\\s+\\w+\\s*(:[^=]+)?=\\s*(async\\s+)?(\\([^)]*\\)|\\w+)\\s*(:[^=]+)?=>"),
            // Kotlin / Scala / Swift: [modifiers] fun|def|func name(
            Pattern.compile("^(\\w+\\s+)*(fun|func)\\s+(<[^>]*>\\s*)?([\\w.]+\\.)?`?\\w+`?\\s*[(<]"),
            // Ruby / Elixir / Perl: def name / sub name
            Pattern.compile("^(def|defp|sub)\\s+[\\w.?!]+"),
            // Java / C# / C / C++ / TS class members: [modifiers] [<T>] Type name(  (checked against keywords below)
            Pattern.compile("^(?:(?:public|private|protected|internal|static|final|abstract|synchronized|native"
                    + "|virtual|override|async|extern|inline|const|constexpr|default|sealed|open|suspend|unsafe"
                    + "|partial|readonly|strictfp|transient|volatile|export|declare|get|set)\\s+)*"
                    + "(?:<[^()]*>\\s+)?([\\w$.:]+(?:<[^()]*>)?(?:\\[\\])*[*&?]*)\\s+[*&]*(~?[\\w$]+)\\s*\\("),
            // Constructors and TS/JS methods after an access modifier: public Name( / private async load(
            Pattern.compile("^(?:(?:public|private|protected|internal|static|async|override)\\s+)+(~?[\\w$]+)\\s*[(<]"),
            // A bare declaration opening a body: Name(int x) {  /  pay(amount) {  /  load(id: string): Promise<X> {
            Pattern.compile("^(~?[\\w$]+)\\s*\\([^;]*\\)\\s*(:\\s*[^;{=]+)?(throws\\s+[\\w.,\\s]+)?\\{\\s*$"));
    /** Index of the "Type name(" pattern, whose type and name groups are checked against keywords. */
    private static final int TYPED = 7;

    private static final Pattern LOCK = Pattern.compile(
            "(?i)(\\b(lock|unlock|trylock|rlock|runlock|lockinterruptibly|acquire|release)\\s*\\(|monitor\\.(enter|exit)\\b"
                    + "|\\bsynchronized\\b|mutex|\\bwith\\s+[\\w.\\[\\]()]*lock\\w*\\b|\\block\\s*\\("
                    + "|lock_guard|unique_lock|scoped_lock|shared_lock|semaphore|@synchronized)");

    private RiskyLines() {}

    /** Why a line is risky, or empty when it is not: names the signature or the lock call it found. */
    public static Optional<String> reason(String line) {
        String t = line.strip();
        if (t.isEmpty() || t.startsWith("//") || t.startsWith("*") || t.startsWith("/*")) {
            return Optional.empty();
        }
        if (LOCK.matcher(t).find()) {
            return Optional.of("it touches a lock/release pair (`" + shorten(t) + "`)");
        }
        if (isSignature(t)) {
            return Optional.of("it touches a method signature (`" + shorten(t) + "`)");
        }
        return Optional.empty();
    }

    /** Whether a stripped line looks like a method, function or constructor declaration in a common language. */
    static boolean isSignature(String t) {
        for (int i = 0; i < KEYWORD_DECLARATIONS.size(); i++) {
            Matcher m = KEYWORD_DECLARATIONS.get(i).matcher(t);
            if (!m.find()) {
                continue;
            }
            if (i == TYPED) {
                String type = m.group(1);
                String name = m.group(2);
                String firstWord = t.split("[\\s(<]", 2)[0];
                if (NOT_A_TYPE.contains(type) || NOT_A_TYPE.contains(firstWord) || NOT_A_NAME.contains(name)) {
                    continue;
                }
            } else if (i > TYPED && NOT_A_NAME.contains(m.group(1))) {
                continue;
            }
            return true;
        }
        return false;
    }

    /**
     * Whether the lines just above a hunk leave a signature's parameter list open (so the hunk edits
     * parameters): scanning up from the last line, the first line with an unclosed {@code (} is a signature.
     * Stops at a statement boundary (a line ending with {@code ;}, <code>{</code> or <code>}</code>).
     *
     * @param above the lines above the hunk, nearest last (a few are enough)
     * @return why the hunk is risky, or empty
     */
    public static Optional<String> openSignature(List<String> above) {
        int balance = 0;
        for (int i = above.size() - 1; i >= 0; i--) {
            String t = above.get(i).strip();
            if (t.endsWith(";") || t.endsWith("{") || t.endsWith("}")) {
                return Optional.empty();
            }
            for (int c = t.length() - 1; c >= 0; c--) {
                char ch = t.charAt(c);
                if (ch == ')') {
                    balance++;
                } else if (ch == '(' && --balance < 0) {
                    return isSignature(t)
                            ? Optional.of("it changes the parameters of a method signature (`" + shorten(t) + "`)")
                            : Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    private static String shorten(String t) {
        return t.length() <= 80 ? t : t.substring(0, 77) + "...";
    }
}
