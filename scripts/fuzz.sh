#!/usr/bin/env bash
# Runs every native Go fuzz target of the module (func FuzzXxx in a
# _test.go file, found automatically) for FUZZTIME each (default 30s),
# one at a time. New interesting inputs are minimized for at most
# FUZZMINIMIZETIME (default 5s): with go's default, 60s, a short run
# spends most of its time minimizing one input, executing no others
# (measured: a 60s run of FuzzReadMatrices stalled after 3s). Fails on
# the first crasher; go test then writes the failing input under the
# package's testdata/fuzz/FuzzXxx/ — commit it with the fix so that it
# runs in 'make test' from then on.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-30s}
minimize=${FUZZMINIMIZETIME:-5s}
go=${GO:-go}
targets=$(grep -rl --include='*_test.go' -E '^func Fuzz[A-Z][A-Za-z0-9_]*\(' . | sort)
[ -n "$targets" ] || { echo "fuzz: no targets found" >&2; exit 1; }
n=0
for f in $targets; do
  pkg=./$(dirname "${f#./}")
  for name in $(grep -oE '^func Fuzz[A-Z][A-Za-z0-9_]*' "$f" | sed 's/^func //'); do
    echo "fuzz: $pkg $name for $fuzztime" >&2
    $go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -fuzzminimizetime "$minimize"
    n=$((n+1))
  done
done
echo "fuzz: $n targets, $fuzztime each, no failure" >&2
