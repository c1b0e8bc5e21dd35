#!/usr/bin/env bash
# Writes docs/results/replication/README.md's verdicts and the coverage
# study of docs/results/statistics.md from the committed records (no run
# is repeated): perf stats on every table that has a replication.
#
# Usage: scripts/replication.sh > /tmp/replication.md
set -euo pipefail
cd "$(dirname "$0")/.."
go build -o bin/perf ./cmd/perf
for t in table-own table-prior table-base table-paper ablation-own ablation-prior; do
  echo "## $t"
  echo
  echo "    perf stats --main docs/results/$t --replication docs/results/replication/$t"
  echo
  bin/perf stats --main docs/results/$t --replication docs/results/replication/$t
  echo
done
echo "## Coverage"
echo
echo "    perf stats --coverage docs/results/ablation-own,docs/results/replication/ablation-own"
echo
bin/perf stats --coverage docs/results/ablation-own,docs/results/replication/ablation-own
