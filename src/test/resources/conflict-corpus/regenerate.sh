#!/bin/bash
# Writes the texts of every conflict-corpus row from the public repositories' mirrors into a cache folder:
#   CACHE/NNNN/base, ours, theirs  the hunk's lines on each side of the merge
#   CACHE/NNNN/merged              what the person who made the merge committed in its place
#   CACHE/NNNN/row                 the corpus row (repository, commits, path, ranges)
# The corpus (hunks.tsv) holds only commit ids, paths and 0-based, end-exclusive line ranges.
# Usage: regenerate.sh [CACHE] ; mirrors folder: $PADDOCK_CORPUS_MIRRORS (default /work/.mirror), each
# repository a bare git directory at MIRRORS/owner+name/repo (as the fetch tool lays them out).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${1:-target/conflict-corpus-cache}
mirrors=${PADDOCK_CORPUS_MIRRORS:-/work/.mirror}
missing=$(tail -n +2 "$here/hunks.tsv" | cut -f1 | sort -u | while read -r r; do
  [ -d "$mirrors/$r/repo/objects" ] || echo "$r"; done)
if [ -n "$missing" ]; then
  echo "regenerate.sh: no mirror in $mirrors for:" $missing >&2
  echo "fetch them (e.g. github:owner/name) or set PADDOCK_CORPUS_MIRRORS" >&2
  exit 1
fi
mkdir -p "$cache"
slice() { # commit path start end
  if [ "$3" -lt "$4" ]; then git --git-dir="$git" show "$1:$2" | sed -n "$(($3 + 1)),$4p"; fi
}
n=0
tail -n +2 "$here/hunks.tsv" | while IFS=$'\t' read -r repo merge ours theirs base path hunk bs be os oe ts te ms me; do
  n=$((n + 1))
  d=$(printf '%s/%04d' "$cache" "$n")
  mkdir -p "$d"
  git="$mirrors/$repo/repo"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$repo" "$merge" "$ours" "$theirs" "$base" "$path" "$hunk" > "$d/row"
  slice "$base" "$path" "$bs" "$be" > "$d/base"
  slice "$ours" "$path" "$os" "$oe" > "$d/ours"
  slice "$theirs" "$path" "$ts" "$te" > "$d/theirs"
  slice "$merge" "$path" "$ms" "$me" > "$d/merged"
done
echo "wrote $(tail -n +2 "$here/hunks.tsv" | wc -l) hunks under $cache"
