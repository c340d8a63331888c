package dev.tributary.node.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.PreparedStatement;
import dev.tributary.client.TributaryClient;
import dev.tributary.client.errors.NotFoundException;
import dev.tributary.node.TributaryNode;
import dev.tributary.node.kit.InProcessCluster;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A DDL run on one node is in force on every node as soon as it returns, whatever their watches have delivered. */
@Timeout(120)
class ClusterSchemaIT {
    @Test
    @DisplayName("a table created on node 1 is found at once on node 2 while node 2's schema watch is held back; "
            + "a table nobody created is still unknown")
    void aTableCreatedElsewhereIsFoundAtOnce(@TempDir Path dir) throws Exception {
        try (InProcessCluster cluster = InProcessCluster.builder(dir).ringDelay(Duration.ofMillis(300)).build()) {
            TributaryNode first = cluster.start("n1");
            TributaryNode second = cluster.start("n2");
            try (TributaryClient one = TributaryClient.builder().endpoints(first.endpoint()).build();
                    TributaryClient two = TributaryClient.builder().endpoints(second.endpoint()).build()) {
                Runnable resume = second.schema().pauseFollowing();
                try {
                    one.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
                    one.execute("CREATE TABLE ks.t (pk int PRIMARY KEY, v int) WITH cdc = {'enabled': true}");
                    // a PREPARE goes to the contact node, not to a key's owner: node 2 resolves ks.t itself
                    PreparedStatement insert = two.prepare("INSERT INTO ks.t (pk, v) VALUES (?, ?)");
                    for (int i = 0; i < 20; i++) {
                        two.execute(insert.bind(i, i));
                    }
                    assertEquals(20L, two.execute("SELECT count(*) FROM ks.t").one().getLong(0));
                    one.execute("ALTER TABLE ks.t ADD w int");
                    two.prepare("INSERT INTO ks.t (pk, v, w) VALUES (?, ?, ?)"); // a column added on node 1
                    NotFoundException e = assertThrows(NotFoundException.class, () -> two.prepare("INSERT INTO ks.nothing (pk) VALUES (?)"));
                    assertTrue(e.getMessage().contains("unknown table ks.nothing"), e.getMessage());
                } finally {
                    resume.run();
                }
            }
        }
    }
}
