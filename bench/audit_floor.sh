#!/usr/bin/env bash
# How far `onramp audit` is from its floor: what a person does by hand to get
# the same backend installed and imported once. For the reference backend
# (examples/reference-backend, audited as `make run` does) and for torch-tpu
# 0.2.0 from the package index (cache warm), the floor and the audit are run
# three times each, interleaved (floor, audit, floor, audit, ...), and each
# audit's wall time is divided by the floor just before it. A benchmark, not a
# test: it times things and downloads from the package index (torch-tpu's
# files, about 250 MB, once, into the cache). docs/speed.md records one run.
#
# The floor, each time in a fresh venv made like the audit's (the host venv's
# interpreter, --system-site-packages --without-pip, a .pth naming the host's
# site-packages, where its torch and pip are):
#   reference: python -m venv; pip install the wheel file (--no-index,
#              --ignore-requires-python, as the audit); one `import onramp_ref`
#              in a fresh interpreter (ONRAMP_REF_DEVICE_COUNT=0, as the audit).
#   torch-tpu: python -m venv; pip's resolution of the requirement against the
#              package index (pip install --dry-run --report, the host's torch
#              pinned, an empty pip cache: as the audit's resolve step); pip
#              install of the same requirement from the files the audit took
#              (--no-index --find-links to its wheelhouse); one `import
#              torch_tpu` in a fresh interpreter.
# Each part is timed as the wall time of its process (date +%s.%N around it).
#
#   bench/audit_floor.sh [WORKDIR]
#   ONRAMP=path/to/onramp HOST=path/to/venv/bin/python CACHE=dir bench/audit_floor.sh /tmp/floor
# JOBS=N passes --jobs N to the audits (default: onramp's, the core count).
# ONLY=reference or ONLY=tpu runs one of the two.
# NO_KEPT_RESOLUTION=1 removes the cache's kept resolutions before each
# torch-tpu audit: the first audit of a request, files cached (by default the
# warming audit leaves its resolution kept, and each audit begins its wheel
# read and install from it while pip resolves again).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
onramp=$(realpath "${ONRAMP:-$root/build/onramp}")
host=$(realpath -s "${HOST:-$root/build/host-torch-2.13/bin/python}")
work=$(realpath -m "${1:-$(mktemp -d /tmp/onramp-floor-XXXXXX)}")
runs=3
tpu_req='torch-tpu==0.2.0'
jobs_flag=()
[ -n "${JOBS:-}" ] && jobs_flag=(--jobs "$JOBS")

[ -x "$onramp" ] || { echo "audit_floor.sh: $onramp: no onramp binary (build it first)" >&2; exit 2; }
[ -x "$host" ] || { echo "audit_floor.sh: $host: no torch 2.x host (make host)" >&2; exit 2; }
mkdir -p "$work"
cd "$work"
export XDG_CACHE_HOME=${CACHE:-$work/cache}
host_site=$("$host" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
host_torch=$("$host" -c 'import importlib.metadata as m; print(m.version("torch"))')
py_minor=$("$host" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')

now() { date +%s.%N; }
since() { echo "$(now) - $1" | bc; }

echo "onramp: $onramp ($("$onramp" --version 2>/dev/null || echo 'version unknown'))"
echo "host: $host (Python $py_minor, torch $host_torch); cores: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "work directory: $work; onramp's cache: $XDG_CACHE_HOME/onramp"

# fresh_venv DIR: a venv like the audit's, in the time it takes.
fresh_venv() {
  rm -rf "$1"
  "$host" -m venv --system-site-packages --without-pip "$1"
  echo "$host_site" > "$1/lib/python$py_minor/site-packages/_onramp_floor_host.pth"
}

# floor_reference WHEEL: prints "venv pip import total" in seconds.
floor_reference() {
  local v=$work/floor-venv t0 venv pip imp cache
  t0=$(now); fresh_venv "$v"; venv=$(since "$t0")
  cache=$(mktemp -d "$work/pip-cache-XXXXXX")
  t0=$(now)
  PIP_CACHE_DIR=$cache "$v/bin/python" -m pip install -q --progress-bar off --no-index \
    --ignore-requires-python "$1" >/dev/null
  pip=$(since "$t0")
  t0=$(now); ONRAMP_REF_DEVICE_COUNT=0 "$v/bin/python" -c 'import onramp_ref' || echo "  (import onramp_ref failed)" >&2
  imp=$(since "$t0")
  rm -rf "$cache"
  echo "$venv $pip $imp $(echo "$venv + $pip + $imp" | bc)"
}

# floor_tpu WHEELHOUSE: prints "venv resolve pip import total" in seconds.
floor_tpu() {
  local v=$work/floor-venv t0 venv res pip imp cache
  t0=$(now); fresh_venv "$v"; venv=$(since "$t0")
  cache=$(mktemp -d "$work/pip-cache-XXXXXX")
  echo "torch==$host_torch" > "$work/torch-constraint.txt"
  t0=$(now)
  PIP_CACHE_DIR=$cache "$v/bin/python" -m pip install -q --dry-run --report "$work/floor-report.json" \
    -c "$work/torch-constraint.txt" "$tpu_req" >/dev/null
  res=$(since "$t0")
  t0=$(now)
  PIP_CACHE_DIR=$cache "$v/bin/python" -m pip install -q --progress-bar off --no-index --find-links "$1" \
    -c "$work/torch-constraint.txt" "$tpu_req" >/dev/null
  pip=$(since "$t0")
  t0=$(now); "$v/bin/python" -c 'import torch_tpu' 2>/dev/null || echo "  (import torch_tpu failed)" >&2
  imp=$(since "$t0")
  rm -rf "$cache"
  echo "$venv $res $pip $imp $(echo "$venv + $res + $pip + $imp" | bc)"
}

# audit_once NAME ARGS...: the audit's wall time in seconds (its exit status is the report's business).
audit_once() {
  local name=$1 t0
  shift
  rm -rf "$work/run-$name"
  t0=$(now)
  "$onramp" audit "$@" "${jobs_flag[@]}" --out "$work/run-$name" --json -o "$work/$name.json" >/dev/null 2>"$work/$name.log" || true
  since "$t0"
}

# steps REPORT: the audit's steps and their seconds, on one line.
steps() {
  python3 - "$1" <<'PY'
import json, sys
for t in json.load(open(sys.argv[1]))["sections"]["verdict"]["tables"]:
    if t["key"] == "steps":
        print("    steps: " + ", ".join(f"{r['step']} {r['seconds']:.2f}" + (f" (x{r['ran_at_once']})" if r.get("ran_at_once", 1) > 1 else "")
                                      for r in t["rows"] if r["status"] != "skipped"))
PY
}

# summary NAME RATIOS...: min / median / max of the ratios.
summary() {
  local name=$1
  shift
  python3 - "$name" "$@" <<'PY'
import statistics, sys
name, ratios = sys.argv[1], [float(x) for x in sys.argv[2:]]
print(f"{name}: audit / floor = " + ", ".join(f"{r:.2f}" for r in ratios) +
      f"; min {min(ratios):.2f}, median {statistics.median(ratios):.2f}, max {max(ratios):.2f}")
PY
}

if [ "${ONLY:-}" != tpu ]; then
  echo
  echo "== the reference backend (examples/reference-backend), as make run audits it"
  rm -rf "$work/reference-wheel"
  PYTHON=$host "$root/examples/reference-backend/build.sh" "$work/reference-wheel" >/dev/null 2>&1
  wheel=$(ls -t "$work"/reference-wheel/onramp_ref-*.whl | head -n 1)
  ratios=()
  for i in $(seq 1 $runs); do
    read -r venv pip imp floor < <(floor_reference "$wheel")
    audit=$(audit_once "reference-$i" "$root/examples/reference-backend" --profile reference --env ONRAMP_REF_DEVICE_COUNT=0 \
      --python "$host" --wheel "$wheel" --pip-args=--ignore-requires-python)
    ratio=$(echo "scale=4; $audit / $floor" | bc)
    ratios+=("$ratio")
    printf '  run %s: floor %.2f s (venv %.2f, pip %.2f, import %.2f); audit %.2f s; ratio %.2f\n' \
      "$i" "$floor" "$venv" "$pip" "$imp" "$audit" "$ratio"
    steps "$work/reference-$i.json"
  done
  summary reference "${ratios[@]}"
fi

if [ "${ONLY:-}" != reference ]; then
  echo
  echo "== $tpu_req from the package index, cache warm"
  echo "  warming the cache (one audit, not counted; downloads only what the cache lacks)"
  audit_once tpu-warm "$tpu_req" --python "$host" --profile torch_tpu >/dev/null
  wheelhouse=$work/run-tpu-warm/wheelhouse
  [ -d "$wheelhouse" ] || { echo "audit_floor.sh: the warming audit left no wheelhouse (see $work/tpu-warm.log)" >&2; exit 1; }
  ratios=()
  for i in $(seq 1 $runs); do
    read -r venv res pip imp floor < <(floor_tpu "$wheelhouse")
    [ -n "${NO_KEPT_RESOLUTION:-}" ] && rm -rf "$XDG_CACHE_HOME/onramp/resolutions"
    audit=$(audit_once "tpu-$i" "$tpu_req" --python "$host" --profile torch_tpu)
    ratio=$(echo "scale=4; $audit / $floor" | bc)
    ratios+=("$ratio")
    printf '  run %s: floor %.2f s (venv %.2f, resolve %.2f, pip %.2f, import %.2f); audit %.2f s; ratio %.2f\n' \
      "$i" "$floor" "$venv" "$res" "$pip" "$imp" "$audit" "$ratio"
    steps "$work/tpu-$i.json"
  done
  summary "$tpu_req" "${ratios[@]}"
fi
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
