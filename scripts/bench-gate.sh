#!/usr/bin/env bash
# bench-gate.sh [BASE] — CI's performance regression gate. BASE, a git
# revision, is the argument or else the environment's BASE (as make
# bench-gate BASE=… passes it, like make bench-compare).
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
#   - Allocations: a benchmark also fails the gate when its allocs/op
#     grow with p < 0.05 from none to any, or else by at least max(2, 10%)
#     of BASE's median — a new per-op allocation, which a 25% slowdown
#     threshold can hide. A count of 0 is exact; others drift by one with
#     the garbage collector's timing (a sync.Pool emptied by a collection
#     allocates again), hence the 2. B/op is not gated: sizes move with
#     inputs.
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
# commit. Without the tag (a clone that did not fetch it), HEAD~1, and a
# line says why (the submission is then gated on its last commit only).
#
# The last line is the verdict, "bench-gate: PASS|FAIL|SKIPPED: …". A PASS
# names how many benchmarks were compared, how many were slower with
# p < ALPHA but within THRESHOLD (the gate lets those pass) and the
# largest, and benchstat's sec/op geomean; a pass-1 flag that pass 2 does
# not confirm is shown with its pass-2 figure, which may be a significant
# slowdown within the threshold rather than noise. A comparison that does
# not complete (the working tree lacks the suite or does not build, a run
# fails) is a FAIL.
#
# Benchmarks measured on one side only (renamed, added, removed) are not
# compared; each is listed ("not compared: …"), and the gate fails when no
# benchmark at all was measured on both sides, since it then compared
# nothing. A benchmark flagged in pass 1 that the re-measurement does not
# compare keeps its flag. BENCH_GATE_RESULTS is for bench/scripts_test.go
# only: a directory of canned results (pass1.csv, pass2.csv — benchstat's
# CSV — or pass1.skipped) read instead of measuring.
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
elif [ -n "${BASE:-}" ]; then
  base=$BASE
elif ! git rev-parse -q --verify 'refs/tags/bench-base^{commit}' >/dev/null 2>&1; then
  # Each fallback to HEAD~1 says why, below: a submission of several
  # commits is then gated on its last commit only.
  base=HEAD~1 fallback="there is no tag bench-base (a clone without tags?)"
elif ! git merge-base --is-ancestor bench-base HEAD 2>/dev/null; then
  base=HEAD~1 fallback="the tag bench-base is not an ancestor of HEAD"
elif [ "$(git rev-parse 'bench-base^{commit}')" = "$(git rev-parse HEAD)" ]; then
  base=HEAD~1 fallback="the tag bench-base is HEAD itself"
else
  base=bench-base
fi
THRESHOLD=${THRESHOLD:-25}
export ALPHA=${ALPHA:-0.05}   # bench-compare passes it to benchstat
export CPU=${CPU:-1} SHORT=1 BENCHTIME=${BENCHTIME:-100ms}
ROUNDS=${ROUNDS:-8}
RETRY_ROUNDS=${RETRY_ROUNDS:-10}

if ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo "bench-gate: SKIPPED: not a git checkout"; exit 0
fi
if [ -n "${fallback:-}" ]; then
  echo "bench-gate: $fallback: comparing with HEAD~1, i.e. the last commit only"
fi
if ! git rev-parse --verify -q "$base^{commit}" >/dev/null; then
  echo "bench-gate: SKIPPED: $base is not available (shallow clone? fetch with --depth=2 or more)"; exit 0
fi

out=${OUT:-$here/bench/out/gate-$(date +%Y%m%d-%H%M%S)}
start=$(date +%s)

# classify CSV: one line "STATUS NAME [PCT P]" per sec/op row of
# benchstat's CSV, and one "alloc NAME OLD→NEW allocs/op P" per allocs/op
# row whose working-tree median exceeds BASE's 0, or exceeds another by at
# least max(2, 10%), with p < ALPHA (benchstat writes "?" for a change from 0, so the medians
# are compared here); STATUS being
#   slow  slower by more than THRESHOLD% with p < ALPHA
#   sig   slower with p < ALPHA, by at most THRESHOLD%
#   ok    measured on both sides, not significantly slower
#   nan   on both sides, but benchstat could not compare them ("?")
#   old   only in BASE's results (removed or renamed; not compared)
#   new   only in the working tree's (added or renamed; not compared)
# PCT and P (compared rows) are benchstat's "vs base" and p.
classify() {
  awk -F, -v thr="$THRESHOLD" -v alpha="$ALPHA" '
    $2 != "" && $3 == "CI" { unit = $2; next }   # a table header: ,sec/op,CI,…
    $1 == "" || $1 == "geomean" { next }
    unit == "allocs/op" {
      if ($2 == "" || NF < 4 || $4 == "") next
      p = $7; sub(/^p=/, "", p); sub(/ .*/, "", p)
      grow = $2 / 10; if (grow < 2) grow = 2; if ($2 + 0 == 0) grow = 1
      if ($4 + 0 >= $2 + grow && p + 0 < alpha + 0) print "alloc", $1, $2 "→" $4, "allocs/op", "p=" p
      next
    }
    unit != "sec/op" { next }
    {
      has_old = $2 != ""; has_new = NF >= 4 && $4 != ""
      if (has_old && !has_new) { print "old", $1; next }
      if (!has_old && has_new) { print "new", $1; next }
      if (!has_old) next
      pct = $6; p = $7; sub(/^p=/, "", p); sub(/ .*/, "", p)
      if (pct == "~") { print "ok", $1, pct, "p=" p; next }
      if (pct !~ /^[+-][0-9.]+%$/) { print "nan", $1; next }
      v = pct; sub(/%$/, "", v)
      if (v + 0 > 0 && p + 0 < alpha + 0) st = (v + 0 > thr + 0 ? "slow" : "sig"); else st = "ok"
      print st, $1, pct, "p=" p
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

# largest LINE…: of lines "NAME PCT P", the one with the largest PCT ("~"
# counts as 0).
largest() {
  printf '%s\n' "$@" | awk '{ v = $2; sub(/%$/, "", v); v += 0; if (NR == 1 || v > max) { max = v; line = $0 } } END { print line }'
}

# geomean CSV: benchstat's change of the geometric mean of sec/op ("" if none).
geomean() {
  awk -F, '$2 != "" && $3 == "CI" { unit = $2; next } unit == "sec/op" && $1 == "geomean" { print $6; exit }' "$1"
}

# measure_or_fail PASS ROUNDS BENCH: measure, or end with a FAIL verdict
# when the comparison itself failed (bench-compare's message is above).
measure_or_fail() {
  local rc=0
  measure "$@" || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "bench-gate: FAIL: the comparison of $1 did not complete (bench-compare exit $rc: the working tree lacks the suite or does not build, or a benchmark run failed; see above); took $(( $(date +%s) - start )) s"
    exit 1
  fi
}

# bare NAME: the benchmark's name without benchstat's -GOMAXPROCS suffix.
bare() {
  if [ "$CPU" = 1 ]; then printf '%s\n' "$1"; else printf '%s\n' "${1%-"$CPU"}"; fi
}

# measure PASS ROUNDS BENCH: BASE vs the working tree into $out/PASS.
# BENCH_GATE_RESULTS (scripts_test.go only) names a directory of canned
# results, PASS.csv (benchstat's CSV) or PASS.skipped, used instead.
measure() {
  if [ -n "${BENCH_GATE_RESULTS:-}" ]; then
    mkdir -p "$out/$1" && printf '%s\n' "$3" >"$out/$1/bench" || return 1
    if [ -e "$BENCH_GATE_RESULTS/$1.skipped" ]; then
      cp "$BENCH_GATE_RESULTS/$1.skipped" "$out/$1/skipped"
    else
      cp "$BENCH_GATE_RESULTS/$1.csv" "$out/$1/benchstat.csv"
    fi
    return
  fi
  OUT=$out/$1 ROUNDS=$2 BENCH=$3 scripts/bench-compare.sh "$base"
}

echo "bench-gate: short core suite, $base vs working tree, $ROUNDS interleaved rounds, GOMAXPROCS=$CPU, threshold +$THRESHOLD% at p < $ALPHA"
measure_or_fail pass1 "$ROUNDS" Core
if [ -e "$out/pass1/skipped" ]; then
  echo "bench-gate: SKIPPED ($(cat "$out/pass1/skipped"))"; exit 0
fi
mapfile -t rows < <(classify "$out/pass1/benchstat.csv")
compared=0 bad=() sig=() only=()
for l in "${rows[@]}"; do
  read -r st n rest <<<"$l"
  case $st in
    slow) compared=$((compared + 1)); bad+=("$n $rest") ;;
    alloc) bad+=("$n $rest") ;;
    sig) compared=$((compared + 1)); sig+=("$n $rest") ;;
    ok) compared=$((compared + 1)) ;;
    old) only+=("$n (only in $base)") ;;
    new) only+=("$n (only in the working tree)") ;;
    nan) only+=("$n (no comparison by benchstat)") ;;
  esac
done
# A benchmark measured on one side only is not compared: say so, and
# fail when nothing was compared — a gate that measured nothing cannot pass.
[ ${#only[@]} -eq 0 ] || printf 'bench-gate: not compared: %s\n' "${only[@]}"
if [ "$compared" -eq 0 ]; then
  echo "bench-gate: FAIL: no benchmark measured on both sides (${#only[@]} on one side only; renamed or removed?) — nothing was compared (results in $out/pass1); took $(( $(date +%s) - start )) s"
  exit 1
fi
# Slowdowns significant but within the threshold pass; the verdict
# still says how many there were and the largest, with the geomean.
below=
if [ ${#sig[@]} -gt 0 ]; then
  below="; ${#sig[@]} slower by at most $THRESHOLD% with p < $ALPHA (largest $(largest "${sig[@]}"))"
fi
gm=$(geomean "$out/pass1/benchstat.csv")
if [ ${#bad[@]} -eq 0 ]; then
  echo "bench-gate: PASS: no sec/op regression above $THRESHOLD% and no allocs/op growth (p < $ALPHA) in $compared benchmarks compared (${#only[@]} not compared)$below; sec/op geomean ${gm:-?}; took $(( $(date +%s) - start )) s"
  exit 0
fi
printf 'bench-gate: flagged in pass 1: %s\n' "${bad[@]}"
names=()
for l in "${bad[@]}"; do
  m=$(bare "${l%% *}")
  [[ " ${names[*]} " == *" $m "* ]] || names+=("$m")
done
re=$(bench_patterns "${names[@]}")
echo "bench-gate: re-measuring the flagged benchmarks ($re), $RETRY_ROUNDS rounds"
measure_or_fail pass2 "$RETRY_ROUNDS" "$re"
if [ -e "$out/pass2/skipped" ]; then
  echo "bench-gate: FAIL: the re-measurement was skipped ($(cat "$out/pass2/skipped")); pass 1's flags stand (results in $out); took $(( $(date +%s) - start )) s"
  exit 1
fi
mapfile -t rows2 < <(classify "$out/pass2/benchstat.csv")
still=() again=()
for i in "${!names[@]}"; do
  m=${names[i]} found=
  for l in "${rows2[@]}"; do
    read -r st n rest <<<"$l"
    [ "$(bare "$n")" = "$m" ] || continue
    case $st in
      slow | alloc) found=1; still+=("$n $rest") ;;
      sig | ok) found=1; again+=("$n $rest") ;;
    esac
  done
  # A flagged benchmark the second pass did not compare keeps its flags.
  if [ -z "$found" ]; then
    for l in "${bad[@]}"; do
      [ "$(bare "${l%% *}")" = "$m" ] && still+=("$l in pass 1, not re-measured")
    done
  fi
done
if [ ${#still[@]} -eq 0 ]; then
  # Not "noise": a pass-2 figure can be a genuine slowdown within the
  # threshold (p < ALPHA), which the gate lets pass by design.
  printf 'bench-gate: re-measured: %s\n' "${again[@]}"
  echo "bench-gate: PASS: none of the ${#names[@]} pass-1 flags (sec/op above $THRESHOLD%, allocs/op growth) confirmed by the re-measurement (largest there: $(largest "${again[@]}")); pass 1: $compared compared$below; sec/op geomean ${gm:-?}; took $(( $(date +%s) - start )) s"
  exit 0
fi
printf 'bench-gate: FAIL: %s\n' "${still[@]}"
echo "bench-gate: slower by more than $THRESHOLD%, or allocating more, with p < $ALPHA in two independent passes (results in $out); took $(( $(date +%s) - start )) s"
exit 1
