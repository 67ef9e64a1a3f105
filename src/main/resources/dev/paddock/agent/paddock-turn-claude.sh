#!/bin/sh
# Paddock's Claude Code Stop and Notification hook, written by Paddock (do not edit: it is rewritten).
# Tells Paddock that the agent's turn ended (Stop) or that it waits for a person (Notification), and
# never changes what Claude Code does: it prints nothing and always exits 0 (a Stop hook that exits 2
# or prints {"decision":"block"} would make Claude go on).
#
# Two channels, both best effort:
# - the file $PADDOCK_TURN_FILE (the hook's input as is, replaced atomically), which needs no network
#   and no secret and works in every tier;
# - POST $PADDOCK_API@ROUTE@?sandbox=$PADDOCK_SANDBOX_ID with the same body, signed with
#   PADDOCK_HOOK_KEY the way paddock-hook-claude signs (dev.paddock.api.HookAuth): no token travels.
#   Nothing in the answer is believed or used, so no proof is checked; curl bounds it to @MAX_S@ s.
#   In a namespace or container sandbox, through its own socket $PADDOCK_API_SOCKET instead (address "unix").
LC_ALL=C
body=$(head -c @MAX_BODY@; printf x)
body=${body%x}
[ -n "$body" ] || exit 0

if [ -n "${PADDOCK_TURN_FILE:-}" ]; then
  tmp="$PADDOCK_TURN_FILE.$$.tmp"
  if ! { printf '%s\n' "$body" > "$tmp" && mv -f "$tmp" "$PADDOCK_TURN_FILE"; } 2>/dev/null; then
    rm -f "$tmp" 2>/dev/null
  fi
fi

api=${PADDOCK_API:-}
sock=${PADDOCK_API_SOCKET:-}
sandbox=${PADDOCK_SANDBOX_ID:-}
key=${PADDOCK_HOOK_KEY:-}
[ -n "$api$sock" ] && [ -n "$sandbox" ] && [ -n "$key" ] || exit 0
case $sandbox in *[!a-z0-9-]*) exit 0 ;; esac
if [ -n "$sock" ]; then
  hostport=unix
  set -- --unix-socket "$sock" "http://localhost@ROUTE@?sandbox=$sandbox"
else
  hostport=${api#http://}
  hostport=${hostport%%/*}
  host=${hostport%:*}
  port=${hostport##*:}
  [ "$host" != localhost ] || host=127.0.0.1
  case $host:$port in
    127.0.0.1:*[!0-9]*|127.0.0.1:) exit 0 ;;
    127.0.0.1:*) ;;
    *) exit 0 ;;
  esac
  hostport="$host:$port"
  set -- "http://$hostport@ROUTE@?sandbox=$sandbox"
fi
command -v curl >/dev/null 2>&1 || exit 0
if command -v sha256sum >/dev/null 2>&1; then sha=sha256sum
elif command -v shasum >/dev/null 2>&1; then sha='shasum -a 256'
else exit 0
fi
nonce=$(od -An -N16 -tx1 /dev/urandom 2>/dev/null | tr -d ' \n')
case ${#nonce}:$nonce in 32:*[!0-9a-f]*) exit 0 ;; 32:*) ;; *) exit 0 ;; esac
ts=$(date +%s)
path="@ROUTE@?sandbox=$sandbox"
keyid="sandbox/$sandbox"
mac=$($sha 2>/dev/null <<END
paddock-request-v1
$keyid
$ts
$nonce
$hostport
POST $path
$body
$key
END
)
mac=${mac%%[!0-9a-f]*}
[ "${#mac}" = 64 ] || exit 0
printf '%s' "$body" | curl -sS -o /dev/null --connect-timeout 2 --max-time @MAX_S@ -H @/dev/fd/3 \
  --data-binary @- "$@" >/dev/null 2>&1 3<<END
Paddock-Auth: v1 $keyid $ts $nonce $mac
Content-Type: application/json
Expect:
END
exit 0
