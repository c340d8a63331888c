#!/usr/bin/env python3
"""The DataStax Python driver (Debian's python3-cassandra), unchanged, against Tributary's CQL
native port: connect, create a CDC table, write with prepared statements and a batch, page through
the rows, then read the change from the ScyllaDB-format CDC log in the stream of its key's token.

usage: python_driver.py HOST PORT
Prints one line per step; the first word names the step.
"""
import sys
import time

from cassandra.cluster import Cluster
from cassandra.query import BatchStatement, SimpleStatement
from cassandra.murmur3 import murmur3
import struct


def main():
    host, port = sys.argv[1], int(sys.argv[2])
    # the default policy: token-aware over the data center the contact point reports (datacenter1)
    cluster = Cluster([host], port=port, connect_timeout=10, control_connection_timeout=10)
    session = cluster.connect()
    local = session.execute("SELECT release_version, cql_version, tributary_version FROM system.local").one()
    print("connected protocol_version=%d release_version=%s cql_version=%s tributary_version=%s"
          % (cluster.protocol_version, local.release_version, local.cql_version, local.tributary_version))
    print("hosts %d" % len(cluster.metadata.all_hosts()))

    session.execute("CREATE KEYSPACE IF NOT EXISTS shop WITH replication = "
                    "{'class': 'SimpleStrategy', 'replication_factor': 1}")
    session.execute("CREATE TABLE IF NOT EXISTS shop.orders (id int, line int, item text, qty int, "
                    "PRIMARY KEY (id, line)) WITH cdc = {'enabled': true}")
    table = cluster.metadata.keyspaces["shop"].tables["orders"]
    print("schema table=%s partition_key=%s clustering=%s"
          % (table.name, ",".join(c.name for c in table.partition_key),
             ",".join(c.name for c in table.clustering_key)))

    insert = session.prepare("INSERT INTO shop.orders (id, line, item, qty) VALUES (?, ?, ?, ?)")
    session.execute(insert, (1, 1, "apple", 3))
    batch = BatchStatement()
    for line in range(2, 1002):
        batch.add(insert, (2, line, "pear-%d" % line, line))
        if len(batch) == 100:
            session.execute(batch)
            batch = BatchStatement()
    if len(batch):
        session.execute(batch)
    rows = 0
    pages = 0
    result = session.execute(SimpleStatement("SELECT id, line FROM shop.orders", fetch_size=300))
    while True:
        pages += 1
        rows += len(result.current_rows)
        if not result.has_more_pages:
            break
        result.fetch_next_page()
    print("paged rows=%d pages=%d" % (rows, pages))
    apple = session.execute(session.prepare("SELECT item, qty FROM shop.orders WHERE id = ? AND line = ?"), (1, 1)).one()
    print("read item=%s qty=%d" % (apple.item, apple.qty))

    # the change, in the ScyllaDB-format log, in the stream of token(id)'s vnode
    deadline = time.time() + 20
    log = None
    while log is None and time.time() < deadline:
        log = next((r for r in session.execute('SELECT "cdc$stream_id", "cdc$operation", id, item '
                                               'FROM shop.orders_scylla_cdc_log') if r.id == 1), None)
        if log is None:
            time.sleep(0.1)
    generation = session.execute("SELECT time FROM system_distributed.cdc_generation_timestamps "
                                 "WHERE key = 'timestamps'").one().time
    ends = sorted(r.range_end for r in session.execute(
        "SELECT range_end FROM system_distributed.cdc_streams_descriptions_v2 WHERE time = %s", (generation,)))

    def vnode(token):  # a vnode is (previous end, end]; tokens past the last end wrap to the first
        return next((e for e in ends if e >= token), ends[0])

    stream_token = struct.unpack(">q", log[0][:8])[0]  # a stream id's high 64 bits are its token
    same = vnode(stream_token) == vnode(murmur3(struct.pack(">i", 1)))
    print("cdc operation=%d item=%s stream_in_vnode_of_token=%s" % (log[1], log[3], "yes" if same else "no"))

    try:
        session.execute("SELEKT 1")
    except Exception as e:  # the driver's SyntaxException
        print("error %s" % type(e).__name__)
    try:
        session.execute("SELECT * FROM shop.nosuch")
    except Exception as e:  # InvalidRequest
        print("error %s" % type(e).__name__)
    cluster.shutdown()


if __name__ == "__main__":
    main()
