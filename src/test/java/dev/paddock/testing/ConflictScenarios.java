package dev.paddock.testing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Repositories with a conflicting merge in progress, for the three-way view's tests and benchmark:
 * {@code main} (ours) has merged agent A's work and agent B's branch {@code agent/b} (theirs) edits the
 * same lines.
 */
public final class ConflictScenarios {
    private ConflictScenarios() {}

    /** Line {@code i} (0-based) of {@code Service.java}'s base version. */
    public static String serviceLine(int i) {
        return switch (i) {
            case 0 -> "package demo;";
            case 2 -> "import java.util.List;";
            case 3 -> "import java.util.Map;";
            case 5 -> "class Service {";
            case 7 -> "    String greet(String name) {";
            case 8 -> "        return \"Hello \" + name;";
            case 9 -> "    }";
            case 16 -> "    int limit() {";
            case 17 -> "        return 10;";
            case 18 -> "    }";
            case 24 -> "    int retries = 3;";
            case 30 -> "    String bye(String name) {";
            case 31 -> "        return \"Bye \" + name;";
            case 32 -> "    }";
            case 39 -> "}";
            default -> "    // line " + i;
        };
    }

    /**
     * {@code src/demo/Service.java} with four conflict hunks (imports: safe; greet: human; retries:
     * whitespace only, safe; bye: human) and clean edits of both sides between them, plus
     * {@code notes.txt} deleted on ours and changed on theirs.
     */
    public static TempRepo serviceAndNotes(Path dir) {
        TempRepo repo = TempRepo.init(dir);
        List<String> base = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            base.add(serviceLine(i));
        }
        repo.write("src/demo/Service.java", text(base, l -> l));
        repo.write("notes.txt", "first note\n");
        repo.commitAll("Service and notes");
        repo.git("branch", "agent/b");

        // ours: main after agent A merged
        repo.write("src/demo/Service.java", text(base, l -> switch (l) {
            case "import java.util.Map;" -> "import java.util.Set;";
            case "        return \"Hello \" + name;" -> "        return \"Hello, \" + name + \"!\";";
            case "        return 10;" -> "        return 20;"; // clean: only ours
            case "    int retries = 3;" -> "    int retries =  3;";
            case "        return \"Bye \" + name;" -> "        return \"Goodbye \" + name;";
            default -> l;
        }));
        repo.git("rm", "--quiet", "notes.txt");
        repo.commitAll("Agent A: friendlier greeting");

        repo.git("checkout", "--quiet", "agent/b");
        repo.write("src/demo/Service.java", text(base, l -> switch (l) {
            case "import java.util.Map;" -> "import java.util.Optional;";
            case "        return \"Hello \" + name;" -> "        return \"Hi \" + name.strip();";
            case "    // line 12" -> "    // agent B was here"; // clean: only theirs
            case "    int retries = 3;" -> "    int retries = 3 ;";
            case "        return \"Bye \" + name;" -> "        return \"See you \" + name;";
            default -> l;
        }));
        repo.write("notes.txt", "first note\nsecond note from agent B\n");
        repo.commitAll("Agent B: shorter greeting");
        repo.git("checkout", "--quiet", "main");
        ConflictRepo.startMerge(repo, "agent/b");
        return repo;
    }

    /**
     * One file of {@code lines} lines where both sides change every {@code lines / hunks}-th line
     * differently: {@code hunks} conflict hunks (the three-way view's benchmark input).
     */
    public static TempRepo largeFile(Path dir, int lines, int hunks) {
        TempRepo repo = TempRepo.init(dir);
        List<String> base = new ArrayList<>();
        for (int i = 0; i < lines; i++) {
            base.add("    value" + i + " = compute(" + i + ", \"some text to make the line realistic\");");
        }
        int step = lines / hunks;
        repo.write("src/Big.java", text(base, l -> l));
        repo.commitAll("Big file");
        repo.git("branch", "agent/big");
        repo.write("src/Big.java", textIndexed(base, (i, l) -> i % step == step / 2 ? l + " // ours " + i : l));
        repo.commitAll("Ours edits");
        repo.git("checkout", "--quiet", "agent/big");
        repo.write("src/Big.java", textIndexed(base, (i, l) -> i % step == step / 2 ? l + " // theirs " + i : l));
        repo.commitAll("Theirs edits");
        repo.git("checkout", "--quiet", "main");
        ConflictRepo.startMerge(repo, "agent/big");
        return repo;
    }

    private static String text(List<String> lines, UnaryOperator<String> edit) {
        StringBuilder b = new StringBuilder();
        lines.forEach(l -> b.append(edit.apply(l)).append('\n'));
        return b.toString();
    }

    private static String textIndexed(List<String> lines, java.util.function.BiFunction<Integer, String, String> edit) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            b.append(edit.apply(i, lines.get(i))).append('\n');
        }
        return b.toString();
    }
}
