package dev.paddock.policy.shell;

import java.util.regex.Pattern;

/**
 * One redirection of a command.
 *
 * @param operator {@code >}, {@code >>}, {@code >|}, {@code &>}, {@code &>>}, {@code <}, {@code <>},
 *     {@code >&}, {@code <&}, {@code <<}, {@code <<-} or {@code <<<}
 * @param fd the descriptor written before the operator ({@code 2>}), or -1
 * @param target the file, descriptor, here-document delimiter or here-string word
 */
public record Redirect(String operator, int fd, Word target) {
    private static final Pattern FD_CLOSE = Pattern.compile("\\d+-");
    /** Whether this writes to the file named by {@link #target()} (not a descriptor duplication). */
    public boolean writesFile() {
        return switch (operator) {
            case ">", ">>", ">|", "&>", "&>>", "<>" -> true;
            case ">&" -> !isDescriptor();
            default -> false;
        };
    }

    /** Whether this reads the file named by {@link #target()}. */
    public boolean readsFile() {
        return operator.equals("<") || operator.equals("<>") || operator.equals("<&") && !isDescriptor();
    }

    private boolean isDescriptor() {
        return target.value().equals("-")
                || target.value().chars().allMatch(Character::isDigit)
                || FD_CLOSE.matcher(target.value()).matches();
    }
}
