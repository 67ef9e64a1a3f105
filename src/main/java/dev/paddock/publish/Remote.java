package dev.paddock.publish;

import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.GitException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * A remote of a repository, chosen for a push.
 *
 * @param name the remote's name ({@code origin})
 * @param url its push URL with any credentials taken out ({@link Redaction}); what Paddock shows of it
 */
public record Remote(String name, String url) {
    /** The remote used when none is named and the repository has several. */
    public static final String DEFAULT = "origin";

    /**
     * The remote named {@code requested} of the repository at {@code dir}; without a name, {@code origin} or the
     * repository's only remote.
     *
     * @throws PublishException BAD_REQUEST when the repository has no remote, none of that name, or several and
     *     none called origin
     * @throws GitException when git cannot be run
     */
    public static Remote choose(GitCli git, Path dir, String requested) throws PublishException, GitException {
        List<String> names = Arrays.stream(git.runOk(dir, "remote").split("\n"))
                .map(String::strip)
                .filter(n -> !n.isEmpty())
                .toList();
        if (names.isEmpty()) {
            throw new PublishException(
                    PublishException.Kind.BAD_REQUEST,
                    "The repository at " + dir + " has no remote to push to: add one with git remote add origin URL");
        }
        String name;
        if (requested != null && !requested.isBlank()) {
            name = requested.strip();
            if (!names.contains(name)) {
                throw new PublishException(
                        PublishException.Kind.BAD_REQUEST,
                        "The repository at " + dir + " has no remote named \"" + name + "\"; its remotes: "
                                + String.join(", ", names));
            }
        } else if (names.contains(DEFAULT)) {
            name = DEFAULT;
        } else if (names.size() == 1) {
            name = names.get(0);
        } else {
            throw new PublishException(
                    PublishException.Kind.BAD_REQUEST,
                    "The repository at " + dir + " has several remotes (" + String.join(", ", names)
                            + ") and none is called origin: name one with --remote");
        }
        GitCli.Result url = git.run(dir, "remote", "get-url", "--push", name);
        return new Remote(name, url.ok() ? Redaction.redact(url.stdout().strip()) : "");
    }
}
