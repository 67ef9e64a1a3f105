package dev.paddock.diff;

/** What the diff is of is not there: a worktree that is gone, a file the diff does not hold (the API answers 404). */
public class DiffNotFoundException extends DiffException {
    private static final long serialVersionUID = 1L;

    public DiffNotFoundException(String message) {
        super(message);
    }
}
