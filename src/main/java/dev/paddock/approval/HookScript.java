package dev.paddock.approval;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The light path of the Claude Code hook: a POSIX {@code sh} script using only {@code curl} (no JVM, no
 * {@code jq}), written by Paddock to {@code <paddock home>/bin/paddock-hook-claude} with mode 700. It sends
 * the hook's stdin as is to {@code POST /v1/hooks/claude} and prints the broker's answer: line 1 of the
 * answer is the verdict (exit 0 or 2), line 2 the stdout JSON, line 3 the reason (stderr on deny).
 *
 * <p>Where it finds the broker: {@code PADDOCK_API} and {@code PADDOCK_TOKEN} (and
 * {@code PADDOCK_SANDBOX_ID}), which Paddock gives every agent it starts; otherwise the running Paddock of
 * the home it was written for ({@code instance.json}, {@code api-token}). The token goes to curl through a
 * file descriptor, never on its command line (where {@code ps} would show it).
 *
 * <p>Fail-closed: no curl, no broker, no token, an HTTP error or an answer it cannot read all print a deny
 * and exit 2. It never exits with another code: Claude Code takes any other code as a non-blocking error
 * and lets the call through (Claude Code hooks reference, "Exit code output").
 */
public final class HookScript {
    /** The script's file name under {@code <paddock home>/bin}. */
    public static final String NAME = "paddock-hook-claude";

    private HookScript() {
    }

    /** {@code <paddock home>/bin/paddock-hook-claude}. */
    public static Path path(Path paddockHome) {
        return paddockHome.resolve("bin").resolve(NAME);
    }

    /**
     * Writes the script for {@code paddockHome} (mode 700) unless it is already there with this content.
     *
     * @return the script's path
     * @throws IOException when it cannot be written
     */
    public static Path write(Path paddockHome) throws IOException {
        Path file = path(paddockHome.toAbsolutePath());
        String text = text(paddockHome.toAbsolutePath());
        if (Files.isRegularFile(file) && Files.readString(file, StandardCharsets.UTF_8).equals(text)
                && Files.isExecutable(file)) {
            return file;
        }
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(NAME + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        try {
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx------"));
        } catch (UnsupportedOperationException e) {
            tmp.toFile().setExecutable(true, true);
        }
        try {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
        return file;
    }

    /** The script's text for {@code paddockHome}. */
    static String text(Path paddockHome) {
        return """
                #!/bin/sh
                # Paddock's Claude Code PreToolUse hook, written by Paddock (do not edit: it is rewritten).
                # Sends the hook's stdin as is to Paddock's approval broker and answers its decision.
                # Fail-closed: whatever goes wrong, it denies with exit 2; it never exits with another code,
                # which Claude Code would take as "go ahead".
                home=%s
                deny() {
                  printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"%%s"}}\\n' "$1"
                  printf '%%s\\n' "$1" >&2
                  exit 2
                }
                command -v curl >/dev/null 2>&1 || deny "Paddock hook: curl is not installed, so the call is denied"
                api=${PADDOCK_API:-}
                token=${PADDOCK_TOKEN:-}
                if [ -z "$api" ]; then
                  port=$(sed -n 's/.*"port" *: *\\([0-9][0-9]*\\).*/\\1/p' "$home/instance.json" 2>/dev/null)
                  [ -n "$port" ] || deny "Paddock hook: no running Paddock found (PADDOCK_API is not set and the Paddock home has no instance.json), so the call is denied"
                  api="http://127.0.0.1:$port"
                  [ -n "$token" ] || token=$(cat "$home/api-token" 2>/dev/null)
                fi
                [ -n "$token" ] || deny "Paddock hook: no token (PADDOCK_TOKEN is not set and the Paddock home's api-token cannot be read), so the call is denied"
                url="$api/v1/hooks/claude"
                [ -z "${PADDOCK_SANDBOX_ID:-}" ] || url="$url?sandbox=$PADDOCK_SANDBOX_ID"
                resp=$(curl -sS --connect-timeout 2 -X POST -H 'Content-Type: application/json' -H @/dev/fd/3 \\
                  --data-binary @- -w '\\n%%{http_code}' "$url" 2>/dev/null 3<<EOF
                Authorization: Bearer $token
                EOF
                ) || deny "Paddock hook: Paddock's broker cannot be reached (curl exit $?), so the call is denied"
                nl='
                '
                code=${resp##*"$nl"}
                body=${resp%%"$nl"*}
                verdict=
                out=
                reason=
                { read -r verdict; read -r out; read -r reason; } <<EOF
                $body
                EOF
                case "$code:$verdict" in
                  200:allow) printf '%%s\\n' "$out"; exit 0 ;;
                  200:deny) printf '%%s\\n' "$out"; printf '%%s\\n' "$reason" >&2; exit 2 ;;
                  401:*) deny "Paddock hook: the broker refused the token (HTTP 401), so the call is denied" ;;
                  403:*) deny "Paddock hook: this token may not ask for that sandbox (HTTP 403), so the call is denied" ;;
                  *) deny "Paddock hook: unexpected answer from the broker (HTTP $code), so the call is denied" ;;
                esac
                """.formatted(shellQuote(paddockHome.toString()));
    }

    /** Single-quotes {@code s} for sh. */
    static String shellQuote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
