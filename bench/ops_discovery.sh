#!/usr/bin/env bash
# Times `onramp ops` discovery on a repository (a work tree, or a bare git
# directory read at a revision), with the schema given so that no Python
# start-up is counted. Prints the wall time of each run and the inventories found.
#   bench/ops_discovery.sh REPO [REV] [RUNS]
#   bench/ops_discovery.sh /work/.mirror/pytorch+xla/repo HEAD 5
set -euo pipefail
repo=${1:?usage: bench/ops_discovery.sh REPO [REV] [RUNS]}
rev=${2:-}
runs=${3:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
onramp=${ONRAMP:-$root/build/onramp}
schema=${ATEN:-$root/../shared/data/aten-2024/native_functions.yaml}
[ -f "$schema" ] || schema=/usr/lib/python3/dist-packages/torchgen/packaged/ATen/native/native_functions.yaml
args=(ops --aten "$schema" --json "$repo")
[ -n "$rev" ] && args+=(--rev "$rev")
for i in $(seq "$runs"); do
  start=$(date +%s.%N)
  "$onramp" "${args[@]}" > /tmp/onramp-ops-bench.json
  end=$(date +%s.%N)
  printf 'run %d: %.3f s\n' "$i" "$(echo "$end - $start" | bc)"
done
python3 - /tmp/onramp-ops-bench.json <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))["sections"]["ops"]
figures = {f["key"]: f["value"] for f in report["figures"]}
print(f"files read: {figures['files_read']}, inventories: {figures['inventories_found']}")
for table in report["tables"]:
    if table["key"] == "inventories":
        for row in table["rows"]:
            key = f" key {row['dispatch_key']}, {row['blocks']} blocks," if row.get('blocks') else ""
            print(f"  {row['where']} {row['kind']} {row['name']}:{key} {row['members']} members, {row['resolved']} resolved")
PY
