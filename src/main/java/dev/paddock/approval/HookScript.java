package dev.paddock.approval;

import dev.paddock.common.PrivateFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The light path of the Claude Code hook: a shell script (no JVM, no {@code jq}) that Paddock writes to
 * {@code <paddock home>/bin/paddock-hook-claude} with mode 700. It sends the hook's stdin as is to
 * {@code POST /v1/hooks/claude} and prints the broker's answer: line 1 of the answer is the verdict (exit 0 or
 * 2), line 2 the stdout JSON, line 3 the reason (stderr on deny).
 *
 * <p>Under bash (the shebang is {@code /bin/bash} where it exists) it speaks HTTP/1.0 through bash's
 * {@code /dev/tcp} and starts no process at all for an allowed call: starting curl alone took ~12 ms here, more
 * than the broker's answer. HTTP/1.0 because the JDK's server then ends a long-polled answer by closing the
 * connection instead of chunking it. Under another sh, or a bash built without {@code /dev/tcp}, it uses curl.
 *
 * <p>Where it finds the broker: {@code PADDOCK_API} and {@code PADDOCK_TOKEN} (and
 * {@code PADDOCK_SANDBOX_ID}), which Paddock gives every agent it starts; otherwise the running Paddock of
 * the home it was written for ({@code instance.json}, {@code api-token}). The token never goes on a command
 * line (where {@code ps} would show it): printf is a bash builtin, and curl reads it from a file descriptor.
 *
 * <p>Fail-closed: no broker (and no curl to try), no token, an HTTP error or an answer it cannot read all print a deny
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
        // Created with mode 700 (its directory too): the script names the home and is run by Claude Code as is.
        PrivateFiles.write(file, text.getBytes(StandardCharsets.UTF_8), PrivateFiles.DIR);
        if (!PrivateFiles.posix(file)) {
            file.toFile().setExecutable(true, true);
        }
        return file;
    }

    /** The interpreter of the script: bash when this machine has it (its {@code /dev/tcp} saves a curl start-up). */
    static String shebang() {
        return Files.isExecutable(Path.of("/bin/bash")) ? "#!/bin/bash" : "#!/bin/sh";
    }

    /** The script's text for {@code paddockHome}, run by {@link #shebang()}. */
    static String text(Path paddockHome) {
        return shebang() + "\n" + """
                # Paddock's Claude Code PreToolUse hook, written by Paddock (do not edit: it is rewritten).
                # Sends the hook's stdin as is to Paddock's approval broker and answers its decision.
                # Fail-closed: whatever goes wrong, it denies with exit 2; it never exits with another code,
                # which Claude Code would take as "go ahead".
                # Under bash it speaks HTTP/1.0 through /dev/tcp (no process started: a curl start-up costs
                # more than the broker's answer); under another sh, or a bash built without /dev/tcp, it uses curl.
                home=%s
                deny() {
                  printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"%%s"}}\\n' "$1"
                  printf '%%s\\n' "$1" >&2
                  exit 2
                }
                api=${PADDOCK_API:-}
                token=${PADDOCK_TOKEN:-}
                if [ -z "$api" ]; then
                  port=$(sed -n 's/.*"port" *: *\\([0-9][0-9]*\\).*/\\1/p' "$home/instance.json" 2>/dev/null)
                  [ -n "$port" ] || deny "Paddock hook: no running Paddock found (PADDOCK_API is not set and the Paddock home has no instance.json), so the call is denied"
                  api="http://127.0.0.1:$port"
                  [ -n "$token" ] || token=$(cat "$home/api-token" 2>/dev/null)
                fi
                [ -n "$token" ] || deny "Paddock hook: no token (PADDOCK_TOKEN is not set and the Paddock home's api-token cannot be read), so the call is denied"
                path=/v1/hooks/claude
                [ -z "${PADDOCK_SANDBOX_ID:-}" ] || path="$path?sandbox=$PADDOCK_SANDBOX_ID"
                hostport=${api#http://}
                hostport=${hostport%%%%/*}
                code=
                verdict=
                out=
                reason=
                if [ -n "${BASH_VERSION:-}" ] && { exec 3<>"/dev/tcp/${hostport%%:*}/${hostport##*:}"; } 2>/dev/null; then
                  LC_ALL=C
                  body=
                  IFS= read -r -d '' body || [ -n "$body" ] || deny "Paddock hook: no PreToolUse input on stdin, so the call is denied"
                  printf 'POST %%s HTTP/1.0\\r\\nHost: %%s\\r\\nAuthorization: Bearer %%s\\r\\nContent-Type: application/json\\r\\nContent-Length: %%s\\r\\n\\r\\n%%s' \\
                    "$path" "$hostport" "$token" "${#body}" "$body" >&3 2>/dev/null \\
                    || deny "Paddock hook: Paddock's broker cannot be reached, so the call is denied"
                  IFS= read -r status <&3 || deny "Paddock hook: Paddock's broker closed the connection without an answer, so the call is denied"
                  code=${status#* }
                  code=${code%%%% *}
                  while IFS= read -r header <&3; do
                    [ -n "${header%%$'\\r'}" ] || break
                  done
                  read -r verdict <&3
                  read -r out <&3
                  read -r reason <&3
                  exec 3<&-
                else
                  command -v curl >/dev/null 2>&1 || deny "Paddock hook: Paddock's broker cannot be reached at $api (and curl is not installed), so the call is denied"
                  resp=$(curl -sS --connect-timeout 2 -X POST -H 'Content-Type: application/json' -H @/dev/fd/3 \\
                    --data-binary @- -w '\\n%%{http_code}' "$api$path" 2>/dev/null 3<<EOF
                Authorization: Bearer $token
                EOF
                  ) || deny "Paddock hook: Paddock's broker cannot be reached (curl exit $?), so the call is denied"
                  nl='
                '
                  code=${resp##*"$nl"}
                  body=${resp%%"$nl"*}
                  { read -r verdict; read -r out; read -r reason; } <<EOF
                $body
                EOF
                fi
                case "$code:$verdict" in
                  200:allow) printf '%%s\\n' "$out"; exit 0 ;;
                  200:deny) printf '%%s\\n' "$out"; printf '%%s\\n' "$reason" >&2; exit 2 ;;
                  401:*) deny "Paddock hook: the broker refused the token (HTTP 401), so the call is denied" ;;
                  403:*) deny "Paddock hook: this token may not ask for that sandbox (HTTP 403), so the call is denied" ;;
                  *) msg=$(printf '%%s' "$verdict" | sed -n 's/.*"error" *: *"\\([^"\\\\]*\\).*/\\1/p' 2>/dev/null)
                     deny "Paddock hook: the broker answered HTTP ${code:-none}${msg:+ ($msg)}, so the call is denied" ;;
                esac
                """.formatted(shellQuote(paddockHome.toString()));
    }

    /** Single-quotes {@code s} for sh. */
    static String shellQuote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
