package dev.tributary.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.generations.Generation;
import dev.tributary.generations.StreamId;
import dev.tributary.generations.Vnode;
import dev.tributary.generations.TokenRing;
import dev.tributary.protocol.v1.ExecuteResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The first half of the Scylla seed's "The Next Generation" example, on a single node. */
@Timeout(120)
class NextGenerationFirstHalfIT {
    @TempDir
    Path dir;

    @Test
    @DisplayName("CDC-GEN-5 CDC-GEN-6 CDC-GEN-3: one generation; the log entry's stream is in the vnode of token(pk)")
    void firstGenerationAndTheVnodeInvariant() {
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node)) {
            ExecuteResponse gens = w.exec("SELECT time FROM system_distributed.cdc_generation_timestamps WHERE key = 'timestamps'");
            assertEquals(1, gens.getRowsCount());
            w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            w.exec("CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");
            w.exec("INSERT INTO ks.t (pk, ck, v) values (0,0,0)");
            TestNodes.await(() -> w.exec("SELECT \"cdc$stream_id\", pk FROM ks.t_scylla_cdc_log").getRowsCount() == 1,
                    Duration.ofSeconds(20), "the captured LCR");
            ExecuteResponse log = w.exec("SELECT \"cdc$stream_id\", pk FROM ks.t_scylla_cdc_log");
            assertEquals("cdc$stream_id", log.getColumns(0).getName());
            assertEquals(0, log.getRows(0).getValues(1).getInteger());
            StreamId stream = StreamId.fromBytes(log.getRows(0).getValues(0).getBlob().toByteArray());
            long token = w.exec("SELECT token(pk) FROM ks.t WHERE pk = 0").getRows(0).getValues(0).getInteger();
            Generation g = node.generations().latest().orElseThrow();
            assertEquals(stream, g.streamFor(token));
            TokenRing ring = TokenRing.empty().with("n", g.vnodes().stream().map(v -> v.rangeEnd()).toList());
            Vnode vnode = ring.vnodeOf(token);
            assertTrue(vnode.contains(stream.token()), "stream token " + stream.token() + " outside vnode " + vnode);
        }
    }
}
