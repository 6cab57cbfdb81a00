#!/usr/bin/env bash
# Times `onramp census` and `onramp ops` on hostile git repositories built
# here with plain git commands, and prints each run's wall time and peak RSS
# (/usr/bin/time -v):
#   - a "git bomb": 8 trees, the top 7 linking one subtree 10 times each, the
#     last naming one 6-byte blob 10 times: 100,000,000 paths in 10 objects;
#   - a 400 MB blob (big.py, zeros and newlines), over the default
#     --max-file-size of 100 MB, and the same file in a work tree.
# Usage: bench/hostile_git.sh [path/to/onramp]   (the release build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
onramp=${1:-$root/build/onramp}
schema=$root/tests/e2e/fixtures/ops/native_functions.yaml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@e GIT_COMMITTER_NAME=b GIT_COMMITTER_EMAIL=b@e

measure() {  # label, then the command; prints wall seconds, peak RSS and exit code
  local label=$1 rc=0
  shift
  /usr/bin/time -v -o "$work/time" "$@" > "$work/out" 2> "$work/err" || rc=$?
  local wall rss
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time")
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time")
  printf '%-44s wall %8s  peak RSS %7.1f MB  exit %d\n' "$label" "$wall" "$(echo "$rss / 1024" | bc -l)" "$rc"
  [[ $rc -eq 0 ]] || sed 's/^/    /' "$work/err" | head -2
}

bomb=$work/bomb.git
git init -q --bare "$bomb"
(
  cd "$bomb"
  b=$(printf 'hello\n' | git hash-object -w --stdin)
  t=$(for i in 0 1 2 3 4 5 6 7 8 9; do printf '100644 blob %s\tf%d.py\n' "$b" $i; done | git mktree)
  for _ in 1 2 3 4 5 6 7; do
    t=$(for i in 0 1 2 3 4 5 6 7 8 9; do printf '040000 tree %s\td%d\n' "$t" $i; done | git mktree)
  done
  git update-ref refs/heads/main "$(git commit-tree "$t" -m bomb)"
  git symbolic-ref HEAD refs/heads/main
)
echo "bomb: $(du -sk "$bomb" | cut -f1) KB on disk, $(git -C "$bomb" count-objects -v | sed -n 's/^count: //p') objects"
measure "census bomb (10^8 paths)" "$onramp" census --json "$bomb"
python3 -c 'import json,sys; f={x["key"]: x["value"] for x in json.load(open(sys.argv[1]))["sections"]["census"]["figures"]}; print("    files_total", f["files_total"], "contents_read", f["contents_read"])' "$work/out"
measure "census --by-file bomb (stops at --max-paths)" "$onramp" census --by-file "$bomb"
measure "ops bomb (stops at --max-paths)" "$onramp" ops --aten "$schema" "$bomb"

big=$work/big
mkdir -p "$big"
head -c 400M /dev/zero | tr '\0' '\n' > "$big/big.py"
printf 'x = 1\n' > "$big/small.py"
git -C "$big" init -q
git -C "$big" add -A
git -C "$big" commit -qm big
echo "big: $(du -sk "$big/.git" | cut -f1) KB of git objects for a $(stat -c %s "$big/big.py")-byte blob"
measure "census --rev HEAD, 400 MB blob" "$onramp" census --json --rev HEAD "$big"
measure "census work tree, 400 MB file" "$onramp" census --json "$big"
measure "ops --rev HEAD, 400 MB blob" "$onramp" ops --aten "$schema" --json --rev HEAD "$big"
measure "census --rev HEAD --max-file-size 1G (read)" "$onramp" census --json --rev HEAD --max-file-size 1073741824 "$big"
measure "census work tree --max-file-size 1G (read)" "$onramp" census --json --max-file-size 1073741824 "$big"
