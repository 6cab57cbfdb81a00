#!/usr/bin/env bash
# Makes the venv of the test tools that come from the package index:
# check-jsonschema (validates `onramp plan`'s workflows against GitHub's
# workflow schema, which it ships), ruff (lints the Python onramp runs) and
# pytest (its unit tests). Made from python3; their versions are pinned.
#
#   scripts/tools-venv.sh VENV_DIR
#
# A venv that is complete (its marker file exists) is left as it is.
set -euo pipefail
venv="${1:?usage: scripts/tools-venv.sh VENV_DIR}"
check_jsonschema_version=0.39.0
ruff_version=0.17.5
pytest_version=9.2.0
# The marker names every pinned version: a venv made for other pins is made anew.
marker="$venv/.onramp-tools-complete-$check_jsonschema_version-$ruff_version-$pytest_version"
[[ -f "$marker" ]] && exit 0
py="${TOOLS_PYTHON:-python3}"
echo "tools-venv: making $venv from $py with check-jsonschema $check_jsonschema_version," \
  "ruff $ruff_version and pytest $pytest_version" >&2
rm -rf "$venv"
"$py" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --progress-bar off "check-jsonschema==$check_jsonschema_version" \
  "ruff==$ruff_version" "pytest==$pytest_version"
"$venv/bin/check-jsonschema" --version >&2
"$venv/bin/ruff" --version >&2
"$venv/bin/pytest" --version >&2
touch "$marker"
