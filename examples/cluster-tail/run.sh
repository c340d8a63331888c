#!/bin/bash
# tail --group following two live tables on a local cluster: one through a join (a new
# generation), one through a tablet split. Needs the distribution built (mvn install -DskipTests).
# Prints, per table, the row LCRs, distinct keys and streams the tail printed, then the groups.
set -u
cd "$(dirname "$0")/../.."
B=$(mktemp -d /tmp/tributary-tail-demo.XXXXXX)
T=bin/tributary
$T local-cluster up --nodes 2 --base-dir $B --base-port 19460 --ring-delay 2s > $B/up.log 2>&1 || { cat $B/up.log; exit 1; }
C="--connect 127.0.0.1:19460"
$T cql $C -e "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}"
$T cql $C -e "CREATE TABLE ks.t (pk int, v int, PRIMARY KEY (pk)) WITH cdc = {'enabled': true}"
$T cql $C -e "CREATE KEYSPACE kt WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1} AND tablets = {'enabled': true}"
$T cql $C -e "CREATE TABLE kt.t (pk int, v int, PRIMARY KEY (pk)) WITH cdc = {'enabled': true} AND tablets = {'min_tablet_count': 2}"
# followers, in the background, each in a consumer group
$T tail $C --table ks.t --from earliest --group g --idle-exit 25s > $B/tail-join.out 2> $B/tail-join.err &
P1=$!
$T tail $C --table kt.t --from earliest --group g2 --idle-exit 25s > $B/tail-split.out 2> $B/tail-split.err &
P2=$!
for i in $(seq 1 100); do echo "INSERT INTO ks.t (pk, v) VALUES ($i, $i);"; echo "INSERT INTO kt.t (pk, v) VALUES ($i, $i);"; done > $B/w1.cql
$T cql $C -f $B/w1.cql > /dev/null
$T local-cluster add --base-dir $B > $B/add.log 2>&1 || cat $B/add.log
$T cql $C -e "ALTER TABLE kt.t WITH tablets = {'min_tablet_count': 4}"
for i in $(seq 101 200); do echo "INSERT INTO ks.t (pk, v) VALUES ($i, $i);"; echo "INSERT INTO kt.t (pk, v) VALUES ($i, $i);"; done > $B/w2.cql
$T cql $C -f $B/w2.cql > /dev/null
sleep 3 # past the new generation's timestamp (ring delay 2 s)
for i in $(seq 201 300); do echo "INSERT INTO ks.t (pk, v) VALUES ($i, $i);"; echo "INSERT INTO kt.t (pk, v) VALUES ($i, $i);"; done > $B/w3.cql
$T cql $C -f $B/w3.cql > /dev/null
$T cql $C -e "SELECT time FROM system_distributed.cdc_generation_timestamps WHERE key = 'timestamps'" > $B/gens.txt
$T cql $C -e "SELECT timestamp FROM system.cdc_timestamps" > $B/splits.txt
wait $P1; echo "tail ks.t exit $?"; wait $P2; echo "tail kt.t exit $?"
for f in tail-join tail-split; do
  echo "$f: $(grep -c '"lcr":"ROW"' $B/$f.out) row LCRs, distinct pks $(grep -o '"pk":[0-9]*' $B/$f.out | sort -u | wc -l), streams $(grep '"lcr":"ROW"' $B/$f.out | grep -o '"stream_id":"[^"]*"' | sort -u | wc -l)"
done
cat $B/gens.txt $B/splits.txt
$T cql $C -e "SELECT group_name, low_watermark FROM system_views.consumer_groups"
$T local-cluster down --base-dir $B > /dev/null 2>&1
