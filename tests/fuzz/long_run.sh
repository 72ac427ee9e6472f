#!/usr/bin/env bash
# The long fuzz run of docs/robustness.md: every target of FUZZ_DIR (the fuzz_<target> programs of a
# -DPTXMMA_FUZZ=ON build) in libFuzzer's fork mode with WORKERS processes for SECONDS each,
# continuing from OUT/corpus/<target> (kept between runs) and the seeds (tests/fuzz/corpus).
# Failing inputs go to OUT/artifacts, logs to OUT/<target>.log; prints each target's executions.
#   tests/fuzz/long_run.sh FUZZ_DIR OUT WORKERS SECONDS [TARGET...]
set -uo pipefail
fuzz=$1 out=$2 workers=$3 seconds=$4
shift 4
targets=("$@")
source "$(dirname "$0")/targets.sh"
[ ${#targets[@]} -eq 0 ] && targets=("${default_targets[@]}")
status=0
for t in "${targets[@]}"; do
  mkdir -p "$out/corpus/$t" "$out/artifacts"
  # shellcheck disable=SC2046  # dict_of prints one word or nothing
  "$fuzz/fuzz_$t" -fork="$workers" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2048 $(dict_of "$t") \
    -max_len="${max_len[$t]}" -artifact_prefix="$out/artifacts/$t-" \
    "$out/corpus/$t" "$seeds/$t" >"$out/$t.log" 2>&1 || status=1
  # Fork mode reports "#<executions>: cov: ... crash: c/t/o" lines; the last is the total.
  echo "== $t: $(grep -aE '^#[0-9]+: cov' "$out/$t.log" | tail -1)"
  grep -aE 'ERROR|SUMMARY|deadly|crash-|leak-|timeout-' "$out/$t.log" | head -5
done
exit $status
