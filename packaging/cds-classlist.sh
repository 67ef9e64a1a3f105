#!/usr/bin/env bash
# Regenerates the class lists `mvn package` dumps the class-data sharing archives from, which the launcher
# (target/paddock) maps at start-up:
#   src/main/cds/paddock.classlist      -> target/paddock.jsa: the classes the panel loads from its start to its
#                                          first dashboard, and those the full CLI loads when it asks a running
#                                          Paddock (every command but the thin client's).
#   src/main/cds/paddock-cli.classlist  -> target/paddock-cli.jsa: the thin client's (status, sandbox list,
#                                          --version asked of a running Paddock), a small archive on purpose: the
#                                          JVM relocates a whole archive at start, which for the panel's takes
#                                          longer than the thin client's work.
# Run it after changes that load many new classes early (a new library, a new view); a stale list only makes
# start-up a little slower.
#
# Needs: git, Xvfb (apt-get install xvfb), a built jar (mvn -q -DskipTests package).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
[ -f target/paddock.jar ] || { echo "build first: mvn -q -DskipTests package" >&2; exit 1; }

work=$(mktemp -d)
# Not `kill "${xvfb_pid:-0}"`: `kill 0` signals this whole process group, the caller's shell included.
trap 'if [ -n "${xvfb_pid:-}" ]; then kill "$xvfb_pid" 2>/dev/null || true; fi; rm -rf "$work"' EXIT

# A repository with a few worktrees, so the dashboard has rows to show.
git init -q -b main "$work/repo"
git -C "$work/repo" -c user.name=cds -c user.email=cds@paddock.invalid commit -q --allow-empty -m "Initial commit"
for i in 1 2 3; do git -C "$work/repo" worktree add -q -b "agent/$i" "$work/wt$i"; done

if [ -z "${DISPLAY:-}" ]; then
  export DISPLAY=:97
  Xvfb "$DISPLAY" -screen 0 1440x900x24 -nolisten tcp >/dev/null 2>&1 &
  xvfb_pid=$!
  sleep 1
fi

java -XX:DumpLoadedClassList="$work/classes.lst" \
  -Dpaddock.bench.startupFile="$work/startup.txt" -Dpaddock.bench.exit=true \
  -jar target/paddock.jar --home "$work/home" --repo "$work/repo" >/dev/null 2>&1

# Then the CLI's path: commands that ask a running Paddock (here `paddock serve`) through its API.
java -jar target/paddock.jar --home "$work/cli-home" serve >/dev/null 2>&1 &
serve_pid=$!
for _ in $(seq 100); do [ -s "$work/cli-home/instance.json" ] && break; sleep 0.2; done
for cmd in "status --json" "status" "sandbox list"; do
  # shellcheck disable=SC2086 # cmd is a list of words
  (cd "$work/repo" && PADDOCK_THIN_CLI=off java -XX:DumpLoadedClassList="$work/cli-$RANDOM.lst" \
    -jar "$root/target/paddock.jar" --home "$work/cli-home" $cmd >/dev/null 2>&1) || true
done
# The thin client's commands, answered by it (the same JVM options as the launcher's, so the same classes).
for cmd in "--home $work/cli-home status --json" "--home $work/cli-home status" "--home $work/cli-home sandbox list" \
           "--home $work/cli-home sandbox list --json" "--version"; do
  # shellcheck disable=SC2086 # cmd is a list of words
  (cd "$work/repo" && java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:DumpLoadedClassList="$work/thin-$RANDOM.lst" \
    -jar "$root/target/paddock.jar" $cmd >/dev/null 2>&1) || true
done
kill "$serve_pid" 2>/dev/null || true
wait "$serve_pid" 2>/dev/null || true

# Lines starting with @ describe lambda proxies and hidden classes: OpenJDK 17.0.15 (Debian) crashes
# dumping them (SystemDictionaryShared::adjust_lambda_proxy_class_dictionary), so they are left out.
cat "$work/classes.lst" "$work"/cli-*.lst | grep -v '^@' | awk '!seen[$0]++' > src/main/cds/paddock.classlist
echo "src/main/cds/paddock.classlist: $(grep -vc '^#' src/main/cds/paddock.classlist) classes"
cat "$work"/thin-*.lst | grep -v '^@' | awk '!seen[$0]++' > src/main/cds/paddock-cli.classlist
echo "src/main/cds/paddock-cli.classlist: $(grep -vc '^#' src/main/cds/paddock-cli.classlist) classes"
if grep -qE '^(picocli|com/fasterxml|org/slf4j|ch/qos|javafx)/' src/main/cds/paddock-cli.classlist; then
  echo "the thin client loaded a library class (see src/main/cds/paddock-cli.classlist)" >&2
  exit 1
fi
