package dev.tributary.node.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.TributaryClient;
import dev.tributary.client.errors.ServerErrorException;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A record damaged on disk is refused with what it is, never served as other data; the node stays up. */
@Timeout(120)
class DamagedRecordIT {
    @Test
    @DisplayName("a CDC log record with a flipped bit on disk: reading the log is refused as CORRUPTION naming the "
            + "record; the base table, the rest of the node and later writes go on")
    void damagedLogRecord(@TempDir Path dir) throws Exception {
        int zk = TestNodes.freePort();
        Duration ringDelay = Duration.ofMillis(300);
        Path data = dir.resolve("n1");
        try (TributaryNode n = TestNodes.startOperating(data, "--zookeeper", "embedded:" + zk);
                TributaryClient c = TributaryClient.builder().endpoints(n.endpoint()).build()) {
            c.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            c.execute("CREATE TABLE ks.t (pk int PRIMARY KEY, v text) WITH cdc = {'enabled': true}");
            for (int i = 0; i < 10; i++) {
                c.execute("INSERT INTO ks.t (pk, v) VALUES (?, ?)", i, "v" + i);
            }
            TestNodes.await(() -> c.execute("SELECT count(*) FROM ks.t_scylla_cdc_log").one().getLong(0) == 10,
                    Duration.ofSeconds(30), "the 10 changes in the CDC log");
        }
        String damaged;
        try (NodeStore store = NodeStore.open(data.resolve("rocksdb"))) {
            byte[] key;
            byte[] value;
            try (StoreIterator it = store.iterator(NodeStore.Family.CDC_LOG)) {
                it.seekToFirst();
                assertTrue(it.isValid(), "a stored log record");
                key = it.key();
                value = it.value();
            }
            value[value.length / 2] ^= 0x04;
            store.put(NodeStore.Family.CDC_LOG, key, value, true);
            damaged = "log record of log " + java.nio.ByteBuffer.wrap(key).getLong();
        }
        try (TributaryNode n = TributaryNode.start(TestNodes.config(data, ringDelay, "--zookeeper", "embedded:" + zk));
                TributaryClient c = TributaryClient.builder().endpoints(n.endpoint()).build()) {
            ServerErrorException e = assertThrows(ServerErrorException.class,
                    () -> c.execute("SELECT * FROM ks.t_scylla_cdc_log").all());
            assertTrue(e.getMessage().contains(damaged) && e.getMessage().contains("is damaged: its CRC32C does not match"),
                    e.getMessage());
            assertEquals(10L, c.execute("SELECT count(*) FROM ks.t").one().getLong(0), "the base table reads on");
            c.execute("INSERT INTO ks.t (pk, v) VALUES (100, 'after')");
            assertEquals("after", c.execute("SELECT v FROM ks.t WHERE pk = 100").one().getString("v"));
        }
    }
}
