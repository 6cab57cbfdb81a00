#!/usr/bin/env bash
# Installs the Debian packages in scripts/debian-packages.txt that are missing.
# Runs `apt-get update` only when something has to be installed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
release=$(. /etc/os-release && echo "${VERSION_ID:-}")
lists=("$here/debian-packages.txt")
if [[ -f "$here/debian-packages-$release.txt" ]]; then
  lists+=("$here/debian-packages-$release.txt")
else
  echo "install-deps: no scripts/debian-packages-$release.txt for this release (${release:-unknown}); installing the common list only" >&2
fi
mapfile -t wanted < <(cat "${lists[@]}" | grep -v '^\s*#' | grep -v '^\s*$')
missing=()
for pkg in "${wanted[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
