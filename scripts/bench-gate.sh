#!/usr/bin/env bash
# bench-gate.sh [BASE] — CI's performance regression gate.
#
# Runs the short core suite (go test -short -bench Core: Grams at n = 55,
# eigendecompositions at n = 55, GEMM at n = 200, every backend compiled
# in) of BASE and of the working tree, interleaved, via
# scripts/bench-compare.sh, and fails when some benchmark's sec/op is
# more than THRESHOLD percent slower (default 25) with benchstat's p < 0.05.
#
# Why this holds up on a noisy shared 2-core machine:
#   - Interleaving: old and new binaries alternate (ABBA…) in one job, so
#     load from other processes and frequency changes hit both samples
#     alike instead of biasing whichever ran second.
#   - ROUNDS (default 8) independent runs per side; benchstat compares
#     medians and tests with Mann–Whitney U, which is rank-based, so a few
#     runs disturbed by a neighbour move neither the statistic nor p much.
#   - A slowdown must be both significant (p < 0.05) and large (> 25%):
#     far above the few-percent run-to-run noise of these benchmarks, so
#     the gate catches real regressions (an accidentally quadratic loop, a
#     lost fast path, per-op allocations) rather than jitter.
#   - GOMAXPROCS and OpenBLAS threads pinned to CPU (default 1): a
#     single-threaded benchmark is much less sensitive to a busy second
#     core than one that needs both.
#   - Retry: benchmarks flagged in the first pass are re-measured alone
#     with RETRY_ROUNDS (default 10) fresh interleaved rounds; the gate
#     fails only if they are flagged again. A burst of contention would
#     have to strike both passes, and the same side, to fail a build.
# Cost: ~1–2 min on CI's machine (two test binaries built, then each
# round takes ~5 s per side).
#
# BASE defaults to the tag bench-base — the last commit whose CI passed,
# which the maintainers move (git tag -f bench-base COMMIT) once CI has
# passed on a landed submission — when it is an ancestor of HEAD other
# than HEAD itself: a submission of many commits is then compared as a
# whole, so a regression in any of them counts, not only in its last
# commit. Without the tag (a clone that did not fetch it), HEAD~1.
#
# Skips (exit 0, with a message) when there is no git history, when BASE
# does not exist (shallow clone: fetch with depth ≥ 2 to enable the gate),
# when BASE predates the suite, and when BASE does not build. Set
# BENCH_GATE=0 to skip it.
set -euo pipefail
cd "$(dirname "$0")/.."
here=$(pwd)

if [ "${BENCH_GATE:-1}" = 0 ]; then
  echo "bench-gate: SKIPPED (BENCH_GATE=0)"; exit 0
fi
if [ $# -ge 1 ]; then
  base=$1
elif git rev-parse -q --verify 'refs/tags/bench-base^{commit}' >/dev/null 2>&1 &&
  git merge-base --is-ancestor bench-base HEAD 2>/dev/null &&
  [ "$(git rev-parse 'bench-base^{commit}')" != "$(git rev-parse HEAD)" ]; then
  base=bench-base
else
  base=HEAD~1
fi
THRESHOLD=${THRESHOLD:-25}
ALPHA=${ALPHA:-0.05}
export CPU=${CPU:-1} SHORT=1 BENCHTIME=${BENCHTIME:-100ms}
ROUNDS=${ROUNDS:-8}
RETRY_ROUNDS=${RETRY_ROUNDS:-10}

if ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo "bench-gate: SKIPPED: not a git checkout"; exit 0
fi
if ! git rev-parse --verify -q "$base^{commit}" >/dev/null; then
  echo "bench-gate: SKIPPED: $base is not available (shallow clone? fetch with --depth=2 or more)"; exit 0
fi

out=${OUT:-$here/bench/out/gate-$(date +%Y%m%d-%H%M%S)}
start=$(date +%s)

# flagged CSV: print "name pct p" for every sec/op row slower than
# THRESHOLD% with p < ALPHA.
flagged() {
  awk -F, -v thr="$THRESHOLD" -v alpha="$ALPHA" '
    $2 != "" && $3 == "CI" { unit = $2; next }   # a table header: ,sec/op,CI,…
    unit == "sec/op" && $1 != "" && $1 != "geomean" && NF >= 7 {
      pct = $6; p = $7
      if (pct !~ /^[+-][0-9.]+%$/) next          # "~" (not significant) or "?"
      sub(/%$/, "", pct); sub(/^p=/, "", p); sub(/ .*/, "", p)
      if (pct + 0 > thr + 0 && p + 0 < alpha + 0) printf "%s %s%% p=%s\n", $1, pct, p
    }' "$1"
}

# bench_patterns NAME…: space-separated -test.bench expressions selecting
# these benchmarks, one per name depth (a pattern only reports benchmarks
# with at least as many /-levels); per level, the alternation of the
# names' parts, a harmless superset when they differ in several levels.
bench_patterns() {
  printf '%s\n' "$@" | awk -F/ '
    { d = NF; depth[d] = 1
      for (i = 1; i <= NF; i++) if (!((d, i, $i) in seen)) { seen[d, i, $i] = 1; lv[d, i] = lv[d, i] (lv[d, i] == "" ? "" : "|") $i } }
    END { sep = ""
      for (d in depth) {
        printf "%s", sep; sep = " "
        for (i = 1; i <= d; i++) { s = lv[d, i]; gsub(/[][.^$*+?(){}\\]/, "\\\\&", s)
          printf "%s^(%s)$", (i > 1 ? "/" : ""), (i == 1 ? "Benchmark" s : s) }
      }
      print "" }'
}

echo "bench-gate: short core suite, $base vs working tree, $ROUNDS interleaved rounds, GOMAXPROCS=$CPU, threshold +$THRESHOLD% at p < $ALPHA"
OUT=$out/pass1 ROUNDS=$ROUNDS BENCH=Core scripts/bench-compare.sh "$base"
if [ -e "$out/pass1/skipped" ]; then
  echo "bench-gate: SKIPPED ($(cat "$out/pass1/skipped"))"; exit 0
fi
mapfile -t bad < <(flagged "$out/pass1/benchstat.csv")
if [ ${#bad[@]} -eq 0 ]; then
  echo "bench-gate: PASS: no sec/op regression above $THRESHOLD% (p < $ALPHA); took $(( $(date +%s) - start )) s"
  exit 0
fi
printf 'bench-gate: flagged in pass 1: %s\n' "${bad[@]}"
names=()
for l in "${bad[@]}"; do
  n=${l%% *}
  [ "$CPU" = 1 ] || n=${n%-"$CPU"}   # benchstat keeps the -GOMAXPROCS suffix
  names+=("$n")
done
re=$(bench_patterns "${names[@]}")
echo "bench-gate: re-measuring the flagged benchmarks ($re), $RETRY_ROUNDS rounds"
OUT=$out/pass2 ROUNDS=$RETRY_ROUNDS BENCH=$re scripts/bench-compare.sh "$base"
mapfile -t bad2 < <(flagged "$out/pass2/benchstat.csv")
still=()
for l in "${bad2[@]}"; do
  n=${l%% *}
  [ "$CPU" = 1 ] || n=${n%-"$CPU"}
  for m in "${names[@]}"; do [ "$n" = "$m" ] && still+=("$l"); done
done
if [ ${#still[@]} -eq 0 ]; then
  echo "bench-gate: PASS: pass-1 flags not confirmed on re-measurement (noise); took $(( $(date +%s) - start )) s"
  exit 0
fi
printf 'bench-gate: FAIL: %s\n' "${still[@]}"
echo "bench-gate: slower by more than $THRESHOLD% with p < $ALPHA in two independent passes (results in $out); took $(( $(date +%s) - start )) s"
exit 1
