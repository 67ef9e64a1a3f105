#!/usr/bin/env bash
# Regenerates src/main/cds/paddock.classlist: the classes the panel loads from its start to its
# first dashboard. `mvn package` dumps the class-data sharing archive (target/paddock.jsa) from it,
# which the launcher (target/paddock) maps at start-up. Run it after changes that load many new
# classes early (a new library, a new view); a stale list only makes start-up a little slower.
#
# Needs: git, Xvfb (apt-get install xvfb), a built jar (mvn -q -DskipTests package).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f target/paddock.jar ] || { echo "build first: mvn -q -DskipTests package" >&2; exit 1; }

work=$(mktemp -d)
trap 'kill "${xvfb_pid:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT

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

# Lines starting with @ describe lambda proxies and hidden classes: OpenJDK 17.0.15 (Debian) crashes
# dumping them (SystemDictionaryShared::adjust_lambda_proxy_class_dictionary), so they are left out.
grep -v '^@' "$work/classes.lst" > src/main/cds/paddock.classlist
echo "src/main/cds/paddock.classlist: $(grep -vc '^#' src/main/cds/paddock.classlist) classes"
