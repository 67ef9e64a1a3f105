package dev.paddock.review;

import dev.paddock.sandbox.SandboxException;

/** No comment with that id on that sandbox. */
public final class CommentNotFoundException extends SandboxException {
    CommentNotFoundException(String sandboxId, long id) {
        super("No comment " + id + " on " + sandboxId + ".");
    }
}
