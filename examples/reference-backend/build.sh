#!/usr/bin/env bash
# Builds the ref backend against one interpreter's torch, offline, out of tree.
#
#   build.sh             compile the extension (onramp_ref/_C*.so)
#   build.sh WHEEL_DIR   that, then build the wheel into WHEEL_DIR
#   build.sh --where     print the directory to put on PYTHONPATH (onramp's
#                        --path) for this interpreter and torch; builds nothing
#
# PYTHON is the interpreter whose torch the extension is built against
# (default /usr/bin/python3, Debian's, which has torch). Each interpreter and
# torch gets its own directory, build/py<X.Y>-torch<version>/, holding a copy
# of the sources, the objects and the compiled package: two hosts with the
# same Python tag (Debian's 3.11 with torch 1.13, a venv's 3.11 with torch
# 2.13) would otherwise share objects and an in-place _C*.so. A second run
# with nothing changed only checks timestamps. MAX_JOBS bounds parallel
# compiles (default 2).
#
# The wheel declares Requires-Python >=3.12, so pip on an older interpreter
# refuses even to build it; --ignore-requires-python builds it anyway, with
# that metadata unchanged. ONRAMP_REF_REQUIRES_PYTHON overrides the metadata
# itself (see setup.py).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="${PYTHON:-/usr/bin/python3}"
# A relative path names a file from here: build.sh changes directory later.
[[ "$python" == */* && "$python" != /* ]] && python="$PWD/$python"
export MAX_JOBS="${MAX_JOBS:-2}"

# The host's key, read from metadata without importing torch.
key="$("$python" -I -c 'import sys; from importlib import metadata
print("py%d.%d-torch%s" % (sys.version_info[0], sys.version_info[1], metadata.version("torch")))' 2>/dev/null)" || {
  echo "build.sh: $python has no torch (set PYTHON to an interpreter with torch and its C++ headers)" >&2
  exit 2
}
out="$here/build/$key"
if [[ "${1:-}" == "--where" ]]; then
  echo "$out/src"
  exit 0
fi

# Debian's ccache wrappers, keyed relative to the source copy, so that another
# clone of the project (the fresh-clone test) reuses the compiled objects.
if [[ -d /usr/lib/ccache ]]; then
  export PATH="/usr/lib/ccache:$PATH" CCACHE_BASEDIR="$out/src"
fi

# The wheel directory is relative to where build.sh was called from: resolve
# it before changing directory.
wheel_dir=""
if [[ $# -ge 1 ]]; then
  [[ -n "${1// /}" ]] || { echo "build.sh: WHEEL_DIR: empty path" >&2; exit 2; }
  mkdir -p "$1"
  wheel_dir="$(cd "$1" && pwd)"
fi

# Builds that overlap (parallel test runs) share the directory: take turns.
mkdir -p "$out/src"
exec 9>"$out/.lock"
flock 9
# The sources, copied when newer (cp -u), so that setuptools' timestamps stay
# right; built objects and caches are not copied. (tar --keep-newer-files,
# used before, fails with status 2 on tar 1.35, Debian 13's, for every file
# that is not newer.)
(cd "$here" && find csrc onramp_ref tests setup.py setup.cfg pyproject.toml README.md \
   -name __pycache__ -prune -o -name '*.so' -o -type f -print0) |
  while IFS= read -r -d '' f; do
    mkdir -p "$out/src/$(dirname "$f")"
    cp -u --preserve=timestamps "$here/$f" "$out/src/$f"
  done
cd "$out/src"
"$python" setup.py -q build_ext --inplace

if [[ -n "$wheel_dir" ]]; then
  "$python" -m pip wheel -q --no-deps --no-build-isolation --no-index --ignore-requires-python -w "$wheel_dir" "$out/src"
  # pip leaves the build's metadata (onramp_ref.egg-info) in the source copy, which tests put on
  # PYTHONPATH: its entry points (a variant's torch.backends) would reach every interpreter there.
  rm -rf "$out/src/onramp_ref.egg-info"
fi
