#!/usr/bin/env bash
# Read replicas, end to end: starts a PostgreSQL primary and a streaming standby (pg_basebackup -R,
# primary_conninfo) on loopback ports of their own, runs API tests with DATABASE_URL on the primary and
# DATABASE_READ_URL on the standby, then stops both and removes their folders.
#
#   scripts/replica-test.sh                 # the replica, two-process, cache and search tests (~2-4 min)
#   scripts/replica-test.sh --all           # every API test
#   scripts/replica-test.sh path/to/x.api.test.ts ...
#   scripts/replica-test.sh --bench [bench options]   # npm run bench on the pair, with --replica
#
# Settings: PG_BIN (default /usr/lib/postgresql/15/bin), PRIMARY_PORT (5442), STANDBY_PORT (5443),
# REPLICA_DELAY (how late the standby applies each commit: 300ms for the tests, 0 for the bench).
# Run as root, the servers run as the postgres user (PostgreSQL refuses root).
set -euo pipefail
cd "$(dirname "$0")/.."

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PRIMARY_PORT=${PRIMARY_PORT:-5442}
STANDBY_PORT=${STANDBY_PORT:-5443}

files=(
  apps/server/src/db/read-replica.api.test.ts
  apps/server/src/runtime/two-processes.api.test.ts
  apps/server/src/db/data-versions.api.test.ts
  apps/server/src/modules/analytics/analytics-caches.api.test.ts
  apps/server/src/modules/analytics/analytics-jobs.api.test.ts
  apps/server/src/modules/analytics/analytics-demographic-stats.api.test.ts
  apps/server/src/modules/search/search-edit.api.test.ts
  apps/server/src/modules/comparisons/comparisons.api.test.ts
)
bench=false
if [ "${1:-}" = "--bench" ]; then bench=true; shift; fi
if [ "$bench" = false ] && [ "${1:-}" = "--all" ]; then files=(); shift; fi
if [ "$bench" = false ] && [ $# -gt 0 ]; then files=("$@"); fi

work=$(mktemp -d /tmp/accord-replica-XXXXXX)
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$work"

stop_all() {
  as_pg "$PG_BIN/pg_ctl" -D "$work/standby" -m fast stop >/dev/null 2>&1 || true
  as_pg "$PG_BIN/pg_ctl" -D "$work/primary" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap stop_all EXIT

echo "== primary on 127.0.0.1:$PRIMARY_PORT"
as_pg "$PG_BIN/initdb" -D "$work/primary" -U postgres --auth=trust >/dev/null
cat >>"$work/primary/postgresql.conf" <<CONF
port = $PRIMARY_PORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '$work'
wal_level = replica
max_wal_senders = 5
# A throwaway pair: speed over durability.
fsync = off
full_page_writes = off
CONF
as_pg "$PG_BIN/pg_ctl" -D "$work/primary" -l "$work/primary.log" -w start >/dev/null

# The bench measures an up-to-date replica; the tests a late one.
if [ "$bench" = true ]; then delay=${REPLICA_DELAY:-0}; else delay=${REPLICA_DELAY:-300ms}; fi
echo "== standby on 127.0.0.1:$STANDBY_PORT (pg_basebackup -R: streams from the primary)"
as_pg "$PG_BIN/pg_basebackup" -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -D "$work/standby" -R -X stream -c fast
cat >>"$work/standby/postgresql.conf" <<CONF
port = $STANDBY_PORT
hot_standby = on
# Long analytics reads are not cancelled by the primary's vacuum.
hot_standby_feedback = on
# The standby applies each commit a moment late, as a loaded replica would: a read that must see
# its caller's write and went to the standby would miss it.
recovery_min_apply_delay = '$delay'
CONF
as_pg "$PG_BIN/pg_ctl" -D "$work/standby" -l "$work/standby.log" -w start >/dev/null

psql_on() { as_pg "$PG_BIN/psql" -h 127.0.0.1 -p "$1" -U postgres -qAtc "$2"; }
[ "$(psql_on "$STANDBY_PORT" 'select pg_is_in_recovery()')" = t ] || { echo 'the standby is not in recovery'; exit 1; }
for _ in $(seq 1 50); do
  [ "$(psql_on "$PRIMARY_PORT" 'select count(*) from pg_stat_replication where state = $$streaming$$')" = 1 ] && break
  sleep 0.2
done
echo "   replication: $(psql_on "$PRIMARY_PORT" 'select application_name || $$ $$ || state from pg_stat_replication')"

primary="postgres://postgres:postgres@127.0.0.1:$PRIMARY_PORT/postgres"
standby="postgres://postgres:postgres@127.0.0.1:$STANDBY_PORT/postgres"
if [ "$bench" = true ]; then
  echo "== bench on the primary, reads on the standby"
  npm run bench -- --database-url "$primary" --replica "$standby" "$@"
  exit
fi

echo "== API tests (DATABASE_URL primary, DATABASE_READ_URL standby)"
DATABASE_URL="$primary" DATABASE_READ_URL="$standby" npx vitest run --project api "${files[@]}"
