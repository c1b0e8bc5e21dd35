#!/usr/bin/env bash
# Writes lab/results/replication/README.md's verdicts and the coverage
# study of lab/results/statistics.md from the committed records (no run
# is repeated): perf stats on every table that has a replication.
#
# Usage: lab/scripts/replication.sh > /tmp/replication.md
set -euo pipefail
cd "$(dirname "$0")/../.."
go build -o bin/perf ./cmd/perf
# table-own has no replication of its own: its cells on the same seeds are
# ablation-own's, replicated below (lab/results/replication/README.md).
for t in table-prior table-base table-paper ablation-own ablation-prior; do
  echo "## $t"
  echo
  echo "    perf stats --main lab/results/$t --replication lab/results/replication/$t"
  echo
  bin/perf stats --main lab/results/$t --replication lab/results/replication/$t
  echo
done
echo "## Coverage"
echo
echo "    perf stats --coverage lab/results/ablation-own,lab/results/replication/ablation-own"
echo
bin/perf stats --coverage lab/results/ablation-own,lab/results/replication/ablation-own
