#!/usr/bin/env bash
# Builds the ref backend against the machine's torch, offline.
#
#   build.sh             compile the extension in place (onramp_ref/_C*.so)
#   build.sh WHEEL_DIR   that, then build the wheel into WHEEL_DIR
#
# PYTHON is the interpreter whose torch the extension is built against
# (default /usr/bin/python3, Debian's, which has torch). Objects and wheel
# staging go under build/ here; a second run with nothing changed only checks
# timestamps. MAX_JOBS bounds parallel compiles (default 2).
#
# The wheel declares Requires-Python >=3.12, so pip on an older interpreter
# refuses even to build it; --ignore-requires-python builds it anyway, with
# that metadata unchanged. ONRAMP_REF_REQUIRES_PYTHON overrides the metadata
# itself (see setup.py).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="${PYTHON:-/usr/bin/python3}"
export MAX_JOBS="${MAX_JOBS:-2}"
# Debian's ccache wrappers, keyed relative to this folder, so that another
# clone of the project (the fresh-clone test) reuses the compiled objects.
if [[ -d /usr/lib/ccache ]]; then
  export PATH="/usr/lib/ccache:$PATH" CCACHE_BASEDIR="$here"
fi

# The wheel directory is relative to where build.sh was called from: resolve
# it before changing directory.
wheel_dir=""
if [[ $# -ge 1 ]]; then
  [[ -n "${1// /}" ]] || { echo "build.sh: WHEEL_DIR: empty path" >&2; exit 2; }
  mkdir -p "$1"
  wheel_dir="$(cd "$1" && pwd)"
fi

cd "$here"
# Builds that overlap (parallel test runs) share build/: take turns.
mkdir -p build
exec 9>build/.lock
flock 9
"$python" setup.py -q build_ext --inplace

if [[ -n "$wheel_dir" ]]; then
  "$python" -m pip wheel -q --no-deps --no-build-isolation --no-index --ignore-requires-python -w "$wheel_dir" "$here"
fi
