package dev.tributary.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.protocol.v1.CqlServiceGrpc;
import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.SessionState;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kill -9 in the middle of a stream of writes, restart on the same data dir: every acknowledged
 * write is in the table and in the log exactly once (Jepsen-style: a unique value per write).
 */
@Timeout(300)
class KillRestartIT {
    @TempDir
    Path tmp;

    private static ExecuteResponse exec(CqlServiceGrpc.CqlServiceBlockingStub stub, String st) {
        return stub.withDeadlineAfter(30, TimeUnit.SECONDS).execute(ExecuteRequest.newBuilder().setStatement(st)
                .setSession(SessionState.newBuilder().setUsername("writer")).build());
    }

    @Test
    @DisplayName("kill -9 under write load, restart: every acknowledged write in the table and the log exactly once")
    void killNineThenRestart() throws Exception {
        Path dir = tmp.resolve("node");
        Set<Integer> acked = ConcurrentHashMap.newKeySet();
        long firstGeneration;
        try (NodeProcess node = NodeProcess.start(dir)) {
            ManagedChannel ch = ManagedChannelBuilder.forTarget(node.endpoint).usePlaintext().build();
            CqlServiceGrpc.CqlServiceBlockingStub stub = CqlServiceGrpc.newBlockingStub(ch);
            exec(stub, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            exec(stub, "CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");
            firstGeneration = exec(stub, "SELECT time FROM system_distributed.cdc_generation_timestamps").getRows(0).getValues(0)
                    .getTimestampMillis();
            TestNodes.await(() -> System.currentTimeMillis() >= firstGeneration, Duration.ofSeconds(10), "the first generation");
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger next = new AtomicInteger();
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                Thread th = new Thread(() -> {
                    while (!stop.get()) {
                        int v = next.getAndIncrement();
                        try {
                            exec(stub, "INSERT INTO ks.t (pk, ck, v) VALUES (" + (v % 50) + ", " + v + ", " + v + ")");
                            acked.add(v);
                        } catch (RuntimeException e) {
                            return; // the node died: this write may or may not have committed
                        }
                    }
                });
                th.start();
                writers.add(th);
            }
            TestNodes.await(() -> acked.size() >= 300, Duration.ofSeconds(60), "300 acknowledged writes");
            node.kill();
            stop.set(true);
            for (Thread th : writers) {
                th.join(30_000);
            }
            ch.shutdownNow();
        }
        assertTrue(acked.size() >= 300);
        try (NodeProcess node = NodeProcess.start(dir); TestNodes.Wire w = new TestNodes.Wire(node.endpoint())) {
            TestNodes.assertTableLoggedOnce(node, w, "ks.t", "ck", acked);
            assertEquals(1, w.exec("SELECT time FROM system_distributed.cdc_generation_timestamps").getRowsCount(),
                    "a restarted node keeps its generation");
            assertTrue(node.stopCleanly(), "SIGTERM shuts the node down cleanly");
        }
    }
}
