package dev.paddock.sandbox;

/** There is no sandbox with the id asked for (the API answers 404). */
public class SandboxNotFoundException extends SandboxException {
    private static final long serialVersionUID = 1L;

    /** "No sandbox {id}." */
    public SandboxNotFoundException(String id) {
        super("No sandbox " + id + ".");
    }
}
