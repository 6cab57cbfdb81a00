#!/usr/bin/env bash
# Makes the torch 2.x host: a venv holding torch 2.13.0 (CPU build), made from
# a Python 3.11 (the local wheel is cp311), with torch taken from a wheel file
# already on this machine, never downloaded (the package index's torch is a
# CUDA build of several GB). Its small dependencies (numpy, sympy, ...) come
# from pip's configured index.
#
#   scripts/host-venv.sh VENV_DIR
#
# HOST_PYTHON: the interpreter to make it from (default: python3.11, else a
# python3 that is 3.11). TORCH_FIND_LINKS: a directory holding the torch wheel,
# when pip's own configuration (find-links) does not point at one.
# A venv that is complete (its marker file exists) is left as it is.
set -euo pipefail
venv="${1:?usage: scripts/host-venv.sh VENV_DIR}"
torch_version=2.13.0
marker="$venv/.onramp-host-complete"
[[ -f "$marker" ]] && exit 0

py=""
for candidate in "${HOST_PYTHON:-}" python3.11 python3 /usr/bin/python3.11; do
  [[ -n "$candidate" ]] || continue
  if "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; then
    py="$candidate"
    break
  fi
done
if [[ -z "$py" ]]; then
  echo "host-venv: no Python 3.11 found (tried \$HOST_PYTHON, python3.11, python3): the local torch $torch_version wheel is cp311; set HOST_PYTHON" >&2
  exit 2
fi

# Where pip would take torch from, asked offline (--no-index: only find-links).
report="$(mktemp)"
trap 'rm -f "$report"' EXIT
links=()
[[ -n "${TORCH_FIND_LINKS:-}" ]] && links=(--find-links "$TORCH_FIND_LINKS")
if ! "$py" -m pip install --quiet --dry-run --no-deps --no-index --ignore-installed "${links[@]}" \
     --report "$report" "torch==$torch_version" 2>/dev/null; then
  echo "host-venv: no local wheel file of torch $torch_version for $("$py" -V 2>&1) in pip's find-links; give a directory holding one (a CPU build, e.g. torch-$torch_version+cpu-cp311-...whl) with TORCH_FIND_LINKS=DIR" >&2
  exit 2
fi
wheel="$("$py" -c 'import json, sys, urllib.parse, urllib.request
url = json.load(open(sys.argv[1]))["install"][0]["download_info"]["url"]
print(urllib.request.url2pathname(urllib.parse.urlparse(url).path))' "$report")"

echo "host-venv: making $venv from $py with $wheel" >&2
rm -rf "$venv"
"$py" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --progress-bar off "$wheel" numpy setuptools wheel
"$venv/bin/python" -c 'import torch; print("host-venv: torch", torch.__version__, "in", torch.__file__)' >&2
touch "$marker"
