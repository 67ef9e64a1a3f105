package dev.paddock.diff;

/** Checks a path asked for: relative to the repository's root, and staying inside it. */
final class RepoPaths {
    private RepoPaths() {}

    /** @throws DiffException when {@code path} is empty, absolute, or has an empty, {@code .} or {@code ..} part */
    static void check(String path) throws DiffException {
        if (path == null || path.isBlank()) {
            throw new DiffException("Say which file: a path relative to the repository's root.");
        }
        if (path.startsWith("/") || path.indexOf('\0') >= 0) {
            throw new DiffException("The path " + path + " is not inside the repository: give it relative to the"
                    + " repository's root.");
        }
        for (String part : path.split("/", -1)) {
            if (part.isEmpty() || part.equals(".") || part.equals("..")) {
                throw new DiffException("The path " + path + " leaves the repository or is not plain: give it"
                        + " relative to the repository's root, without '.', '..' or empty parts.");
            }
        }
    }
}
