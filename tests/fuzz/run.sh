#!/usr/bin/env bash
# Runs every fuzz target of BUILD (configured with -DPTXMMA_FUZZ=ON, built with `--target fuzzers`)
# for SECONDS each, or until RUNS executions, from its seeds (tests/fuzz/corpus/<target>). New
# inputs go to BUILD/fuzz-corpus/<target>, failing ones to BUILD/fuzz-artifacts/, the whole log to
# BUILD/fuzz-<target>.log. Exit status 1 if any target found a crash, a leak or a timeout.
#   tests/fuzz/run.sh BUILD SECONDS [RUNS] [TARGET...]
set -uo pipefail
build=$1 seconds=$2 runs=${3:--1}
shift $(($# < 3 ? $# : 3))
targets=("$@")
source "$(dirname "$0")/targets.sh"
[ ${#targets[@]} -eq 0 ] && targets=("${default_targets[@]}")
status=0
for t in "${targets[@]}"; do
  mkdir -p "$build/fuzz-corpus/$t" "$build/fuzz-artifacts"
  log="$build/fuzz-$t.log"
  # shellcheck disable=SC2046  # dict_of prints one word or nothing
  "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -runs="$runs" -timeout=25 -rss_limit_mb=2048 $(dict_of "$t") \
    -max_len="${max_len[$t]}" -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/$t-" \
    "$build/fuzz-corpus/$t" "$seeds/$t" >"$log" 2>&1 || status=1
  echo "== $t: $(grep -E '^Done' "$log" || echo 'FAILED')"
  grep -E '^#[0-9]+\s+DONE|stat::number_of_executed_units|stat::peak_rss_mb|ERROR|SUMMARY' "$log"
  if grep -q -E 'ERROR|SUMMARY' "$log"; then
    # What a CI log must keep of a failure: its cause and the input, to copy into the seeds.
    grep -E -A3 'terminate called|what\(\)|runtime error|ERROR: (Address|Undefined|Leak)' "$log" | head -20
    for a in "$build"/fuzz-artifacts/"$t"-*; do
      [ -f "$a" ] && { echo "-- $a:"; head -c 4096 "$a" | od -A d -c | head -40; }
    done
  fi
done
exit $status
