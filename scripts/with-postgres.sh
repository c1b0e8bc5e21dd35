#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL cluster on loopback: initdb in
# a temporary directory as the postgres user, pg_ctl start on a free port,
# a database "symbo", then SYMBO_TEST_POSTGRES=postgresql://… in the
# command's environment; the cluster is stopped and removed afterwards.
# Needs Debian's postgresql package (and root, to run as postgres).
set -euo pipefail
# || true: with pipefail, ls's failure when nothing matches would end the
# script here (set -e), silently, before the message below.
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1) || true
[ -n "$bindir" ] || { echo "with-postgres: postgresql is not installed (apt-get install postgresql)" >&2; exit 1; }
data=$(mktemp -d /tmp/symbo-pg.XXXXXX)
chown postgres: "$data"
port=$(( 20000 + RANDOM % 20000 ))
cleanup() {
  su postgres -s /bin/sh -c "'$bindir/pg_ctl' -D '$data/db' -m immediate stop" >/dev/null 2>&1 || true
  rm -rf "$data"
}
trap cleanup EXIT
su postgres -s /bin/sh -c "'$bindir/initdb' -D '$data/db' -A trust -U postgres" >/dev/null
# The log is in $data, which cleanup removes: show it when the server does
# not start (pg_ctl only says "Examine the log output"), e.g. when the
# random port is taken.
su postgres -s /bin/sh -c "'$bindir/pg_ctl' -D '$data/db' -o '-c listen_addresses=127.0.0.1 -p $port -k $data' -l '$data/log' -w start" >/dev/null || {
  echo "with-postgres: the server did not start on port $port; its log:" >&2
  cat "$data/log" >&2 || true
  exit 1
}
su postgres -s /bin/sh -c "'$bindir/createdb' -h 127.0.0.1 -p $port -U postgres symbo"
export SYMBO_TEST_POSTGRES="postgresql+psycopg2://postgres@127.0.0.1:$port/symbo"
"$@"
