package dev.tributary.node.nativeproto;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.scylladb.cdc.lib.CDCConsumer;
import com.scylladb.cdc.model.TableName;
import com.scylladb.cdc.model.worker.RawChange;
import com.scylladb.cdc.model.worker.RawChangeConsumer;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * scylla-cdc-java, the library ScyllaDB users read CDC logs with, unchanged against Tributary:
 * a consumer built with its {@code CDCConsumer} builder follows a table and receives every write
 * exactly once.
 */
@Timeout(300)
class ScyllaCdcJavaIT {
    @TempDir
    Path dir;

    /** Every delta a consumer received, counted per primary key value. */
    static final class Received implements RawChangeConsumer {
        final Map<Integer, AtomicInteger> byKey = new ConcurrentHashMap<>();

        @Override
        public CompletableFuture<Void> consume(RawChange change) {
            if (change.getOperationType() == RawChange.OperationType.ROW_INSERT) {
                byKey.computeIfAbsent(change.getCell("pk").getInt(), k -> new AtomicInteger()).incrementAndGet();
            }
            return CompletableFuture.completedFuture(null);
        }
    }

    static CDCConsumer consumer(TributaryNode contact, String ks, String table, Received received) {
        String ep = contact.nativeEndpoint();
        return CDCConsumer.builder()
                .addContactPoint(new InetSocketAddress("127.0.0.1", Integer.parseInt(ep.substring(ep.lastIndexOf(':') + 1))))
                .addTable(new TableName(ks, table))
                .withConsumer(received)
                .withWorkersCount(1)
                // Tributary's safe time: a window is read once no write can land in it any more
                .withConfidenceWindowSizeMs(1000)
                .withQueryTimeWindowSizeMs(2000)
                .withSleepBeforeFirstGenerationMs(200)
                .withSleepBeforeGenerationDoneMs(200)
                .withSleepAfterExceptionMs(200)
                .build();
    }

    @Test
    @DisplayName("a CDCConsumer receives every write to a table once")
    void consumesEveryWriteOnce() throws Exception {
        try (TributaryNode n1 = TestNodes.startOperating(dir.resolve("n1")); TestNodes.Wire w = new TestNodes.Wire(n1)) {
            w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            w.exec("CREATE TABLE ks.t (pk int PRIMARY KEY, v text) WITH cdc = {'enabled': true}");
            Received received = new Received();
            try (CDCConsumer c = consumer(n1, "ks", "t", received)) {
                c.start();
                for (int i = 0; i < 200; i++) {
                    w.exec("INSERT INTO ks.t (pk, v) VALUES (" + i + ", 'v" + i + "')");
                }
                TestNodes.await(() -> received.byKey.size() == 200, Duration.ofSeconds(60),
                        () -> "200 keys, got " + received.byKey.size());
            }
            received.byKey.forEach((k, n) -> assertEquals(1, n.get(), "key " + k + " once"));
        }
    }
}
