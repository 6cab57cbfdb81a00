#!/usr/bin/env bash
# Runs each libFuzzer harness of a fuzz build for a bounded time, one after the
# other, and prints per harness: seconds, executions and crash inputs written.
# Usage: fuzz/run_fuzzers.sh BUILD_DIR SECONDS [HARNESS...]
# FUZZ_ARGS adds libFuzzer flags, e.g. FUZZ_ARGS=-max_len=262144 for inputs
# long enough to exhaust a recursive parser's stack (the default is 4096).
# New inputs go to BUILD_DIR/corpus/<harness>/ (the committed seeds in
# fuzz/corpus/ are read, never written); crashes to BUILD_DIR/crashes/.
set -euo pipefail
build=$1 seconds=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
if (($# == 0)); then
  mapfile -t harnesses < <(cd "$build/fuzz" && ls fuzz_* | sed 's/^fuzz_//')
else
  harnesses=("$@")
fi
mkdir -p "$build/crashes"
failed=0
printf '%-20s %8s %12s %8s\n' harness seconds executions crashes
for h in "${harnesses[@]}"; do
  mkdir -p "$build/corpus/$h"
  log="$build/crashes/$h.log"
  status=0
  start=$SECONDS
  # -timeout: an input that runs 10 s is a hang, and a hang is a bug here.
  # shellcheck disable=SC2086  # FUZZ_ARGS is a list of flags
  "$build/fuzz/fuzz_$h" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 ${FUZZ_ARGS:-} \
    -artifact_prefix="$build/crashes/$h-" "$build/corpus/$h" "$here/corpus/$h" >"$log" 2>&1 || status=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  secs=$((SECONDS - start))
  crashes=$(ls "$build/crashes" | grep -c "^$h-" || true)
  printf '%-20s %8s %12s %8s\n' "$h" "$secs" "${execs:-?}" "$crashes"
  if ((status != 0)); then
    failed=1
    grep -m3 -E 'ERROR|runtime error|SUMMARY' "$log" | sed 's/^/    /' || true
  fi
done
exit $failed
