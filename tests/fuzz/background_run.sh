#!/usr/bin/env bash
# long_run.sh for a machine lent one command at a time (docs/robustness.md, "On a lent machine"):
# the targets run in the background, past the command that starts them, and are read back later.
#   background_run.sh start FUZZ_DIR OUT SECONDS GOAL TARGET:WORKERS...
#       one long_run.sh per target in its own session, for SECONDS at most, and a monitor that
#       stops a target once it passed GOAL executions (its workers go back to the others)
#   background_run.sh wait OUT SECONDS
#       waits until every target ended or SECONDS passed, then prints each one's last progress
#       line and whatever failed
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
executions() { grep -aoE '^#[0-9]+: cov' "$1" 2>/dev/null | tail -1 | tr -dc 0-9; }
running() {
  for p in "$1"/*.pid; do kill -0 "$(cat "$p")" 2>/dev/null && return 0; done
  return 1
}
case $1 in
  start)
    fuzz=$2 out=$3 seconds=$4 goal=$5
    shift 5
    mkdir -p "$out"
    for tw in "$@"; do
      # setsid makes the job its own process group, so that the monitor can stop it whole.
      setsid "$here/long_run.sh" "$fuzz" "$out" "${tw#*:}" "$seconds" "${tw%:*}" \
        >"$out/${tw%:*}.out" 2>&1 </dev/null &
      echo $! >"$out/${tw%:*}.pid"
    done
    setsid "$0" monitor "$out" "$goal" >"$out/monitor.txt" 2>&1 </dev/null & ;;
  monitor)
    out=$2 goal=$3
    while running "$out"; do
      sleep 10
      for p in "$out"/*.pid; do
        t=$(basename "$p" .pid) n=$(executions "$out/$t.log")
        [ -e "$out/$t.stopped" ] || [ -z "$n" ] || [ "$n" -lt "$goal" ] && continue
        kill -INT -- "-$(cat "$p")" 2>/dev/null
        touch "$out/$t.stopped"
        echo "$(date -u +%T) $t stopped at $n executions"
      done
    done ;;
  wait)
    out=$2 end=$((SECONDS + $3))
    while [ $SECONDS -lt "$end" ] && running "$out"; do sleep 5; done
    for l in "$out"/*.log; do
      echo "== $(basename "$l" .log): $(grep -aE '^#[0-9]+: cov' "$l" | tail -1)"
      grep -aE 'ERROR|SUMMARY|deadly|crash-|leak-|timeout-' "$l" | head -5
    done
    cat "$out/monitor.txt"
    ls "$out/artifacts" ;;
esac
