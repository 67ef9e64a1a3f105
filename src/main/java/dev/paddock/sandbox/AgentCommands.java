package dev.paddock.sandbox;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The commands Paddock puts on an agent's PATH ({@code <control dir>/bin}, writable by nobody but Paddock's
 * user): a small POSIX {@code sh} script named {@code paddock} that knows two subcommands.
 * {@code paddock checkpoint [MESSAGE...]} asks the API ({@code PADDOCK_API}, with the sandbox's own
 * {@code PADDOCK_TOKEN}, through curl) for a checkpoint of the sandbox's files.
 * {@code paddock heartbeat [PROGRESS...]} writes the progress to {@code $PADDOCK_HEARTBEAT_FILE} (atomically, through a rename) with a sequence number ({@link HeartbeatFile}), which the supervisor reads within
 * about a second. A file, not the API:
 * it needs no JVM, no network (namespace sandboxes have none) and no Paddock launcher inside the sandbox,
 * and works the same in every tier.
 */
public final class AgentCommands {
    /** The script's text. */
    static final String PADDOCK = """
            #!/bin/sh
            # Written by Paddock for agents in a sandbox: `paddock heartbeat [PROGRESS...]` renews this
            # sandbox's lease with a progress text (through $PADDOCK_HEARTBEAT_FILE; no network needed);
            # `paddock checkpoint [MESSAGE...]` keeps a checkpoint of the sandbox's files (through the API).
            if [ "$1" = checkpoint ]; then
              # Through the API with this sandbox's own token: needs curl and a network.
              shift
              if [ -z "$PADDOCK_API" ] || [ -z "$PADDOCK_TOKEN" ] || [ -z "$PADDOCK_SANDBOX_ID" ]; then
                echo "paddock: PADDOCK_API, PADDOCK_TOKEN and PADDOCK_SANDBOX_ID are not set: this does not run in a Paddock sandbox" >&2
                exit 1
              fi
              if ! command -v curl >/dev/null 2>&1; then
                echo "paddock: paddock checkpoint needs curl in the sandbox" >&2
                exit 1
              fi
              msg=$(printf '%s' "$*" | tr -d '\\000-\\037' | sed 's/\\\\/\\\\\\\\/g; s/"/\\\\"/g')
              # The token goes on curl's standard input, not its command line.
              answer=$(printf 'Authorization: Bearer %s\\n' "$PADDOCK_TOKEN" | curl -sS -H @- -H 'Content-Type: application/json' \\
                  --data-binary "{\\"message\\":\\"$msg\\"}" -w '\\n%{http_code}' \\
                  "$PADDOCK_API/v1/sandboxes/$PADDOCK_SANDBOX_ID/checkpoints") || {
                echo "paddock: Paddock's API at $PADDOCK_API does not answer: no checkpoint was taken" >&2
                exit 1
              }
              code=$(printf '%s\\n' "$answer" | tail -n 1)
              body=$(printf '%s\\n' "$answer" | sed '$d')
              if [ "$code" = 201 ]; then
                n=$(printf '%s' "$body" | sed -n 's/.*"number":\\([0-9][0-9]*\\).*/\\1/p')
                echo "Checkpoint $n of $PADDOCK_SANDBOX_ID taken."
                exit 0
              fi
              echo "paddock: $(printf '%s' "$body" | sed -n 's/.*"error":"\\(.*\\)".*/\\1/p') (HTTP $code)" >&2
              exit 1
            fi
            if [ "$1" != heartbeat ]; then
              echo "paddock: inside a sandbox only 'paddock heartbeat [PROGRESS...]' and 'paddock checkpoint [MESSAGE...]' are available" >&2
              exit 2
            fi
            shift
            if [ -z "$PADDOCK_HEARTBEAT_FILE" ]; then
              echo "paddock: PADDOCK_HEARTBEAT_FILE is not set: this does not run in a Paddock sandbox" >&2
              exit 1
            fi
            # The progress, then "seq N" one above the file's last: the same progress twice still differs.
            seq=0
            if [ -f "$PADDOCK_HEARTBEAT_FILE" ]; then
              while IFS= read -r line; do
                case "$line" in
                  "seq "*) seq=${line#seq } ;;
                esac
              done < "$PADDOCK_HEARTBEAT_FILE"
            fi
            case "$seq" in
              ''|*[!0-9]*|0?*) seq=0 ;;
            esac
            [ ${#seq} -gt 18 ] && seq=0
            tmp="$PADDOCK_HEARTBEAT_FILE.$$.tmp"
            if printf '%s\\nseq %s\\n' "$*" "$((seq + 1))" > "$tmp" && mv -f "$tmp" "$PADDOCK_HEARTBEAT_FILE"; then
              exit 0
            fi
            rm -f "$tmp"
            echo "paddock: cannot write $PADDOCK_HEARTBEAT_FILE" >&2
            exit 1
            """;

    private AgentCommands() {}

    /**
     * Writes the commands into {@code binDir} (mode 755), replacing older versions.
     *
     * @throws IOException when the directory or a file cannot be written
     */
    public static void write(Path binDir) throws IOException {
        Files.createDirectories(binDir);
        Path target = binDir.resolve("paddock");
        Path tmp = binDir.resolve("paddock.tmp");
        Files.writeString(tmp, PADDOCK, StandardCharsets.UTF_8);
        try {
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (UnsupportedOperationException notPosix) {
            tmp.toFile().setExecutable(true);
        }
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
