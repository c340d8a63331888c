#!/usr/bin/env bash
# Apply throughput into PostgreSQL: one backlog of N single-row transactions (written through the
# CQL native port before any apply runs) drained by an apply with 1 apply server, then by one with
# 4, each into its own database of one PostgreSQL 15; prints the seconds each took from
# start_apply to the destination holding all N (what `tributary cql` takes to start is in both).
# Needs what bin/test installs (postgresql-15, python3-cassandra) and root (PostgreSQL runs as the
# postgres user). Usage: bench/apply-postgres.sh [N]   (docs/BENCHMARKS.md "Apply")
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-20000}
PG=/usr/lib/postgresql/15/bin
DIR=$(mktemp -d /tmp/tributary-apply-bench.XXXXXX)
chmod 755 "$DIR"
T=bin/tributary
echo secret > "$DIR/pw"
mkdir "$DIR/pg" && chown postgres "$DIR/pg" "$DIR/pw"
runuser -u postgres -- "$PG/initdb" -D "$DIR/pg/data" -U tributary --pwfile "$DIR/pw" -A scram-sha-256 --no-locale -E UTF8 >/dev/null
runuser -u postgres -- "$PG/pg_ctl" -D "$DIR/pg/data" -l "$DIR/pg/log" \
    -o "-p 5434 -c listen_addresses=127.0.0.1 -c unix_socket_directories=''" -w start >/dev/null
export PGPASSWORD=secret
$T node --data-dir "$DIR/node" --listen 127.0.0.1:9360 --native-listen 127.0.0.1:9342 --zookeeper embedded:2193 \
    --cluster bench --ring-delay 2s > "$DIR/node.log" 2>&1 &
node=$!
trap 'kill $node 2>/dev/null; runuser -u postgres -- "$PG/pg_ctl" -D "$DIR/pg/data" -m fast stop >/dev/null; rm -rf "$DIR"' EXIT
until grep -q "ready on" "$DIR/node.log"; do sleep 0.5; done
until $T cql --connect 127.0.0.1:9360 -e "CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}" >/dev/null 2>&1; do sleep 0.5; done
$T cql --connect 127.0.0.1:9360 -e "CREATE TABLE ks.t (id int PRIMARY KEY, v int, note text)" \
    -e "CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', streams_name => 'cap', queue_name => 'q')" \
    -e "CALL dbms_capture_adm.start_capture(capture_name => 'cap')" >/dev/null
for p in 1 4; do
    psql -h 127.0.0.1 -p 5434 -U tributary -d postgres -qc "CREATE DATABASE p$p"
    $T cql --connect 127.0.0.1:9360 \
        -e "CREATE DATABASE LINK p$p CONNECT TO tributary IDENTIFIED BY 'secret' USING 'jdbc:postgresql://127.0.0.1:5434/p$p'" \
        -e "CALL dbms_apply_adm.create_apply(queue_name => 'q', apply_name => 'a$p', apply_database_link => 'p$p')" \
        -e "CALL dbms_apply_adm.set_parameter(apply_name => 'a$p', parameter => 'parallelism', value => '$p')" \
        -e "CALL dbms_streams_adm.instantiate_table(table_name => 'ks.t', apply_name => 'a$p')" >/dev/null
done
/usr/bin/python3 - "$N" <<'PY'
import sys
from cassandra.cluster import Cluster
s = Cluster(['127.0.0.1'], port=9342).connect()
ins = s.prepare("INSERT INTO ks.t (id, v, note) VALUES (?, ?, ?)")
for i in range(int(sys.argv[1])):
    s.execute(ins, (i, i, 'n%d' % i))
PY
# the capture has the whole backlog in the queue before either apply starts
scn=$($T cql --connect 127.0.0.1:9360 -e "SELECT current_scn FROM system_views.database" | sed -n 4p | tr -d ' ')
until [ "$($T cql --connect 127.0.0.1:9360 -e "SELECT captured_scn FROM system_views.capture" | sed -n 4p | tr -d ' ')" -ge "$scn" ]; do sleep 0.5; done
for p in 1 4; do
    start=$(date +%s.%N)
    $T cql --connect 127.0.0.1:9360 -e "CALL dbms_apply_adm.start_apply(apply_name => 'a$p')" >/dev/null
    until [ "$(psql -h 127.0.0.1 -p 5434 -U tributary -d p$p -tAc "SELECT count(*) FROM ks.t")" -ge "$N" ]; do sleep 0.1; done
    end=$(date +%s.%N)
    $T cql --connect 127.0.0.1:9360 -e "CALL dbms_apply_adm.stop_apply(apply_name => 'a$p')" >/dev/null
    echo "parallelism $p: $N transactions in $(echo "$end - $start" | bc) s"
done
