#!/usr/bin/env bash
# Runs every native Go fuzz target of the module (func FuzzXxx in a
# _test.go file, found automatically) for about FUZZTIME each (default
# 30s; a number of seconds, with or without a trailing s), one at a time.
# Fails on the first crasher; go test then writes the failing input under
# the package's testdata/fuzz/FuzzXxx/ — commit it with the fix so that
# it runs in 'make test' from then on.
#
# Budgets are execution counts, never wall-clock: Go's fuzzing
# coordinator before Go 1.27 (golang/go#75804) can fail a target with a
# bare "context deadline exceeded" when a duration -fuzztime expires
# while a worker is mid-execution — no input written, nothing to
# reproduce. CI hit it twice in three runs on FuzzReadMatrices (55000
# execs/s to the last second). With a count (-fuzztime Nx) the
# coordinator has no deadline to race. To keep the time budget, a target
# runs in bursts: a first burst of FUZZFIRST executions (default 2000)
# measures its rate, later bursts are sized to fill what remains of
# FUZZTIME (each burst first replays the corpus the earlier ones found).
# A target slower than FUZZFIRST executions per FUZZTIME overruns by its
# first burst (the slowest here, FuzzEigen, runs about 3000 per second).
#
# New interesting inputs are minimized for at most FUZZMINIMIZETIME
# (default 5s): with go's default, 60s, a short run spends most of its
# time minimizing one input, executing no others (measured: a 60s run of
# FuzzReadMatrices stalled after 3s).
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${FUZZTIME:-30s}
budget=${budget%s}
case $budget in ''|*[!0-9]*) echo "fuzz: FUZZTIME must be whole seconds, like 30s (got ${FUZZTIME})" >&2; exit 2;; esac
first=${FUZZFIRST:-2000}
minimize=${FUZZMINIMIZETIME:-5s}
go=${GO:-go}
targets=$(grep -rl --include='*_test.go' -E '^func Fuzz[A-Z][A-Za-z0-9_]*\(' . | sort)
[ -n "$targets" ] || { echo "fuzz: no targets found" >&2; exit 1; }

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# A FuzzXxx in a file the default build leaves out (build constraints)
# is no target of the package: go test -fuzz matching no target runs
# nothing and exits 0, which would read as a pass. go test -list names
# the package's targets; the others are skipped, and said so.
n=0 skipped=()
for f in $targets; do
  pkg=./$(dirname "${f#./}")
  listed=$($go test "$pkg" -list '^Fuzz') || { echo "fuzz: go test $pkg -list failed" >&2; exit 1; }
  for name in $(grep -oE '^func Fuzz[A-Z][A-Za-z0-9_]*' "$f" | sed 's/^func //'); do
    if ! grep -qx "$name" <<<"$listed"; then
      echo "fuzz: SKIPPED $pkg $name: not a fuzz target of the default build ($f; build constraints?)" >&2
      skipped+=("$pkg $name")
      continue
    fi
    left=$(( budget * 1000 ))   # milliseconds
    execs=$first total=0 bursts=0
    while :; do
      echo "fuzz: $pkg $name, $execs executions ($(( left / 1000 ))s of ${budget}s left)" >&2
      t0=$(now_ms)
      $go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "${execs}x" \
        -fuzzminimizetime "$minimize" ||
        { echo "fuzz: $pkg $name failed" >&2; exit 1; }
      dt=$(( $(now_ms) - t0 )); [ "$dt" -gt 0 ] || dt=1
      total=$(( total + execs )) bursts=$(( bursts + 1 )) left=$(( left - dt ))
      # Stop when less than a second is left, or a burst would be tiny.
      [ "$left" -ge 1000 ] || break
      # The measured rate includes the burst's start (build cache, corpus
      # replay), so the next burst rather ends early than late.
      execs=$(( execs * left / dt ))
      [ "$execs" -ge "$first" ] || break
    done
    echo "fuzz: $pkg $name: $total executions in $bursts bursts, no failure" >&2
    n=$((n+1))
  done
done
if [ ${#skipped[@]} -gt 0 ]; then
  echo "fuzz: $n targets, about ${budget}s each, no failure; ${#skipped[@]} skipped (not in the default build): $(IFS=,; echo "${skipped[*]}")" >&2
else
  echo "fuzz: $n targets, about ${budget}s each, no failure" >&2
fi
