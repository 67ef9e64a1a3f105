package dev.paddock.common;

/** The command line or the environment asks for something Paddock does not take: exit code 2, as picocli's. */
public class UsageException extends PaddockException {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
