@SHEBANG@
# Paddock's Claude Code PreToolUse hook, written by Paddock (do not edit: it is rewritten at every start).
# Sends the hook's stdin to Paddock's approval broker and answers its decision.
#
# Fail-closed: whatever goes wrong, it denies with exit 2; it never exits with another code, which Claude
# Code would take as "go ahead".
#
# In time: connecting, sending and the broker's first answer must fit in answer_s seconds; while a person
# decides, the broker sends a space twice a second and the hook denies after quiet_s seconds without one,
# or when its whole time (cap) is up, which stays below Claude Code's own hook timeout (--timeout N, the
# seconds Claude Code gives the hook): Claude Code lets a call through when its hook times out.
#
# Only the real Paddock: the hook never sends a token. It signs its request with its key (a sandbox's
# PADDOCK_HOOK_KEY, or this home's api-token) over a fresh nonce and the address it dialled, and believes
# an answer only when it carries Paddock-Proof, a hash only a holder of the key can make for this nonce
# and address. Formats: dev.paddock.api.HookAuth.
#
# Where: PADDOCK_API_SOCKET, a namespace or container sandbox's own Unix socket that Paddock relays to its API
# (through curl --unix-socket; the address signed is then "unix"), else PADDOCK_API, else this home's instance.json.
# See docs/decisions/0019-hook-channel-per-sandbox-socket.md.
#
# Under bash it speaks HTTP/1.0 through /dev/tcp (no process but one sha256sum: a curl start-up costs
# more than the broker's answer); under another sh, or a bash built without /dev/tcp, it uses curl.
home=@HOME@
approval_s=@APPROVAL_S@
answer_s=@ANSWER_S@
quiet_s=@QUIET_S@
LC_ALL=C
writer=
deny() {
  [ -z "$writer" ] || kill "$writer" 2>/dev/null
  printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"%s"}}\n' "$1"
  printf '%s\n' "$1" >&2
  exit 2
}
limit=
case ${1:-} in
  --timeout) limit=${2:-} ;;
  --timeout=*) limit=${1#--timeout=} ;;
esac
case $limit in
  ''|*[!0-9]*|?????????*) cap=$((approval_s + 30)) ;;
  *) margin=$((limit / 4)); [ "$margin" -le 15 ] || margin=15; cap=$((limit - margin)) ;;
esac
[ "$cap" -ge 1 ] || cap=1
[ "$answer_s" -le "$cap" ] || answer_s=$cap
# The watchdog (bash): a child that waits on a pipe from this shell and stops it (TERM, answered with a deny)
# when answer_s passes first. Writing to the pipe or exiting (which closes it) releases the child, so it
# never outlives the hook. It bounds what read -t cannot: the connect, and a stdin that never ends. Armed
# again (for the time left) before a second broker is asked.
watchdog() {
  w=$((answer_s - SECONDS))
  [ "$w" -gt 0 ] || deny "Paddock hook: Paddock did not answer within ${answer_s} s, so the call is denied"
  eval 'exec 9> >(exec >/dev/null 2>&1; read -r -t "$w" -N 1; [ $? -gt 128 ] && kill -TERM $$)'
}
if [ -n "${BASH_VERSION:-}" ]; then
  trap 'deny "Paddock hook: Paddock did not answer within ${answer_s} s, so the call is denied"' TERM
  watchdog
fi
# Any other signal that would end the hook ends it with a deny too (KILL cannot be caught).
trap 'deny "Paddock hook: the hook was stopped by a signal, so the call is denied"' INT HUP QUIT USR1 USR2 SEGV BUS ABRT

# The port of this home's running Paddock, from instance.json (which holds nothing secret), or nothing.
live_port() {
  inst=
  IFS= read -r inst 2>/dev/null < "$home/instance.json"
  lp=${inst#*\"port\"}
  lp=${lp#*:}
  lp=${lp#"${lp%%[! ]*}"}
  lp=${lp%%[!0-9]*}
  case $inst in *'"port"'*) printf '%s' "$lp" ;; esac
}

api=${PADDOCK_API:-}
sandbox=${PADDOCK_SANDBOX_ID:-}
sock=${PADDOCK_API_SOCKET:-}
if [ -n "$sock" ]; then
  # Inside a namespace or a container sandbox: its own socket, its own key, nothing else.
  key=${PADDOCK_HOOK_KEY:-}
  [ -n "$key" ] || deny "Paddock hook: PADDOCK_API_SOCKET is set but PADDOCK_HOOK_KEY is not, so the call is denied"
  [ -n "$sandbox" ] || deny "Paddock hook: PADDOCK_API_SOCKET is set but PADDOCK_SANDBOX_ID is not, so the call is denied"
  case $sandbox in *[!a-z0-9-]*) deny "Paddock hook: PADDOCK_SANDBOX_ID is not a sandbox id, so the call is denied" ;; esac
  case $sock in /*) ;; *) deny "Paddock hook: PADDOCK_API_SOCKET is not an absolute path, so the call is denied" ;; esac
  keyid="sandbox/$sandbox"
  api=unix
elif [ -n "$api" ]; then
  key=${PADDOCK_HOOK_KEY:-}
  [ -n "$key" ] || deny "Paddock hook: PADDOCK_HOOK_KEY is not set, so this hook cannot tell Paddock from another program on its port; the call is denied"
  [ -n "$sandbox" ] || deny "Paddock hook: PADDOCK_API is set but PADDOCK_SANDBOX_ID is not, so the call is denied"
  keyid="sandbox/$sandbox"
else
  port=$(live_port)
  [ -n "$port" ] || deny "Paddock hook: no running Paddock found (PADDOCK_API is not set and the Paddock home has no instance.json), so the call is denied"
  api="http://127.0.0.1:$port"
  key=
  IFS= read -r key 2>/dev/null < "$home/api-token"
  [ -n "$key" ] || deny "Paddock hook: the Paddock home's api-token cannot be read, so the call is denied"
  keyid=install
fi
if [ -n "$sock" ]; then
  hostport=unix
  where="its sandbox's socket $sock"
else
  hostport=${api#http://}
  hostport=${hostport%%/*}
  host=${hostport%:*}
  port=${hostport##*:}
  [ "$host" != localhost ] || host=127.0.0.1
  case $host:$port in
    127.0.0.1:*[!0-9]*|127.0.0.1:) deny "Paddock hook: PADDOCK_API ($api) names no port, so the call is denied" ;;
    127.0.0.1:*) ;;
    *) deny "Paddock hook: PADDOCK_API ($api) is not on 127.0.0.1, so the call is denied" ;;
  esac
  hostport="$host:$port"
  where=$hostport
fi
path=/v1/hooks/claude
[ -z "$sandbox" ] || path="$path?sandbox=$sandbox"

body=
if [ -n "${BASH_VERSION:-}" ]; then
  # bash reads a pipe a byte at a time (about a second a megabyte): the first 4 KiB, which hold most calls,
  # without a process, the rest through cat.
  IFS= read -r -N 4096 body
  if [ "${#body}" -ge 4096 ]; then
    rest=$(cat; printf x)
    body=$body${rest%x}
  fi
else
  body=$(cat; printf x)
  body=${body%x}
fi
[ -n "$body" ] || deny "Paddock hook: no PreToolUse input on stdin, so the call is denied"

if command -v sha256sum >/dev/null 2>&1; then
  sha=sha256sum
elif command -v shasum >/dev/null 2>&1; then
  sha='shasum -a 256'
else
  deny "Paddock hook: neither sha256sum nor shasum is installed, so the hook cannot check it talks to Paddock; the call is denied"
fi
# sign: a fresh nonce, the request's MAC and the proof Paddock's answer must carry, for $hostport
# (dev.paddock.api.HookAuth).
sign() {
  nonce=
  if [ -n "${SRANDOM:-}" ]; then
    printf -v nonce '%08x%08x%08x%08x' "$SRANDOM" "$SRANDOM" "$SRANDOM" "$SRANDOM"
  else
    for b in $(od -An -N16 -tx1 /dev/urandom 2>/dev/null); do nonce=$nonce$b; done
  fi
  case ${#nonce}:$nonce in
    32:*[!0-9a-f]*) deny "Paddock hook: cannot make a random nonce, so the call is denied" ;;
    32:*) ;;
    *) deny "Paddock hook: cannot make a random nonce (no \$SRANDOM, no od), so the call is denied" ;;
  esac
  ts=${EPOCHSECONDS:-}
  [ -n "$ts" ] || ts=$(date +%s)
  hashes=$($sha /dev/fd/4 /dev/fd/5 2>/dev/null 4<<EOF 5<<EOF
paddock-request-v1
$keyid
$ts
$nonce
$hostport
POST $path
$body
$key
EOF
paddock-answer-v1
$keyid
$nonce
$hostport
$key
EOF
)
  mac=${hashes%%[!0-9a-f]*}
  proof=${hashes#*
}
  proof=${proof%%[!0-9a-f]*}
  [ "${#mac}" = 64 ] && [ "${#proof}" = 64 ] || deny "Paddock hook: $sha failed, so the call is denied"
}

# unproven: why the server on $hostport is not taken for this home's Paddock.
unproven() {
  if [ "$code" = 401 ]; then
    why="the server on $where refused this hook's key (HTTP 401): it is not this home's Paddock, or the key is wrong"
  else
    why="the server on $where did not prove it is this home's Paddock (HTTP ${code:-no answer})"
  fi
}

# ask: one request to $hostport. Returns 0 with code, verdict, out, reason and error from a server that proved it
# is this home's Paddock; 1 with why when nothing there did (no connection, another program, a refused key);
# denies at once when time runs out.
ask() {
  code=
  got=
  verdict=
  out=
  reason=
  error=
  if [ -z "$sock" ] && [ -n "${BASH_VERSION:-}" ] && { exec 3<>"/dev/tcp/$host/$port"; } 2>/dev/null; then
    printf -v request 'POST %s HTTP/1.0\r\nHost: %s\r\nPaddock-Auth: v1 %s %s %s %s\r\nContent-Type: application/json\r\nContent-Length: %s\r\n\r\n' \
      "$path" "$hostport" "$keyid" "$ts" "$nonce" "$mac" "${#body}"
    if [ $((${#request} + ${#body})) -le 65536 ]; then
      # Fits the socket's buffers: written at once, even to a peer that never reads.
      printf '%s%s' "$request" "$body" >&3 2>/dev/null \
        || deny "Paddock hook: Paddock's broker cannot be reached, so the call is denied"
    else
      # Could block on a peer that never reads: written by a child the hook kills if it denies.
      { printf '%s%s' "$request" "$body" >&3; } 2>/dev/null &
      writer=$!
    fi
    t=$((answer_s - SECONDS))
    # Every read is bounded in time and length: a peer that streams an endless line must not grow this shell
    # until the system kills it (an exit Claude Code would take as "go ahead").
    [ "$t" -gt 0 ] && IFS= read -r -t "$t" -n 1024 status <&3 \
      || deny "Paddock hook: Paddock's broker did not answer within ${answer_s} s, so the call is denied"
    code=${status#* }
    code=${code%% *}
    headers=0
    while :; do
      t=$((answer_s - SECONDS))
      headers=$((headers + 1))
      [ "$headers" -le 64 ] || deny "Paddock hook: the server on $where sent too many headers, so the call is denied"
      [ "$t" -gt 0 ] && IFS= read -r -t "$t" -n 4096 header <&3 \
        || deny "Paddock hook: Paddock's broker did not answer within ${answer_s} s, so the call is denied"
      header=${header%$'\r'}
      [ -n "$header" ] || break
      case $header in
        [Pp][Aa][Dd][Dd][Oo][Cc][Kk]-[Pp][Rr][Oo][Oo][Ff]:*) got=${header#*:}; got=${got# } ;;
      esac
    done
    [ "$got" = "$proof" ] || {
      exec 3<&-
      [ -z "$writer" ] || kill "$writer" 2>/dev/null
      writer=
      unproven
      return 1
    }
    # The real Paddock answers: from here the wait is bounded by its signs (quiet_s) and by cap.
    { printf x >&9; exec 9>&-; } 2>/dev/null
    if [ "$code" = 200 ]; then
      c=' '
      while [ "$c" = ' ' ]; do
        t=$((cap - SECONDS))
        [ "$t" -gt 0 ] || deny "Paddock hook: no decision within ${cap} s (Claude Code's hook timeout is near), so the call is denied"
        [ "$t" -le "$quiet_s" ] || t=$quiet_s
        IFS= read -r -t "$t" -N 1 c <&3
        rc=$?
        [ "$rc" -le 128 ] || deny "Paddock hook: Paddock's broker gave no sign for ${t} s while waiting, so the call is denied"
        [ "$rc" = 0 ] || deny "Paddock hook: Paddock's broker closed the connection without an answer, so the call is denied"
      done
      IFS= read -r -t "$quiet_s" -n 16 verdict <&3
      verdict=$c$verdict
      IFS= read -r -t "$quiet_s" -n 65536 out <&3
      IFS= read -r -t "$quiet_s" -n 65536 reason <&3
    else
      IFS= read -r -t "$quiet_s" -n 65536 error <&3
    fi
    exec 3<&-
    [ -z "$writer" ] || wait "$writer" 2>/dev/null
    writer=
  else
    # curl has its own limits: the watchdog (bash only) is let go, or it would stop a long wait for a person.
    [ -z "${BASH_VERSION:-}" ] || { printf x >&9; exec 9>&-; } 2>/dev/null
    command -v curl >/dev/null 2>&1 || {
      why="Paddock's broker cannot be reached at $where (and curl is not installed)"
      return 1
    }
    # curl bounds the connect (answer_s), the whole call (cap), and silence: less than one byte a second
    # (the broker sends two while waiting) for 3 s ends it. curl takes the speed over its last 5 s, counting
    # what it sent as well, so it notices silence 3 to 8 s after the last byte, within answer_s at the start.
    # At most 1 MiB of answer is kept (a peer that streams without end must not grow this shell); an answer
    # cut there loses curl's exit code at its end, and is denied.
    if [ -n "$sock" ]; then
      set -- --unix-socket "$sock" "http://localhost$path"
    else
      set -- "http://$hostport$path"
    fi
    resp=$({ printf '%s' "$body" | curl -sS -i --connect-timeout "$answer_s" --max-time "$cap" \
      --speed-limit 1 --speed-time 3 -H @/dev/fd/3 --data-binary @- "$@" 2>/dev/null 3<<EOF
Paddock-Auth: v1 $keyid $ts $nonce $mac
Content-Type: application/json
Expect:
EOF
    printf 'x%s' "$?"; } | head -c 1048576)
    rc=${resp##*x}
    resp=${resp%x*}
    case $rc in ''|*[!0-9]*) rc="none: the answer is longer than 1 MiB" ;; esac
    if [ "$rc" = 7 ]; then
      why="Paddock's broker cannot be reached at $where"
      return 1
    fi
    [ "$rc" = 0 ] || deny "Paddock hook: Paddock's broker cannot be reached or did not answer in time (curl exit $rc), so the call is denied"
    cr=$(printf '\r')
    part=status
    while IFS= read -r line; do
      line=${line%"$cr"}
      case $part in
        status) code=${line#* }; code=${code%% *}; part=headers ;;
        headers)
          case $line in
            '') part=body ;;
            [Pp][Aa][Dd][Dd][Oo][Cc][Kk]-[Pp][Rr][Oo][Oo][Ff]:*) got=${line#*:}; got=${got# } ;;
          esac ;;
        body)
          if [ "$code" != 200 ]; then [ -n "$error" ] || error=$line
          elif [ -z "$verdict" ]; then verdict=${line#"${line%%[! ]*}"}
          elif [ -z "$out" ]; then out=$line
          elif [ -z "$reason" ]; then reason=$line
          fi ;;
      esac
    done <<EOF
$resp
EOF
    [ "$got" = "$proof" ] || {
      unproven
      return 1
    }
  fi
  return 0
}

sign
if ! ask; then
  first=$why
  # An agent that outlived a restart of Paddock on another port: its PADDOCK_API is stale. This home's live
  # Paddock is asked instead, with the same key; it has to prove itself the same way, and no secret travels.
  alt=
  [ -n "$sock" ] || [ -z "${PADDOCK_API:-}" ] || alt=$(live_port)
  if [ -n "$alt" ] && [ "$alt" != "$port" ]; then
    port=$alt
    hostport="127.0.0.1:$port"
    where=$hostport
    [ -z "${BASH_VERSION:-}" ] || watchdog
    sign
    ask || deny "Paddock hook: $first; and $why, so the call is denied"
  else
    deny "Paddock hook: $first, so the call is denied"
  fi
fi

# Only the verified Paddock's answer gets here.
case "$code:$verdict" in
  200:allow)
    case $out in *'"permissionDecision":"allow"'*|*'"behavior":"allow"'*|'{"decision":"allow"'*) ;; *) deny "Paddock hook: Paddock's answer is not understood, so the call is denied" ;; esac
    printf '%s\n' "$out"; exit 0 ;;
  200:deny)
    case $out in *'"permissionDecision":"deny"'*|*'"behavior":"deny"'*|'{"decision":"deny"'*) ;; *) deny "Paddock hook: Paddock denied the call" ;; esac
    printf '%s\n' "$out"; printf '%s\n' "$reason" >&2; exit 2 ;;
  200:*) deny "Paddock hook: Paddock's answer is not understood, so the call is denied" ;;
  403:*) deny "Paddock hook: this key may not ask for that sandbox (HTTP 403), so the call is denied" ;;
  *) msg=${error#*\"error\":\"}
     [ "$msg" != "$error" ] || msg=
     msg=${msg%%[\"\\]*}
     deny "Paddock hook: the broker answered HTTP ${code:-none}${msg:+ ($msg)}, so the call is denied" ;;
esac
