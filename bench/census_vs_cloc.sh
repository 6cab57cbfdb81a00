#!/usr/bin/env bash
# Benchmarks `onramp census` against cloc and cat on Debian's installed
# PyTorch (headers from libtorch-dev, Python from python3-torch), and checks
# that the per-language counts agree with cloc's within 1%.
# Usage: bench/census_vs_cloc.sh [path/to/onramp]
set -euo pipefail
onramp=${1:-build/onramp}
corpus=(/usr/include/ATen /usr/include/c10 /usr/include/torch
        /usr/lib/python3/dist-packages/torch /usr/lib/python3/dist-packages/torchgen)
for d in "${corpus[@]}"; do [[ -d $d ]] || { echo "missing $d: install libtorch-dev python3-torch" >&2; exit 2; }; done
command -v cloc >/dev/null || { echo "cloc is not installed (apt-get install cloc)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Warm the page cache so that every tool reads from memory.
find "${corpus[@]}" -type f -print0 | xargs -0 cat > /dev/null

best() {  # best wall seconds of 3 runs of "$@"; peak RSS (KB) of the best run in $work/rss
  local best_t="" t rss
  for _ in 1 2 3; do
    /usr/bin/time -f "%e %M" -o "$work/t" "$@" > /dev/null 2>&1
    read -r t rss < "$work/t"
    if [[ -z $best_t ]] || awk "BEGIN{exit !($t < $best_t)}"; then best_t=$t; echo "$rss" > "$work/rss"; fi
  done
  echo "$best_t"
}

t_onramp=$(best "$onramp" census "${corpus[@]}")
rss_onramp=$(cat "$work/rss")
t_cat=$(best sh -c "find ${corpus[*]} -type f -print0 | xargs -0 cat")
/usr/bin/time -f "%e" -o "$work/t" cloc --skip-uniqueness --quiet --json "${corpus[@]}" > /dev/null 2>&1
t_cloc=$(cat "$work/t")
cloc --skip-uniqueness --quiet --by-file --json "${corpus[@]}" > "$work/cloc.json" 2>/dev/null
"$onramp" census --by-file --json "${corpus[@]}" > "$work/onramp.json"

echo "corpus: ${corpus[*]}"
printf 'onramp census  %6.2f s  peak RSS %d KB (limit 65536)\n' "$t_onramp" "$rss_onramp"
printf 'cat            %6.2f s\n' "$t_cat"
printf 'cloc           %6.2f s\n' "$t_cloc"
awk -v o="$t_onramp" -v c="$t_cloc" -v k="$t_cat" 'BEGIN{
  printf "cloc / onramp  %6.1fx (goal >= 15)\n", c/o
  printf "onramp / cat   %6.2fx (goal <= 1.5)\n", o/k }'
python3 - "$work/cloc.json" "$work/onramp.json" <<'PY'
import json, sys
cloc = {k: v for k, v in json.load(open(sys.argv[1])).items() if k not in ("header", "SUM")}
rep = json.load(open(sys.argv[2]))
tables = {t["key"]: t["rows"] for t in rep["sections"]["census"]["tables"]}
mine = {r["path"]: r for r in tables["lines_by_file"]}
kinds = ("blank", "comment", "code")
for lang in ("C/C++ Header", "C++", "Python"):
    files = [k for k, v in cloc.items() if v["language"] == lang]
    c = {k: sum(cloc[f][k] for f in files) for k in kinds}
    m = {k: sum(mine[f][k] for f in files if f in mine) for k in kinds}
    parts = [f"{k} {m[k]} vs {c[k]} ({(m[k]-c[k])/max(c[k],1)*100:+.2f}%)" for k in kinds]
    print(f"{lang:13} {len(files)} files  " + "  ".join(parts))
    diffs = sorted(((abs(mine[f]["comment"] - cloc[f]["comment"]) + abs(mine[f]["code"] - cloc[f]["code"]), f)
                    for f in files if f in mine), reverse=True)
    for d, f in diffs[:3]:
        if d:
            print(f"    largest difference: {f}: comment {mine[f]['comment']} vs {cloc[f]['comment']}, "
                  f"code {mine[f]['code']} vs {cloc[f]['code']}")
PY
echo "(why the Python figures differ where they do: docs/census.md, 'Differences from cloc')"
