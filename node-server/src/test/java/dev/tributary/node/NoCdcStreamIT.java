package dev.tributary.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.node.net.ErrorMapping;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The Scylla seed's "could not find any CDC stream" example. */
@Timeout(120)
class NoCdcStreamIT {
    @Test
    @DisplayName("CDC-GEN-10: the first generation starts a ring delay ahead; a CDC write before it fails, other writes work")
    void writeBeforeTheFirstGeneration(@TempDir Path dir) {
        long before = System.currentTimeMillis();
        try (TributaryNode node = TributaryNode.start(TestNodes.config(dir, Duration.ofSeconds(60)));
                TestNodes.Wire w = new TestNodes.Wire(node)) {
            long ts = w.exec("SELECT time FROM system_distributed.cdc_generation_timestamps WHERE key = 'timestamps'")
                    .getRows(0).getValues(0).getTimestampMillis();
            assertTrue(ts >= before + 60_000, "first generation at " + ts + " is not a ring delay after start " + before);
            w.exec("CREATE KEYSPACE ks WITH replication = {'class':'NetworkTopologyStrategy', 'replication_factor': 1}");
            w.exec("CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                    () -> w.exec("INSERT INTO ks.t (pk, ck, v) values (0, 0, 0)"));
            assertEquals("NO_CDC_STREAM", e.getTrailers().get(ErrorMapping.ERROR_CODE));
            String m = e.getStatus().getDescription();
            assertTrue(m.startsWith("cdc::metadata::get_stream: could not find any CDC stream (current time: "), m);
            assertTrue(m.endsWith("Are we in the middle of a cluster upgrade?"), m);
            assertEquals(0, w.exec("SELECT * FROM ks.t").getRowsCount(), "the failed write left nothing behind");
            w.exec("CREATE TABLE ks.plain (pk int PRIMARY KEY, v int)");
            w.exec("INSERT INTO ks.plain (pk, v) VALUES (1, 1)");
            assertEquals(1, w.exec("SELECT * FROM ks.plain").getRowsCount());
        }
    }
}
