#!/usr/bin/env bash
# The seed article's experiment, run for real on the package index's backends with one command each,
# `onramp audit REQUIREMENT`: torch-tpu 0.2.0 end to end on the torch 2.x host (twice: the second run
# must download nothing), then the newest torch-npu, torch-xla and intel-extension-for-pytorch, each
# as far as this host allows. A benchmark, not a test: it downloads from the package index and prints
# each figure, then sets every audit side by side in one page (compare.html, `onramp compare --html`);
# docs/real-backends.md records one run. torch is never downloaded: without
# --allow-torch-download, onramp constrains pip to the interpreter's own torch.
#   bench/real-backends.sh [WORKDIR]        (default: a new directory under /tmp)
#   ONRAMP=path/to/onramp HOST=path/to/venv/bin/python bench/real-backends.sh /tmp/real
# ALLOW_TORCH_DOWNLOAD=1 lets each backend take the torch it asks for (several GB: said before it starts).
# The download cache is WORKDIR/cache (so that the first audit's downloads are measured), or CACHE=DIR.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
onramp=$(realpath "${ONRAMP:-$root/build/onramp}")
host=$(realpath -s "${HOST:-$root/build/host-torch-2.13/bin/python}")
work=$(realpath -m "${1:-$(mktemp -d /tmp/onramp-real-XXXXXX)}")
tpu_req='torch-tpu==0.2.0'
others=(torch-npu torch-xla intel-extension-for-pytorch)
declare -A device=([torch-npu]=npu [torch-xla]=xla [intel-extension-for-pytorch]=xpu)
torch_flags=()
[ "${ALLOW_TORCH_DOWNLOAD:-0}" = 1 ] && torch_flags=(--allow-torch-download)

[ -x "$onramp" ] || { echo "real-backends.sh: $onramp: no onramp binary (build it first)" >&2; exit 2; }
[ -x "$host" ] || { echo "real-backends.sh: $host: no torch 2.x host (make host)" >&2; exit 2; }
host_torch=$("$host" -c 'import importlib.metadata as m; print(m.version("torch"))')
mkdir -p "$work"
cd "$work"
export XDG_CACHE_HOME=${CACHE:-$work/cache}

cat <<EOF
Work directory: $work (about 2 GB is written here); onramp's download cache: $XDG_CACHE_HOME/onramp
Host: $host (torch $host_torch)
This downloads from the package index (sizes as of December 2026), each file once (the cache keeps it):
  torch-tpu 0.2.0's cp311 wheel (96 MB), libtpu 0.0.52 (137 MB) and torch-tpu's small dependencies (about 16 MB)
  the newest torch-npu (44 MB), torch-xla (80 MB) and intel-extension-for-pytorch (50 MB) wheels
EOF
if [ ${#torch_flags[@]} -gt 0 ]; then
  echo "  ALLOW_TORCH_DOWNLOAD=1: and the torch each backend asks for (0.5 to 0.9 GB a wheel, several GB with CUDA)"
else
  echo "  never torch: a backend that needs another torch stops before its install (ALLOW_TORCH_DOWNLOAD=1 lifts it)"
fi

# fig REPORT SECTION KEY...: "key = value unit" for figures of one section of an onramp JSON report.
fig() {
  python3 - "$@" <<'PY'
import json, sys
sections = json.load(open(sys.argv[1]))["sections"]
figs = {f["key"]: f for f in sections.get(sys.argv[2], {}).get("figures", [])}
for key in sys.argv[3:]:
    f = figs.get(key)
    if not f:
        print(f"  {key}: not in the report")
    elif f["value"] is None:
        print(f"  {key}: not measured: {f.get('not_measured', '')}")
    else:
        print(f"  {key} = {f['value']} {f.get('unit', '')}".rstrip())
PY
}

# rows REPORT SECTION TABLE [N]: the first N rows of a table of an onramp JSON report.
rows() {
  python3 - "$@" <<'PY'
import json, sys
path, section, key, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 50
for t in json.load(open(path))["sections"].get(section, {}).get("tables", []):
    if t.get("key") == key:
        for r in t.get("rows", [])[:n]:
            print("   ", " | ".join(str(v)[:200] for v in r.values()))
PY
}

# wheels REPORT: the figures of every wheel section.
wheels() {
  python3 - "$1" <<'PY'
import json, sys
for name, s in json.load(open(sys.argv[1]))["sections"].items():
    if name.startswith("wheel"):
        figs = {f["key"]: f["value"] for f in s.get("figures", [])}
        print(f"  {name}: " + ", ".join(f"{k}={figs.get(k)}" for k in (
            "archive_bytes", "unpacked_bytes", "native_files", "native_bytes", "glibc_floor", "requires_python",
            "readme_python_minimum", "readme_agrees", "torch_satisfied")))
PY
}

# audit NAME REQUIREMENT [ARGS...]: one audit, timed; prints the figures the article made by hand.
audit() {
  local name=$1 req=$2
  shift 2
  rm -rf "run-$name"
  local start rc=0
  start=$(date +%s.%N)
  "$onramp" audit "$req" --python "$host" --strict --out "$work/run-$name" --json -o "$name.json" "$@" || rc=$?
  printf '  onramp audit %s: exit %s, %.1f s\n' "$req" "$rc" "$(echo "$(date +%s.%N) - $start" | bc)"
  rows "$name.json" verdict steps
  fig "$name.json" verdict audit_wall_seconds child_process_seconds network_seconds onramp_share blockers frictions
  fig "$name.json" index resolved_count torch torch_constraint downloaded_bytes cache_hit_bytes temp_forecast_bytes \
    release_files release_bytes taken_file
  echo "  resolution:"; rows "$name.json" index resolution
  wheels "$name.json"
  fig "$name.json" install temp_estimate_bytes peak_temp_bytes venv_seconds pip_seconds installed_count \
    footprint_bytes native_bytes
  echo "  footprint by top-level directory (over 1 MB):"
  python3 - "$name.json" <<'PY'
import json, sys
for t in json.load(open(sys.argv[1]))["sections"].get("install", {}).get("tables", []):
    if t["key"] == "footprint_dirs":
        for r in t["rows"]:
            if r["bytes"] > 1_000_000:
                print(f"    {r['distribution']}: {r['directory']} {r['bytes']:,} bytes ({r['native_bytes']:,} native)")
PY
  fig "$name.json" probe import_cold_s import_warm_median_s import_peak_rss_bytes import_warnings \
    privateuse1_backend_name runtime_registered_ops
  echo "  stderr during the cold import:"; rows "$name.json" probe import_stderr 5
  echo "  torch.accelerator:"; rows "$name.json" probe device_api 200 | grep -E 'accelerator' || true
  echo "  device strings after the import:"; rows "$name.json" probe device_strings
  fig "$name.json" examples statements statements_ok statements_failed shell_commands
  return 0
}

echo; echo "== 1. $tpu_req, the wheel's own README (its METADATA description)"
audit tpu "$tpu_req" --profile torch_tpu "${torch_flags[@]}"

echo; echo "== 2. $tpu_req again, with the article's four lines: nothing may be downloaded"
printf '# The four lines\n\n```python\nimport torch\nimport torch_tpu\ndevice = torch.device("tpu")\nx = torch.randn((4, 4), device=device)\n```\n' > four-lines.md
audit tpu-again "$tpu_req" --profile torch_tpu --docs four-lines.md "${torch_flags[@]}"
rows tpu-again.json examples statements_1

echo; echo "== 3. The other backends, newest release, as far as this host allows"
for dist in "${others[@]}"; do
  audit "$dist" "$dist" --device "${device[$dist]}" "${torch_flags[@]}"
done

echo; echo "== 4. The audits side by side: one page, a grouped bar chart per family of figures"
reports=()
for name in tpu tpu-again "${others[@]}"; do
  [ -s "$name.json" ] && reports+=("$work/$name.json")
done
if [ ${#reports[@]} -ge 2 ]; then
  rc=0
  "$onramp" compare --html -o "$work/compare.html" "${reports[@]}" || rc=$?
  "$onramp" compare --markdown -o "$work/compare.md" "${reports[@]}" || rc=$?
  echo "  onramp compare of ${#reports[@]} reports: exit $rc; $work/compare.html, $work/compare.md"
else
  echo "  onramp compare: not run, fewer than two audits wrote a report (${#reports[@]})"
fi
echo; echo "Reports: $work/*.json; run directories: $work/run-*; side by side: $work/compare.html"
