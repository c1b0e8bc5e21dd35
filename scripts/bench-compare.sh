#!/usr/bin/env bash
# bench-compare.sh BASE [NEW] — compare the benchmark suite of two revisions.
#
# Builds the bench package's test binary for BASE (in a temporary
# `git worktree`) and for NEW (a revision, likewise; default: the working
# tree, i.e. HEAD plus uncommitted changes), runs the two binaries
# alternately ROUNDS times (-test.count=1 each, order ABBA… so that drift
# in machine load hits both equally), and prints benchstat's comparison
# (golang.org/x/perf/cmd/benchstat at the version pinned in go.mod, built
# from the module cache, so it works offline once the module is cached).
#
# Environment (all optional):
#   BENCH      -test.bench regexp               (default: Core); several
#              space-separated ones run one after the other in every round
#              (a -test.bench pattern reports only benchmarks at least as
#              deep as it has /-levels, so names of different depths need
#              separate patterns)
#   BENCHTIME  -test.benchtime per run          (default: 200ms)
#   ROUNDS     alternating runs of each binary  (default: 8; benchstat wants ≥ 6)
#   CPU        -test.cpu, i.e. GOMAXPROCS        (default: 1; also OpenBLAS threads)
#   SHORT      1: pass -test.short (small sizes only)      (default: 0)
#   ALPHA      benchstat's -alpha: a change is shown (not "~") if p < ALPHA
#              (default: 0.05)
#   TAGS       build tags (default: openblas when lapacke.h is installed)
#   OUT        directory for old.txt, new.txt, benchstat.txt/.csv
#              (default: bench/out/compare-<base>-<time>)
#
# Exit status: 0 on success, also when BASE has no BenchmarkCore suite or
# does not build (a message says the comparison was skipped, and
# OUT/skipped exists); 1 if NEW (a revision or the working tree) has no
# BenchmarkCore or does not build, or a run fails; 2 on usage errors.
set -euo pipefail

usage() { echo "usage: $0 BASE [NEW]   (see the header of $0)" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
base=$1
new=${2:-}

root=$(git rev-parse --show-toplevel)
cd "$root"
BENCH=${BENCH:-Core}
BENCHTIME=${BENCHTIME:-200ms}
ROUNDS=${ROUNDS:-8}
CPU=${CPU:-1}
SHORT=${SHORT:-0}
ALPHA=${ALPHA:-0.05}
if [ -z "${TAGS+x}" ]; then
  TAGS=
  if [ -f /usr/include/lapacke.h ] || [ -f /usr/include/x86_64-linux-gnu/lapacke.h ]; then
    TAGS=openblas
  fi
fi

base_rev=$(git rev-parse --verify -q "$base^{commit}") || { echo "bench-compare: unknown revision $base" >&2; exit 2; }
new_rev=
if [ -n "$new" ]; then
  new_rev=$(git rev-parse --verify -q "$new^{commit}") || { echo "bench-compare: unknown revision $new" >&2; exit 2; }
fi
OUT=${OUT:-$root/bench/out/compare-$(git rev-parse --short "$base_rev")-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
rm -f "$OUT/old.txt" "$OUT/new.txt" "$OUT/skipped"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-compare.XXXXXX")
worktrees=()
cleanup() {
  for w in "${worktrees[@]}"; do
    git -C "$root" worktree remove --force "$w" >/dev/null 2>&1 || true
  done
  git -C "$root" worktree prune >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

skip() {
  echo "bench-compare: SKIPPED: $*" | tee "$OUT/skipped" >&2
  exit 0
}

has_suite() { # rev, or "" for the working tree
  if [ -n "$1" ]; then
    git grep -q 'func BenchmarkCore' "$1" -- bench/ 2>/dev/null
  else
    grep -qs 'func BenchmarkCore' bench/*.go
  fi
}

# build REV|"" OUTPUT: compile the bench test binary of REV (in a temporary
# worktree) or of the working tree.
build() {
  local rev=$1 bin=$2 dir=$root
  if [ -n "$rev" ]; then
    dir=$tmp/wt-$(basename "$bin" .test)
    git -C "$root" worktree add --detach --quiet "$dir" "$rev"
    worktrees+=("$dir")
  fi
  (cd "$dir" && go test -c -tags "$TAGS" -o "$bin" ./bench/)
}

has_suite "$base_rev" || skip "$base ($(git rev-parse --short "$base_rev")) has no BenchmarkCore in bench/ (commits before the suite existed)"
# NEW without the suite is an error, a revision as the working tree: its
# runs would print no benchmark, and a comparison with nothing on one side
# reads as "no change".
has_suite "$new_rev" || { echo "bench-compare: ${new:-the working tree} has no BenchmarkCore in bench/" >&2; exit 1; }

echo "bench-compare: building $base ($(git rev-parse --short "$base_rev")) and ${new:-the working tree}, tags '${TAGS}'" >&2
if ! build "$base_rev" "$tmp/old.test" 2>"$tmp/base-build.log"; then
  cat "$tmp/base-build.log" >&2
  skip "$base does not build"
fi
build "$new_rev" "$tmp/new.test"

# benchstat at the version go.mod pins (its `tool` directive): built once
# from the module cache, so it needs no network after the first download.
benchstat=$root/bench/out/.tools/benchstat
mkdir -p "$(dirname "$benchstat")"
(cd "$root" && go build -o "$benchstat" golang.org/x/perf/cmd/benchstat)

read -ra patterns <<<"$BENCH"
args=(-test.run '^$' -test.benchtime "$BENCHTIME" -test.count 1 -test.cpu "$CPU")
[ "$SHORT" = 1 ] && args+=(-test.short)
export GOMAXPROCS=$CPU SYMBO_OPENBLAS_THREADS=$CPU

runone() { # which
  local pat
  for pat in "${patterns[@]}"; do
    "$tmp/$1.test" "${args[@]}" -test.bench "$pat" >>"$OUT/$1.txt" 2>"$tmp/$1.err" || {
      cat "$tmp/$1.err" >&2
      echo "bench-compare: the $1 binary failed" >&2
      exit 1
    }
  done
}

start=$(date +%s)
for ((r = 1; r <= ROUNDS; r++)); do
  if ((r % 2)); then runone old; runone new; else runone new; runone old; fi
  echo "bench-compare: round $r/$ROUNDS done ($(( $(date +%s) - start )) s)" >&2
done

cd "$OUT"
"$benchstat" -alpha "$ALPHA" -format csv old.txt new.txt >benchstat.csv 2>/dev/null
"$benchstat" -alpha "$ALPHA" old.txt new.txt | tee benchstat.txt
echo "bench-compare: results in $OUT" >&2
