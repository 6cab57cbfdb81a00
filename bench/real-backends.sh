#!/usr/bin/env bash
# The seed article's experiment, run for real on the package index's backends with onramp's separate
# subcommands (wheel, install, probe, examples): torch-tpu 0.2.0 end to end on the torch 2.x host, and
# the newest torch-npu, torch-xla and intel-extension-for-pytorch as far as this host allows.
# A benchmark, not a test: it downloads from the package index and prints each figure; docs/real-backends.md
# records one run. torch is never downloaded: every pip call is constrained to the host's own torch.
#   bench/real-backends.sh [WORKDIR]        (default: a new directory under /tmp)
#   ONRAMP=path/to/onramp HOST=path/to/venv/bin/python bench/real-backends.sh /tmp/real
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
onramp=$(realpath "${ONRAMP:-$root/build/onramp}")
# An absolute interpreter path: onramp runs it from another directory.
host=$(realpath -s "${HOST:-$root/build/host-torch-2.13/bin/python}")
work=$(realpath -m "${1:-$(mktemp -d /tmp/onramp-real-XXXXXX)}")
tpu_req='torch-tpu==0.2.0'
others=(torch-npu torch-xla intel-extension-for-pytorch)
declare -A module=([torch-npu]=torch_npu [torch-xla]=torch_xla [intel-extension-for-pytorch]=intel_extension_for_pytorch)
declare -A device=([torch-npu]=npu [torch-xla]=xla [intel-extension-for-pytorch]=xpu)
max_other_bytes=$((300 * 1000 * 1000))

[ -x "$onramp" ] || { echo "real-backends.sh: $onramp: no onramp binary (build it first)" >&2; exit 2; }
[ -x "$host" ] || { echo "real-backends.sh: $host: no torch 2.x host (make host)" >&2; exit 2; }
host_torch=$("$host" -c 'import importlib.metadata as m; print(m.version("torch"))')
mkdir -p "$work"
cd "$work"
echo "torch==$host_torch" > torch-pin.txt
pin=(--constraint "$work/torch-pin.txt")

cat <<EOF
Work directory: $work (about 2.5 GB is written here and in pip's cache)
Host: $host (torch $host_torch)
This downloads from the package index (sizes as of December 2026):
  torch-tpu 0.2.0: the cp311 wheel (96 MB; pip's cache serves the later steps) and the cp312 wheel (96 MB)
  libtpu 0.0.52 (137 MB) and torch-tpu's small dependencies (about 16 MB: grpcio, pillow, pyzmq, ...)
  the newest torch-npu (44 MB), torch-xla (80 MB), intel-extension-for-pytorch (50 MB) wheels, each
  only when its cp311 manylinux x86_64 file is under $((max_other_bytes / 1000000)) MB
  never torch: pip is constrained to torch==$host_torch; a backend pinning another torch is not installed
EOF

# fig REPORT KEY...: "key = value unit" for each figure of an onramp JSON report.
fig() {
  python3 - "$@" <<'PY'
import json, sys
figs = {f["key"]: f for s in json.load(open(sys.argv[1]))["sections"].values() for f in s.get("figures", [])}
for key in sys.argv[2:]:
    f = figs.get(key)
    print(f"  {key} = {f['value']} {f.get('unit', '')}".rstrip() if f else f"  {key}: not in the report")
PY
}

# rows REPORT TABLE [N]: the first N rows of a table of an onramp JSON report.
rows() {
  python3 - "$@" <<'PY'
import json, sys
path, key, n = sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 50
for s in json.load(open(path))["sections"].values():
    for t in s.get("tables", []):
        if t.get("key") == key:
            for r in t.get("rows", [])[:n]:
                print("   ", " | ".join(str(v)[:220] for v in r.values()))
PY
}

# index_size NAME VERSION: size in bytes of the cp311 manylinux x86_64 wheel, from the index's JSON
# simple page (PEP 691), the index pip itself uses by default; empty when not found.
index_size() {
  "$host" - "$1" "$2" <<'PY' 2>/dev/null || true
import json, sys, urllib.request
from pip._internal.models.index import PyPI
name, ver = sys.argv[1], sys.argv[2]
req = urllib.request.Request(f"{PyPI.simple_url}/{name}/", headers={"Accept": "application/vnd.pypi.simple.v1+json"})
files = json.load(urllib.request.urlopen(req, timeout=60))["files"]
stem = name.replace("-", "_")
for f in files:
    fn = f["filename"]
    if fn.split("-")[0].lower() in (name, stem) and f"-{ver}-cp311-cp311-" in fn and "manylinux" in fn and fn.endswith("x86_64.whl"):
        print(f["size"]); break
PY
}

echo; echo "== 1. Resolution of $tpu_req from the host (its torch satisfies torch-tpu's torch range)"
"$host" -m pip install --dry-run --report resolution.json "${pin[@]}" "$tpu_req" > resolution.log 2>&1
grep -E '^(Would install|Requirement already satisfied: (torch|numpy)[<>=! ])' resolution.log | sed 's/ (from .*//' || true
echo "  downloaded to resolve (pip prints each size):"
grep -E '^  Downloading ' resolution.log | sed 's/^  Downloading /    /' || true
python3 - resolution.json <<'PY'
import json, sys
for i in json.load(open(sys.argv[1]))["install"]:
    m = i["metadata"]
    print(f"    {m['name']} {m['version']}: Requires-Python {m.get('requires_python')}, {i['download_info']['url'].rsplit('/', 1)[-1]}")
PY
libtpu_version=$(python3 -c 'import json,sys; print(next(i["metadata"]["version"] for i in json.load(open(sys.argv[1]))["install"] if i["metadata"]["name"]=="libtpu"))' resolution.json)

echo; echo "== 2. The release's files, read where they lie (onramp wheel)"
"$host" -m pip download --no-deps -d wheels "$tpu_req" "libtpu==$libtpu_version" > download.log 2>&1
"$host" -m pip download --no-deps --only-binary=:all: --python-version 3.12 -d wheels312 "$tpu_req" >> download.log 2>&1
python3 - wheels/torch_tpu-*.whl <<'PY'
import email, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
meta = email.message_from_bytes(z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))))
open("README.md", "w").write(meta.get_payload())
PY
echo "  README.md: the wheel's METADATA description ($(wc -l < README.md) lines)"
for w in wheels/*.whl wheels312/*.whl; do
  out=wheel-$(basename "$w" .whl).json
  "$onramp" wheel --python "$host" --readme README.md "$w" --json -o "$out"
  echo "  $w"
  fig "$out" archive_bytes unpacked_bytes native_files native_bytes glibc_floor requires_python \
    requires_python_satisfied torch_satisfied readme_python_minimum metadata_python_minimum readme_agrees
  rows "$out" requires_dist
done

echo; echo "== 3. Install (onramp install, a venv that sees the host's torch)"
rm -rf run
start=$(date +%s.%N)
"$onramp" install "$tpu_req" --python "$host" --system-site-packages --pip-args "--constraint $work/torch-pin.txt" \
  --out "$work/run" --json -o install.json
printf '  onramp install wall time: %.1f s\n' "$(echo "$(date +%s.%N) - $start" | bc)"
fig install.json temp_estimate_bytes temp_fs_type temp_fits peak_temp_bytes venv_seconds pip_seconds \
  installed_count footprint_bytes native_bytes
rows install.json installed
venv_py=$work/run/venv/bin/python

echo; echo "== 4. Probe (onramp probe), with torch's backend autoload as a user gets it"
rm -rf probe probe-noautoload
"$onramp" probe --module torch_tpu --python "$venv_py" --device tpu --runs 3 --out "$work/probe" --json -o probe.json
fig probe.json import_cold_s import_warm_min_s import_warm_median_s import_warm_max_s import_peak_rss_bytes \
  native_library_bytes import_warnings has_backend_autoload autoload_entry_points privateuse1_backend_name \
  runtime_registered_ops
echo "  stderr during the cold import:"; rows probe.json import_stderr
echo "  device API:"; rows probe.json device_api 200 | grep -E 'accelerator|is_available|device_count|current_device |get_device_name' || true
echo "  device strings before the import:"; rows probe.json device_strings_before_import
echo "  device strings after the import:"; rows probe.json device_strings
echo "  registrations (autoload on):"; rows probe.json runtime_registrations
echo "  registrations with TORCH_DEVICE_BACKEND_AUTOLOAD=0 (import torch no longer loads torch_tpu):"
"$onramp" probe --module torch_tpu --python "$venv_py" --device tpu --no-import \
  --env TORCH_DEVICE_BACKEND_AUTOLOAD=0 --out "$work/probe-noautoload" --json -o probe-noautoload.json
rows probe-noautoload.json runtime_registrations

echo; echo "== 5. Examples (onramp examples): the wheel's README, and the article's four lines"
printf '# The four lines\n\n```python\nimport torch\nimport torch_tpu\ndevice = torch.device("tpu")\nx = torch.randn((4, 4), device=device)\n```\n' > four-lines.md
rm -rf examples-readme examples-four
"$onramp" examples README.md --python "$venv_py" --module torch_tpu --out "$work/examples-readme" --json -o examples-readme.json
fig examples-readme.json statements shell_commands
"$onramp" examples four-lines.md --python "$venv_py" --profile torch_tpu --out "$work/examples-four" --json -o examples-four.json
fig examples-four.json statements statements_ok statements_failed root_failures following_failures
rows examples-four.json statements_1

echo; echo "== 6. The other backends, newest release, as far as this host allows"
mkdir -p others
for dist in "${others[@]}"; do
  mod=${module[$dist]}
  version=$("$host" -m pip index versions "$dist" 2>/dev/null | sed -n 's/^[^ ]* (\(.*\))$/\1/p' | head -1)
  echo "  $dist: newest for cp311 on this platform: ${version:-none}"
  [ -n "$version" ] || continue
  size=$(index_size "$dist" "$version")
  if [ -z "$size" ] || [ "$size" -gt "$max_other_bytes" ]; then
    echo "    no cp311 manylinux x86_64 wheel under $((max_other_bytes / 1000000)) MB (size: ${size:-not found}): not downloaded"
    continue
  fi
  "$host" -m pip download --no-deps --only-binary=:all: -d others "$dist==$version" >> download.log 2>&1
  w=$(ls others/"$mod"-"$version"-*.whl)
  "$onramp" wheel --python "$host" "$w" --json -o "wheel-$mod.json"
  fig "wheel-$mod.json" archive_bytes unpacked_bytes native_files native_bytes glibc_floor requires_python torch_satisfied
  rows "wheel-$mod.json" requires_dist | grep -i torch || echo "    (no torch in Requires-Dist)"
  torch_pin=$(unzip -p "$w" '*.dist-info/METADATA' | sed -n 's/^Requires-Dist: torch *==\([0-9][0-9.]*[0-9]\).*/\1/p' | head -1)
  if [ -n "$torch_pin" ]; then
    want=$torch_pin
    echo "    pins torch $want (\"$(unzip -p "$w" '*.dist-info/METADATA' | sed -n 's/^Requires-Dist: \(torch *==.*\)/\1/p' | head -1 | tr -d '\r')\"); torch $want's cp311 wheel alone: $(index_size torch "$want") bytes (plus its CUDA dependencies): not installed here"
  fi
  # Installed without its dependencies onto the host's torch, to see what importing it does there.
  rm -rf "run-$mod" "probe-$mod"
  "$onramp" install "$w" --python "$host" --system-site-packages --pip-args --no-deps --out "$work/run-$mod" \
    --json -o "install-$mod.json"
  fig "install-$mod.json" pip_seconds footprint_bytes native_bytes
  "$onramp" probe --module "$mod" --python "$work/run-$mod/venv/bin/python" --device "${device[$dist]}" --runs 1 \
    --out "$work/probe-$mod" --json -o "probe-$mod.json"
  rows "probe-$mod.json" import_runs
  rows "probe-$mod.json" runtime_registrations
done
echo; echo "Reports: $work/*.json; run directories: $work/run*, $work/probe*"
