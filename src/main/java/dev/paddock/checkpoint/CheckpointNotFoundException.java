package dev.paddock.checkpoint;

/** A sandbox has no checkpoint with the number asked for (the API answers 404). */
public class CheckpointNotFoundException extends CheckpointException {
    private static final long serialVersionUID = 1L;

    public CheckpointNotFoundException(String sandboxId, int number) {
        super(sandboxId + " has no checkpoint " + number + " (list them with: paddock sandbox checkpoints " + sandboxId
                + ").");
    }
}
