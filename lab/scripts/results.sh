#!/usr/bin/env bash
# Regenerates every result under lab/results from the committed code:
# builds perf once, refuses a tree with uncommitted changes to the code (a result must
# come from a commit, which each record.json names; RESULTS_ALLOW_DIRTY=1
# overrides for a trial run), then runs each experiment into its
# directory (--force: the directory is rewritten). Each writes record.json,
# which 'make results-check' (perf check) reruns cell by cell.
#
# Usage: lab/scripts/results.sh [NAME…]   (default: all but landmarks-every,
# whose exact arms take about ten CPU hours; NAME is a directory under
# lab/results, e.g. table-own)
#
# Wall time on the 2-core development machine: a few hours for all (the
# committed records' runs sum to about 12 CPU-hours; landmarks-every's to
# about 17 more). Then lab/scripts/replication.sh writes the replication verdicts.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -n "$(git status --porcelain --untracked-files=no -- . ":(exclude)docs" ":(exclude)*.md")" ] && [ "${RESULTS_ALLOW_DIRTY:-}" != 1 ]; then
  echo "results: the tree has uncommitted changes; commit them first (results must come from a commit)" >&2
  exit 2
fi
go build -o bin/perf ./cmd/perf
perf=bin/perf
out=lab/results
want=("$@")
byname=" landmarks-every current suite hedge aside starts repeats fresh pilots residual referee odds beta beta-soft fresh-beta heldout-beta fresh-singles-beta tuning-singles-beta beta16 table-beta third " # studies of many CPU hours: run only when named
run() { # name, command…
  local name=$1; shift
  if [ ${#want[@]} -gt 0 ] && [[ ! " ${want[*]} " =~ " $name " ]]; then return; fi
  if [ ${#want[@]} -eq 0 ] && [[ $byname =~ " $name " ]]; then return; fi
  echo "results: $name: $*" >&2
  "$@" >/dev/null
}
# Every claim is made on the main seeds 0–29 and checked on the disjoint
# seeds 30–49 (lab/results/replication, lab/results/statistics.md).
main="--seeds 0:30"
rep="--seeds 30:50"
r=$out/replication
# Table 1 under the default protocol, with BoTorch's priors, and with the
# authors' fitting protocol.
k5="--kernels base,avg,avgnorm,plus,max"
run table-own   $perf table $k5 $main --out $out/table-own --force
run table-own   $perf table $k5 $rep --out $r/table-own --force
# Table 1's plus with the residual prior variance (--residual-variance),
# against ablation-own's plus (Table 1's protocol), paired by seed
# (lab/results/residual, lab/scripts/residual.py).
run residual-paper $perf table --kernels plus --residual-variance $main --out $out/residual/main --force
run residual-paper $perf table --kernels plus --residual-variance $rep --out $out/residual/replication --force
# Table 1 with UCB's β scaled by 1/4 (--beta-scale 0.25, the front ends'
# default since it was chosen on the users' suite): does finding 1 —
# invariance pays on the paper's problems — hold under less exploration?
# (lab/results/beta-paper, lab/scripts/betapaper.py). Run by name:
# lab/scripts/results.sh table-beta.
# Scaling2d is left out: its avgnorm runs alone cost half an hour of CPU
# per seed set (table-own's seconds), and finding 1 is not about it.
tb="--problems Ackley2d,Griewank6d,Rastrigin5d,Radial2d,WLAN8d"
run table-beta $perf table $k5 $tb --beta-scale 0.25 $main --out $out/beta-paper/main --force
run table-beta $perf table $k5 $tb --beta-scale 0.25 $rep --out $out/beta-paper/replication --force
run table-prior $perf table $k5 --prior botorch $main --out $out/table-prior --force
run table-prior $perf table $k5 --prior botorch $rep --out $r/table-prior --force
run table-base  $perf table --fit base $main --out $out/table-base --force
run table-base  $perf table --fit base $rep --out $r/table-base --force
# Table 1 under the paper-fidelity variant that matches the paper best
# (lab/results/README.md: Radial's argument scaled, noise from the
# observed variance, the initial design counted in the regret).
pf="--problems Ackley2d,Griewank6d,Rastrigin5d,RadialScaled2d,Scaling2d,WLAN8d --noise observed --regret all"
run table-paper $perf table $pf $main --out $out/table-paper --force
run table-paper $perf table $pf $rep --out $r/table-paper --force
# The invariance × Nyström ablation, default protocol and BoTorch priors
# (Scaling2d's avg and avgnorm are Table 1's).
ab="--ablation --skip Scaling2d/avg,Scaling2d/avgnorm"
run ablation-own   $perf table $ab $main --out $out/ablation-own --force
run ablation-own   $perf table $ab $rep --out $r/ablation-own --force
run ablation-prior $perf table $ab --prior botorch $main --out $out/ablation-prior --force
run ablation-prior $perf table $ab --prior botorch $rep --out $r/ablation-prior --force
# The fixed-point twins (lab/results/fixedpoint.md).
tw="--problems CentredAckley2d,ShiftedAckley2d,CentredRastrigin4d,ShiftedRastrigin4d,CentredGriewank6d,ShiftedGriewank6d --kernels base,avg,avgnorm,plus,nystrom"
run fixedpoint $perf table $tw $main --out $out/fixedpoint/main --force
run fixedpoint $perf table $tw $rep --out $out/fixedpoint/replication --force
# Landmark k_plus against the full design: Table 1 with landmarks forced
# on (16 and 32 of the 55 points), and 500-evaluation runs (the default
# cap, 256 landmarks, and 64) against the full design (--landmarks -1).
run landmarks $perf table --kernels plus --out $out/landmarks/table1-full --force
run landmarks $perf table --kernels plus --landmarks 16 --out $out/landmarks/table1-m16 --force
run landmarks $perf table --kernels plus --landmarks 32 --out $out/landmarks/table1-m32 --force
long="--problems Rastrigin5d,Griewank6d --kernels plus --seeds 5 --iters 495"
run landmarks $perf table $long --landmarks -1 --out $out/landmarks/long-full --force
run landmarks $perf table $long --out $out/landmarks/long-default --force
run landmarks $perf table $long --landmarks 64 --out $out/landmarks/long-m64 --force
# The baseline against BoTorch's SingleTaskGP (lab/results/baseline.md):
# base, plus and nystrom with the sample and the constant prior mean,
# without and with BoTorch's priors, 30 seeds.
bl="--problems Ackley2d,Griewank6d,Rastrigin5d --kernels base,plus,nystrom --seeds 30"
run baseline $perf table $bl --out $out/baseline/sample --force
run baseline $perf table $bl --mean constant --out $out/baseline/constant --force
run baseline $perf table $bl --prior botorch --out $out/baseline/sample-prior --force
run baseline $perf table $bl --prior botorch --mean constant --out $out/baseline/constant-prior --force
# … and their replication on the disjoint seeds 30–59.
rp="--problems Ackley2d,Griewank6d,Rastrigin5d --kernels base,plus,nystrom --seeds 30:60"
run baseline $perf table $rp --out $out/baseline/seeds30-59/sample --force
run baseline $perf table $rp --mean constant --out $out/baseline/seeds30-59/constant --force
run baseline $perf table $rp --prior botorch --out $out/baseline/seeds30-59/sample-prior --force
run baseline $perf table $rp --prior botorch --mean constant --out $out/baseline/seeds30-59/constant-prior --force
# The base kernel in SingleTaskGP's Matérn-5/2 on both seed sets, paired
# with its records by lab/results/baseline/pairs.py.
run baseline go run lab/results/baseline/shape.go -problems Rastrigin5d,Griewank6d,Ackley2d -shapes matern52 -prior botorch -json $out/baseline/matern52-main.json
run baseline go run lab/results/baseline/shape.go -problems Rastrigin5d,Griewank6d,Ackley2d -shapes matern52 -prior botorch -from 30 -seeds 20 -json $out/baseline/matern52-replication.json
# The deciding kernels against every single kernel on the defaults suite,
# front ends' protocol (lab/results/portfolio/README.md; plus and auto
# are lab/results/defaults').
ds="--problems Ackley2d,Griewank6d,Rastrigin5d,Radial2d,Scaling2d,WLAN8d,ShiftedAckley2d,ShiftedRastrigin4d,ShiftedGriewank6d,CentredRastrigin4d --prior botorch --mean constant"
# The deciding kernels' pilot (lab/results/auto.md) and the front ends'
# protocol for plus and auto (lab/results/defaults.md).
run auto      $perf table $ds --kernels base,nystrom,avg,plus,auto --seeds 0:10 --out $out/auto --force
run defaults  $perf table $ds --kernels plus,auto $main --out $out/defaults/main --force
run defaults  $perf table $ds --kernels plus,auto $rep --out $out/defaults/replication --force
run portfolio $perf table $ds --kernels portfolio $main --out $out/portfolio/main --force
run portfolio $perf table $ds --kernels portfolio $rep --out $out/portfolio/replication --force
run portfolio $perf table $ds --kernels base,nystrom,avg $main --out $out/portfolio/singles-main --force
run portfolio $perf table $ds --kernels base,nystrom,avg $rep --out $out/portfolio/singles-replication --force
# WLAN8d under the paper's sample mean (the same priors): base's lead
# there is the learned constant mean's (lab/results/portfolio/README.md).
dws="--problems WLAN8d --prior botorch --kernels base,nystrom,plus,portfolio"
run portfolio $perf table $dws $main --out $out/portfolio/wlan-sample-main --force
run portfolio $perf table $dws $rep --out $out/portfolio/wlan-sample-replication --force
# The same problems with the trivial group declared (a user who declares
# no symmetry: plus is then nystrom; the default kernel's case for it).
dn="--problems Ackley2d:none,Griewank6d:none,Rastrigin5d:none,Radial2d:none,Scaling2d:none,WLAN8d:none,ShiftedAckley2d:none,ShiftedRastrigin4d:none,ShiftedGriewank6d:none,CentredRastrigin4d:none --prior botorch --mean constant --kernels base,plus,portfolio"
run portfolio $perf table $dn $main --out $out/portfolio/none-main --force
run portfolio $perf table $dn $rep --out $out/portfolio/none-replication --force
# Today's default (bo.Recommended, the front ends' default) on the same
# problems with no group declared, and on ScalingDir2d, against plus and
# base with the same protocol: what the guide's "When to choose something
# else" says of them (lab/results/defaults/current.md,
# lab/scripts/current.py). Run by name: lab/scripts/results.sh current.
rec="--prior botorch --mean constant --candidate-fit anchored --probe-window 5 --normalize --ard --exclude-observed --probe earned --hedge 1 --step-aside --candidate-starts 3 --beta-scale 0.25"
dnp="--problems Ackley2d:none,Griewank6d:none,Rastrigin5d:none,Radial2d:none,Scaling2d:none,WLAN8d:none,ShiftedAckley2d:none,ShiftedRastrigin4d:none,ShiftedGriewank6d:none,CentredRastrigin4d:none"
run current $perf table $dnp $rec --kernels portfolio:nystrom:soft+plus,plus,base $main --workers 2 --out $out/defaults/nogroup-main --force
run current $perf table $dnp $rec --kernels portfolio:nystrom:soft+plus,plus,base $rep --workers 2 --out $out/defaults/nogroup-replication --force
run current $perf table --problems ScalingDir2d $rec --kernels portfolio:nystrom:soft+plus,plus,base $main --workers 2 --out $out/defaults/scalingdir-main --force
run current $perf table --problems ScalingDir2d $rec --kernels portfolio:nystrom:soft+plus,plus,base $rep --workers 2 --out $out/defaults/scalingdir-replication --force
# Wrong or approximately right groups declared (lab/results/wronggroup/):
# Griewank's product term and the shifted problems' offsets break the
# group named after the colon.
dw="--problems Griewank6d:hyperoctahedral,ShiftedRastrigin4d:hyperoctahedral,ShiftedGriewank6d:hyperoctahedral,ShiftedAckley2d:rotation2d --prior botorch --mean constant --kernels base,nystrom,avg,plus,auto,portfolio"
run wronggroup $perf table $dw $main --out $out/wronggroup/main --force
run wronggroup $perf table $dw $rep --out $out/wronggroup/replication --force
# soft (0.8·plus + 0.2·nystrom) alone and as a fourth candidate of the
# portfolio, on the fourteen problems of the two studies above
# (lab/results/soft/README.md).
dsoft="--problems Ackley2d,Griewank6d,Rastrigin5d,Radial2d,Scaling2d,WLAN8d,ShiftedAckley2d,ShiftedRastrigin4d,ShiftedGriewank6d,CentredRastrigin4d,Griewank6d:hyperoctahedral,ShiftedRastrigin4d:hyperoctahedral,ShiftedGriewank6d:hyperoctahedral,ShiftedAckley2d:rotation2d --prior botorch --mean constant --kernels soft,portfolio:nystrom+avg+soft+plus"
run soft $perf table $dsoft $main --out $out/soft/main --force
run soft $perf table $dsoft $rep --out $out/soft/replication --force
# The portfolio favouring soft as well as plus (portfolio:a+b:c+d) on the
# same fourteen problems, and on ten fresh problems none of the rules was
# chosen on (five with a wrong group declared) with every single kernel
# and both rules (lab/results/soft/README.md, "Both favoured").
fourteen="--problems Ackley2d,Griewank6d,Rastrigin5d,Radial2d,Scaling2d,WLAN8d,ShiftedAckley2d,ShiftedRastrigin4d,ShiftedGriewank6d,CentredRastrigin4d,Griewank6d:hyperoctahedral,ShiftedRastrigin4d:hyperoctahedral,ShiftedGriewank6d:hyperoctahedral,ShiftedAckley2d:rotation2d"
run soft-favoured $perf table $fourteen --prior botorch --mean constant --kernels portfolio:nystrom+avg:soft+plus $main --out $out/soft/favoured-main --force
run soft-favoured $perf table $fourteen --prior botorch --mean constant --kernels portfolio:nystrom+avg:soft+plus $rep --out $out/soft/favoured-replication --force
fresh="--problems ShiftedRastrigin3d:hyperoctahedral,ShiftedGriewank4d:hyperoctahedral,ShiftedGriewank6d:permutation,ShiftedRastrigin4d:signflip,Griewank4d:permutation,ShiftedAckley3d,ShiftedGriewank4d,CentredRastrigin3d,Ackley3d,Rastrigin3d --prior botorch --mean constant --kernels base,nystrom,avg,plus,soft,portfolio:nystrom+avg+soft+plus,portfolio:nystrom+avg:soft+plus"
run soft-fresh $perf table $fresh $main --out $out/soft/fresh-main --force
run soft-fresh $perf table $fresh $rep --out $out/soft/fresh-replication --force
# The default with its candidates' fits anchored on plus's lengthscale
# (--candidate-fit anchored) on the same fourteen and ten fresh problems
# (lab/results/soft/README.md, "Anchored candidate fits").
freshp="--problems ShiftedRastrigin3d:hyperoctahedral,ShiftedGriewank4d:hyperoctahedral,ShiftedGriewank6d:permutation,ShiftedRastrigin4d:signflip,Griewank4d:permutation,ShiftedAckley3d,ShiftedGriewank4d,CentredRastrigin3d,Ackley3d,Rastrigin3d"
anch="--prior botorch --mean constant --kernels portfolio:nystrom+avg:soft+plus --candidate-fit anchored"
run soft-anchored $perf table $fourteen $anch $main --out $out/soft/anchored-main --force
run soft-anchored $perf table $fourteen $anch $rep --out $out/soft/anchored-replication --force
run soft-anchored $perf table $freshp $anch $main --out $out/soft/anchored-fresh-main --force
run soft-anchored $perf table $freshp $anch $rep --out $out/soft/anchored-fresh-replication --force
# The default with its fixed-point probe limited to the first five BO
# steps (--probe-window 5) on the same problems
# (lab/results/soft/README.md, "The probe window").
win="$anch --probe-window 5"
run soft-window $perf table $fourteen $win $main --out $out/soft/window-main --force
run soft-window $perf table $fourteen $win $rep --out $out/soft/window-replication --force
run soft-window $perf table $freshp $win $main --out $out/soft/window-fresh-main --force
run soft-window $perf table $freshp $win $rep --out $out/soft/window-fresh-replication --force
# … and, the window having been chosen on seeds 0–49's traces, both
# rules on the fourteen problems at the held-out seeds 50–69.
run soft-window $perf table $fourteen $anch --seeds 50:70 --out $out/soft/anchored-heldout --force
run soft-window $perf table $fourteen $win --seeds 50:70 --out $out/soft/window-heldout --force
# The default with a lengthscale per class of coordinates (--ard) on the
# five problems of those suites whose group leaves several classes, paired
# with the window records above (lab/results/ard/README.md).
ardp="--problems Griewank6d,WLAN8d,ShiftedGriewank6d,ShiftedRastrigin4d:signflip,ShiftedGriewank4d"
run ard $perf table $ardp $win --ard $main --out $out/ard/main --force
run ard $perf table $ardp $win --ard $rep --out $out/ard/replication --force
# Scaling2d with the chord between directions as its orbit geometry
# (lab/results/scalingdir/README.md).
run scalingdir $perf table --problems Scaling2d,ScalingDir2d --kernels base,plus,max,auto $main --out $out/scalingdir/main --force
run scalingdir $perf table --problems Scaling2d,ScalingDir2d --kernels base,plus,max,auto $rep --out $out/scalingdir/replication --force
run scalingdir $perf table --problems ScalingDir2d --kernels plus,auto --prior botorch --mean constant $main --out $out/scalingdir/defaults-main --force
run scalingdir $perf table --problems ScalingDir2d --kernels plus,auto --prior botorch --mean constant $rep --out $out/scalingdir/defaults-replication --force
# The users' suite (lab/suite/README.md; lab/results/suite/README.md): the
# candidate defaults and the single kernels on the tuning half (seeds
# 0–19), then the chosen default and the single kernels on the held-out
# half, once (30 + 20 seeds; avg's permanents on the two 12-d problems
# take most of its hours). Run by name: lab/scripts/results.sh suite.
# The peers' runs on the held-out half are lab/peers/suite.py's (its
# docstring; not perf records).
front="--prior botorch --mean constant --candidate-fit anchored --probe-window 5 --normalize --ard --exclude-observed"
# The same for tables of single kernels only: perf refuses a deciding
# kernel's flag (--candidate-fit anchored, --probe-window, --probe earned,
# --hedge, --candidate-starts) where no kernel of --kernels can act on it.
# The committed singles tables were run with $front and those flags, which
# acted on none of their kernels: their runs are these commands' (their
# recorded protocol still names the flags).
single="--prior botorch --mean constant --normalize --ard --exclude-observed"
t1="--problems WLAN8d,Rastrigin5d,WLANOther8d,OffAckley4d,WrongSign4d,Reactor5d"
t2="--problems PhaseRing6d,BumpsPerm6d,Cluster3x2d,ApproxPerm5d,Fleet8d,BumpsPerm10d"
for half in "tuning:$t1" "tuning2:$t2"; do
  tp=${half#*:}; tn=${half%%:*}
  run suite $perf table $tp $front --kernels portfolio:nystrom+avg:soft+plus,portfolio:nystrom:soft+plus --seeds 0:20 --out $out/suite/$tn-a-main --force
  run suite $perf table $tp $front --kernels portfolio:base+avg:soft+plus,portfolio:base:soft+plus --seeds 0:20 --out $out/suite/$tn-b-main --force
  run suite $perf table $tp $front --probe earned --kernels portfolio:nystrom+avg:soft+plus --seeds 0:20 --out $out/suite/$tn-earned-main --force
  run suite $perf table $tp $single --kernels nystrom,avg,plus,soft,base --seeds 0:20 --out $out/suite/$tn-singles-main --force
done
held="--problems Griewank6d,Ackley2d,BumpsPerm4dHeavy,OffGriewank8d,ShiftedRastrigin3dHeavy,Ring2d,Sphere6dCentred,Anisotropic2d:rotation2d,Mixed7d,Net6d,OffGriewank12d,ShiftedAckley12dPerm"
hk="--kernels portfolio:nystrom:soft+plus,base,nystrom,avg,plus,soft"
run suite $perf table $held $front --probe earned $hk $main --out $out/suite/heldout-main --force
run suite $perf table $held $front --probe earned $hk $rep --out $out/suite/heldout-replication --force
# The second default, hedged (--hedge S), chosen on the tuning half alone
# after the held-out half's first run; then its one held-out run (the
# single kernels' runs above serve both). Its sampler's runs on Mixed7d
# and Net6d are lab/peers/suite.py's (--systems symbo-optuna --out
# lab/results/suite/peers-hedged).
for S in 1 3 10; do
  run suite $perf table $t1 $front --hedge $S --kernels portfolio:nystrom:soft+plus --seeds 0:20 --out $out/suite/tuning-hedge$S-main --force
  run suite $perf table $t2 $front --hedge $S --kernels portfolio:nystrom:soft+plus --seeds 0:20 --out $out/suite/tuning2-hedge$S-main --force
done
run suite $perf table $held $front --probe earned --hedge 1 --kernels portfolio:nystrom:soft+plus $main --out $out/suite/heldout-hedged-main --force
run suite $perf table $held $front --probe earned --hedge 1 --kernels portfolio:nystrom:soft+plus $rep --out $out/suite/heldout-hedged-replication --force
# Hedging off the suite it was chosen on: the default hedged (--hedge 1)
# and unhedged (--hedge 0) on lab/results/soft's 24 problems, 30 + 20
# seeds (lab/results/hedge/README.md; lab/scripts/hedge.py).
soft24="--problems Ackley2d,Griewank6d,Rastrigin5d,Radial2d,Scaling2d,WLAN8d,ShiftedAckley2d,ShiftedRastrigin4d,ShiftedGriewank6d,CentredRastrigin4d,Griewank6d:hyperoctahedral,ShiftedRastrigin4d:hyperoctahedral,ShiftedGriewank6d:hyperoctahedral,ShiftedAckley2d:rotation2d,ShiftedRastrigin3d:hyperoctahedral,ShiftedGriewank4d:hyperoctahedral,ShiftedGriewank6d:permutation,ShiftedRastrigin4d:signflip,Griewank4d:permutation,ShiftedAckley3d,ShiftedGriewank4d,CentredRastrigin3d,Ackley3d,Rastrigin3d"
for h in 1 0; do
  run hedge $perf table $soft24 $front --hedge $h --kernels portfolio:nystrom:soft+plus $main --out $out/hedge/soft-hedge$h-main --force
  run hedge $perf table $soft24 $front --hedge $h --kernels portfolio:nystrom:soft+plus $rep --out $out/hedge/soft-hedge$h-replication --force
done
# Stepping aside (--step-aside, bo.Protocol.StepAside): chosen on the
# users' suite's tuning half, checked on the soft suite's 24 problems and
# then on the held-out half a third time (lab/results/hedge/aside.md,
# lab/scripts/aside.py; lab/results/suite/heldout-aside.md,
# lab/scripts/heldout.py --aside). Its sampler's runs on Mixed7d and Net6d
# are lab/peers/suite.py's (--systems symbo-optuna --out
# lab/results/suite/peers-aside). Run by name: lab/scripts/results.sh aside.
run aside $perf table $t1 $front --hedge 1 --step-aside --kernels portfolio:nystrom:soft+plus --seeds 0:20 --out $out/suite/tuning-aside-main --force
run aside $perf table $t2 $front --hedge 1 --step-aside --kernels portfolio:nystrom:soft+plus --seeds 0:20 --out $out/suite/tuning2-aside-main --force
run aside $perf table $soft24 $front --hedge 1 --step-aside --kernels portfolio:nystrom:soft+plus $main --out $out/hedge/soft-aside-main --force
run aside $perf table $soft24 $front --hedge 1 --step-aside --kernels portfolio:nystrom:soft+plus $rep --out $out/hedge/soft-aside-replication --force
run aside $perf table $held $front --probe earned --hedge 1 --step-aside --kernels portfolio:nystrom:soft+plus $main --out $out/suite/heldout-aside-main --force
run aside $perf table $held $front --probe earned --hedge 1 --step-aside --kernels portfolio:nystrom:soft+plus $rep --out $out/suite/heldout-aside-replication --force
# Three UCB ascents for the candidates other than the referee
# (--candidate-starts 3, bo.DecideOptions.CandidateStarts), with stepping
# aside: chosen on the tuning half, checked on the soft suite
# (lab/results/hedge/starts.md, lab/scripts/starts.py) and on the
# held-out half a fourth time (lab/results/suite/heldout-starts.md,
# lab/scripts/heldout.py --starts; the sampler's runs: lab/peers/suite.py
# --systems symbo-optuna --out lab/results/suite/peers-starts3). Run by
# name: lab/scripts/results.sh starts.
k3="--hedge 1 --step-aside --candidate-starts 3 --kernels portfolio:nystrom:soft+plus"
run starts $perf table $t1 $front $k3 --seeds 0:20 --out $out/suite/tuning-starts3-main --force
run starts $perf table $t2 $front $k3 --seeds 0:20 --out $out/suite/tuning2-starts3-main --force
run starts $perf table $soft24 $front $k3 $main --out $out/hedge/soft-starts3-main --force
run starts $perf table $soft24 $front $k3 $rep --out $out/hedge/soft-starts3-replication --force
run starts $perf table $held $front --probe earned $k3 $main --out $out/suite/heldout-starts3-main --force
run starts $perf table $held $front --probe earned $k3 $rep --out $out/suite/heldout-starts3-replication --force
# Then to now on the soft suite's problems whose optimum a run finds
# (lab/results/hedge/norepeat.md, lab/scripts/norepeat.py): the default
# of issue 40's day (soft/window-*) and today's (hedge/soft-starts3-*)
# with one change at a time between them — the old kernel under today's
# protocol with repeats allowed, today's kernel with repeats allowed. Run
# by name: lab/scripts/results.sh repeats.
found="--problems Ackley2d,Griewank6d,Rastrigin5d,Radial2d,Griewank6d:hyperoctahedral,Ackley3d,Rastrigin3d"
norule="--prior botorch --mean constant --candidate-fit anchored --probe-window 5 --normalize --ard --hedge 1 --candidate-starts 3"
run repeats $perf table $found $norule --kernels portfolio:nystrom+avg:soft+plus $main --out $out/hedge/avg-repeats-main --force
run repeats $perf table $found $norule --kernels portfolio:nystrom+avg:soft+plus $rep --out $out/hedge/avg-repeats-replication --force
run repeats $perf table $found $norule --kernels portfolio:nystrom:soft+plus $main --out $out/hedge/repeats-main --force
run repeats $perf table $found $norule --kernels portfolio:nystrom:soft+plus $rep --out $out/hedge/repeats-replication --force
# The fresh held-out set (lab/suite/fresh.md): twelve problems no study
# had run, designed before any run; the default of its day and every
# single kernel under the same protocol, once
# (lab/results/suite/fresh.md, lab/scripts/fresh.py; the peers:
# lab/peers/suite.py --problems fresh --botorch-restarts 4
# --botorch-raw-samples 128 --out lab/results/suite/peers-fresh). Run by
# name: lab/scripts/results.sh fresh.
freshset="--problems StyblinskiAbs4d,OffLevy6d,OffRosen5d,Targets4x2d,Halo2d,Salomon4d,DiagRastrigin6d,TiltedRing2d,WrongPerm4d,Pumps6d,Rig7d,OffLevy10dPerm"
run fresh $perf table $freshset $front --probe earned --hedge 1 --step-aside --candidate-starts 3 --kernels portfolio:nystrom:soft+plus,base,nystrom,avg,plus,soft --workers 1 $main --out $out/suite/fresh-main --force
run fresh $perf table $freshset $front --probe earned --hedge 1 --step-aside --candidate-starts 3 --kernels portfolio:nystrom:soft+plus,base,nystrom,avg,plus,soft --workers 1 $rep --out $out/suite/fresh-replication --force
# β/4 on the fresh held-out set, declared before it ran: the default
# with β/4 alone (the singles and the peers are fresh-{main,replication}'s
# and peers-fresh's), one look, reported as it comes. The set's untouched
# look was the default of its day (fresh-*); β/4 was chosen on the tuning
# half and checked on the soft suite only, never on this set. Run by
# name: lab/scripts/results.sh fresh-beta.
run fresh-beta $perf table $freshset $front --probe earned $k3 --beta-scale 0.25 --workers 1 $main --out $out/suite/fresh-beta025-main --force
run fresh-beta $perf table $freshset $front --probe earned $k3 --beta-scale 0.25 --workers 1 $rep --out $out/suite/fresh-beta025-replication --force
# The single kernels with β/4 on the fresh set, after β/4 became the
# default: the best single kernel under the default's own β, so that
# the ratio to it does not credit the portfolio with β/4's gain (avg,
# whose permanents cost hours on OffLevy10dPerm, keeps its paper-β runs
# from fresh-*). A description: the set's third look. Run by name:
# lab/scripts/results.sh fresh-singles-beta.
run fresh-singles-beta $perf table $freshset $single --step-aside --beta-scale 0.25 --kernels base,nystrom,plus,soft --workers 1 $main --out $out/suite/fresh-singles-beta025-main --force
run fresh-singles-beta $perf table $freshset $single --step-aside --beta-scale 0.25 --kernels base,nystrom,plus,soft --workers 1 $rep --out $out/suite/fresh-singles-beta025-replication --force
# The third held-out set (lab/suite/third.md): twelve problems no study
# had run, designed and committed before they existed in code; one
# untouched look at the default of the commit that first runs it (UCB's
# β/4), with every single kernel under the same protocol, its β included
# (lab/results/suite/third.md, lab/scripts/third.py; the peers:
# lab/peers/suite.py --problems third --botorch-restarts 4
# --botorch-raw-samples 128 --out lab/results/suite/peers-third). Run by
# name: lab/scripts/results.sh third.
thirdset="--problems QingAbs5d,AlpineShell4d,ZakharovSorted6d,Blocks2x3d,CosineShell2d,AlpineAbs5d,CentreZakharov4d,TiltedSign3d,WrongRot2d,Mixer6d,Antenna5d,OffZakharov8dHyper"
run third $perf table $thirdset $front --probe earned --hedge 1 --step-aside --candidate-starts 3 --beta-scale 0.25 --kernels portfolio:nystrom:soft+plus,base,nystrom,avg,plus,soft --workers 1 $main --out $out/suite/third-main --force
run third $perf table $thirdset $front --probe earned --hedge 1 --step-aside --candidate-starts 3 --beta-scale 0.25 --kernels portfolio:nystrom:soft+plus,base,nystrom,avg,plus,soft --workers 1 $rep --out $out/suite/third-replication --force
# The single kernels with β/4 on the tuning half (avg aside, as above):
# whether the default's kernel is still the choice once every kernel has
# the default's β. Run by name: lab/scripts/results.sh tuning-singles-beta.
for half in "tuning:$t1" "tuning2:$t2"; do
  tp=${half#*:}; tn=${half%%:*}
  run tuning-singles-beta $perf table $tp $single --step-aside --beta-scale 0.25 --kernels base,nystrom,plus,soft --workers 1 --seeds 0:20 --out $out/suite/$tn-singles-beta025-main --force
done
# β/4 on the held-out half: its fifth look, a description (perf table's
# runs; the sampler's on Mixed7d and Net6d would need the front ends'
# setting). Run by name: lab/scripts/results.sh heldout-beta.
run heldout-beta $perf table $held $front --probe earned $k3 --beta-scale 0.25 $main --out $out/suite/heldout-beta025-main --force
run heldout-beta $perf table $held $front --probe earned $k3 --beta-scale 0.25 $rep --out $out/suite/heldout-beta025-replication --force
# Pilots on the tuning half under today's protocol, after the fresh set:
# avg back among the candidates (its probe earned), and nystrom favoured
# beside soft and plus with base an unfavoured candidate
# (lab/results/suite/pilots.md, lab/scripts/pilots.py). Run by name:
# lab/scripts/results.sh pilots.
ka="--probe earned --hedge 1 --step-aside --candidate-starts 3 --kernels portfolio:nystrom+avg:soft+plus"
kn="--probe earned --hedge 1 --step-aside --candidate-starts 3 --kernels portfolio:base:nystrom+soft+plus"
run pilots $perf table $t1 $front $ka --seeds 0:20 --out $out/suite/tuning-avg3-main --force
run pilots $perf table $t2 $front $ka --seeds 0:20 --out $out/suite/tuning2-avg3-main --force
run pilots $perf table $t1 $front $kn --seeds 0:20 --out $out/suite/tuning-favn-main --force
run pilots $perf table $t2 $front $kn --seeds 0:20 --out $out/suite/tuning2-favn-main --force
# A third: base a fourth candidate, unfavoured beside nystrom.
kb="--hedge 1 --step-aside --candidate-starts 3 --kernels portfolio:nystrom+base:soft+plus"
run pilots $perf table $t1 $front $kb --seeds 0:20 --out $out/suite/tuning-base4-main --force
run pilots $perf table $t2 $front $kb --seeds 0:20 --out $out/suite/tuning2-base4-main --force
# A fourth: the default with the Nyström kernels' residual prior variance
# (--residual-variance: far from the data, the prior's variance, as the
# base GP's), the default's candidates unchanged. Run by name:
# lab/scripts/results.sh residual.
kr="$k3 --residual-variance"
run residual $perf table $t1 $front $kr --seeds 0:20 --out $out/suite/tuning-resid-main --force
run residual $perf table $t2 $front $kr --seeds 0:20 --out $out/suite/tuning2-resid-main --force
# A fifth: the referee picked by the leave-one-out log predictive density
# instead of the evidence (--referee loo), the default's candidates and
# odds unchanged. Run by name: lab/scripts/results.sh referee.
kl="$k3 --referee loo"
run referee $perf table $t1 $front $kl --seeds 0:20 --out $out/suite/tuning-loo-main --force
run referee $perf table $t2 $front $kl --seeds 0:20 --out $out/suite/tuning2-loo-main --force
# A sixth and seventh: the favoured candidates' log prior odds (--odds),
# ln 4 and ln 100 either side of the default's ln 20. Run by name:
# lab/scripts/results.sh odds.
run odds $perf table $t1 $front $k3 --odds 1.3862943611198906 --seeds 0:20 --out $out/suite/tuning-odds4-main --force
run odds $perf table $t2 $front $k3 --odds 1.3862943611198906 --seeds 0:20 --out $out/suite/tuning2-odds4-main --force
run odds $perf table $t1 $front $k3 --odds 4.605170185988092 --seeds 0:20 --out $out/suite/tuning-odds100-main --force
run odds $perf table $t2 $front $k3 --odds 4.605170185988092 --seeds 0:20 --out $out/suite/tuning2-odds100-main --force
# Two more: UCB's β scaled by 1/4 and by 4 (--beta-scale), the weight on
# the standard deviation halved and doubled. Run by name:
# lab/scripts/results.sh beta.
run beta $perf table $t1 $front $k3 --beta-scale 0.25 --seeds 0:20 --out $out/suite/tuning-beta025-main --force
run beta $perf table $t2 $front $k3 --beta-scale 0.25 --seeds 0:20 --out $out/suite/tuning2-beta025-main --force
run beta $perf table $t1 $front $k3 --beta-scale 4 --seeds 0:20 --out $out/suite/tuning-beta4-main --force
run beta $perf table $t2 $front $k3 --beta-scale 4 --seeds 0:20 --out $out/suite/tuning2-beta4-main --force
# After β/4 became the default, and the single kernels with it
# (tuning-singles-beta) showed every kernel gains from less exploration:
# a pilot one step further, β/16. Run by name: lab/scripts/results.sh beta16.
run beta16 $perf table $t1 $front $k3 --beta-scale 0.0625 --seeds 0:20 --out $out/suite/tuning-beta0625-main --force
run beta16 $perf table $t2 $front $k3 --beta-scale 0.0625 --seeds 0:20 --out $out/suite/tuning2-beta0625-main --force
# β/4, the one pilot that moved the tuning half, checked on the soft
# suite's 24 problems, which played no part in any choice (against
# hedge/soft-starts3-*). Run by name: lab/scripts/results.sh beta-soft.
run beta-soft $perf table $soft24 $front $k3 --beta-scale 0.25 $main --out $out/hedge/soft-beta025-main --force
run beta-soft $perf table $soft24 $front $k3 --beta-scale 0.25 $rep --out $out/hedge/soft-beta025-replication --force
# Landmark GPs of base and avg against the exact GP, 500 evaluations
# (lab/results/landmarks-every/landmarks-every.md): seeds 0–4, then 5–29
# and the replication 30–49. The exact arms are hours of CPU: run this
# one by name (lab/scripts/results.sh landmarks-every).
le="--problems Rastrigin5d --iters 495"
for k in base avg; do
  run landmarks-every $perf table $le --kernels $k --seeds 5 --out $out/landmarks-every/$k-default --force
  run landmarks-every $perf table $le --kernels $k --seeds 5 --landmarks -1 --out $out/landmarks-every/$k-full --force
  for s in main:5:30 replication:30:50; do
    run landmarks-every $perf table $le --kernels $k --seeds ${s#*:} --landmarks 0 --out $out/landmarks-every/${s%%:*}/$k-default --force
    run landmarks-every $perf table $le --kernels $k --seeds ${s#*:} --landmarks -1 --out $out/landmarks-every/${s%%:*}/$k-full --force
  done
done
# The 5-seed pilots of the other landmark paths (same file): avgnorm and
# max (gp.NewLandmarkFamily), nystrom (k_plus's capped design over the
# trivial group), auto (its three candidates').
for k in avgnorm max nystrom auto; do
  run landmarks-every $perf table $le --kernels $k --seeds 5 --out $out/landmarks-every/$k-default --force
  run landmarks-every $perf table $le --kernels $k --seeds 5 --landmarks -1 --out $out/landmarks-every/$k-full --force
done
# Figure 4 (left) and the parallel-evaluation study.
run robustness $perf robustness --out $out/robustness --force
run batch      $perf batch --out $out/batch --force
# Figure 4 (middle and right): eigendecay of the Gram spectra at n = 3000.
run spectrum   $perf spectrum --out $out/spectrum --force
# The paper's qualitative figures (1, 2 and 5).
run figures    $perf figure --out $out/figures --force
echo "results: done; check with: make results-check" >&2
