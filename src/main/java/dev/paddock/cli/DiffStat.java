package dev.paddock.cli;

import dev.paddock.diff.FileChange;
import dev.paddock.diff.SandboxDiff;
import java.util.ArrayList;
import java.util.List;

/** What {@code paddock sandbox diff --stat} prints: one line a file and a total, as {@code git diff --stat}. */
final class DiffStat {
    private DiffStat() {}

    /** The summary, its lines at most about {@code width} characters wide. */
    static String render(SandboxDiff d, int width) {
        List<String> names = new ArrayList<>();
        int nameWidth = 0;
        int countWidth = 1;
        int most = 0;
        for (FileChange f : d.files()) {
            String name = name(f);
            names.add(name);
            nameWidth = Math.max(nameWidth, name.length());
            countWidth =
                    Math.max(countWidth, String.valueOf(f.added() + f.deleted()).length());
            most = Math.max(most, f.added() + f.deleted());
        }
        nameWidth = Math.min(nameWidth, Math.max(20, width / 2));
        int barWidth = Math.max(10, width - nameWidth - countWidth - 6);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < d.files().size(); i++) {
            FileChange f = d.files().get(i);
            b.append(' ').append(pad(cut(names.get(i), nameWidth), nameWidth)).append(" | ");
            if (f.binary()) {
                b.append("Bin");
            } else {
                int n = f.added() + f.deleted();
                b.append(String.format("%" + countWidth + "d", n));
                if (n > 0) {
                    int plus = scale(f.added(), most, barWidth);
                    int minus = scale(f.deleted(), most, barWidth);
                    b.append(' ').append("+".repeat(plus)).append("-".repeat(minus));
                }
            }
            b.append('\n');
        }
        return b.append(summary(d)).append('\n').toString();
    }

    /** " 3 files changed, 10 insertions(+), 2 deletions(-)", as git words it. */
    static String summary(SandboxDiff d) {
        int n = d.files().size();
        StringBuilder b = new StringBuilder(" " + n + (n == 1 ? " file changed" : " files changed"));
        if (d.totalAdded() > 0 || d.totalDeleted() == 0) {
            b.append(", ").append(d.totalAdded()).append(d.totalAdded() == 1 ? " insertion(+)" : " insertions(+)");
        }
        if (d.totalDeleted() > 0) {
            b.append(", ").append(d.totalDeleted()).append(d.totalDeleted() == 1 ? " deletion(-)" : " deletions(-)");
        }
        return b.toString();
    }

    /**
     * A file's name; a rename's as {@code dir/{old => new}/rest}, its common folders outside the braces. A name with
     * control characters, quotes, backslashes or non-ASCII letters is quoted as git quotes it ({@code "a\033b"}):
     * an agent names the files, and a name must not reach the terminal as escape codes or as a line of its own.
     */
    static String name(FileChange f) {
        if (f.oldPath() == null) {
            return quote(f.path());
        }
        String a = f.oldPath();
        String b = f.path();
        if (!quote(a).equals(a) || !quote(b).equals(b)) {
            return quote(a) + " => " + quote(b);
        }
        int pre = 0;
        for (int i = 0; i < Math.min(a.length(), b.length()) && a.charAt(i) == b.charAt(i); i++) {
            if (a.charAt(i) == '/') {
                pre = i + 1;
            }
        }
        int suf = 0;
        for (int i = 1; i <= Math.min(a.length(), b.length()) - pre; i++) {
            char c = a.charAt(a.length() - i);
            if (c != b.charAt(b.length() - i)) {
                break;
            }
            if (c == '/') {
                suf = i;
            }
        }
        if (pre == 0 && suf == 0) {
            return a + " => " + b;
        }
        return a.substring(0, pre) + "{" + a.substring(pre, a.length() - suf) + " => "
                + b.substring(pre, b.length() - suf) + "}" + a.substring(a.length() - suf);
    }

    private static String quote(String path) {
        return dev.paddock.diff.GitQuote.path(path);
    }

    private static int scale(int n, int most, int width) {
        if (n == 0 || most <= width) {
            return n;
        }
        return Math.max(1, (int) Math.round(n * (double) width / most));
    }

    private static String cut(String s, int width) {
        return s.length() <= width ? s : "..." + s.substring(s.length() - width + 3);
    }

    private static String pad(String s, int width) {
        return s + " ".repeat(Math.max(0, width - s.length()));
    }
}
