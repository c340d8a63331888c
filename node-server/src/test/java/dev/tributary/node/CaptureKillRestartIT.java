package dev.tributary.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.protocol.v1.CqlServiceGrpc;
import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.Row;
import dev.tributary.protocol.v1.SessionState;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 while a rule-based capture process (parallelism 2) captures a write load; the restarted
 * node starts the ENABLED capture again, which rescans from its required checkpoint: its queue
 * holds each LCR exactly once, in SCN order within each stream.
 */
@Timeout(300)
class CaptureKillRestartIT {
    private static final Pattern V = Pattern.compile("\"v\":(\\d+)");

    @TempDir
    Path tmp;

    private static ExecuteResponse exec(CqlServiceGrpc.CqlServiceBlockingStub stub, String st) {
        return stub.withDeadlineAfter(30, TimeUnit.SECONDS).execute(ExecuteRequest.newBuilder().setStatement(st)
                .setSession(SessionState.newBuilder().setUsername("writer")).build());
    }

    @Test
    @DisplayName("CAP-CKPT-1 CAP-PERSIST-1 CAP-SCN-3: kill -9 during capture under write load, restart: the queue holds each LCR once, in SCN order per stream")
    void killDuringCapture() throws Exception {
        Path dir = tmp.resolve("node");
        int port = NodeProcess.freePort();
        Set<Integer> acked = ConcurrentHashMap.newKeySet();
        try (NodeProcess node = NodeProcess.start(dir, port)) {
            ManagedChannel ch = ManagedChannelBuilder.forTarget(node.endpoint).usePlaintext().build();
            CqlServiceGrpc.CqlServiceBlockingStub stub = CqlServiceGrpc.newBlockingStub(ch);
            exec(stub, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            exec(stub, "CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck))");
            exec(stub, "CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                    + "streams_name => 'cap', queue_name => 'cap_q')");
            exec(stub, "CALL dbms_capture_adm.set_parameter(capture_name => 'cap', parameter => 'parallelism', value => '2')");
            exec(stub, "CALL dbms_capture_adm.start_capture(capture_name => 'cap')");
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger next = new AtomicInteger();
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                Thread th = new Thread(() -> {
                    while (!stop.get()) {
                        int v = next.getAndIncrement();
                        try {
                            exec(stub, "INSERT INTO ks.t (pk, ck, v) VALUES (" + (v % 40) + ", " + v + ", " + v + ")");
                            acked.add(v);
                        } catch (RuntimeException e) {
                            return; // the node died: this write may or may not have committed
                        }
                    }
                });
                th.start();
                writers.add(th);
            }
            TestNodes.await(() -> acked.size() >= 400, Duration.ofSeconds(90), "400 acknowledged writes");
            node.kill();
            stop.set(true);
            for (Thread th : writers) {
                th.join(30_000);
            }
            ch.shutdownNow();
        }
        try (NodeProcess node = NodeProcess.start(dir, port)) {
            ManagedChannel ch = ManagedChannelBuilder.forTarget(node.endpoint).usePlaintext().build();
            CqlServiceGrpc.CqlServiceBlockingStub stub = CqlServiceGrpc.newBlockingStub(ch);
            assertEquals("ENABLED", exec(stub, "SELECT status FROM system_views.capture WHERE capture_name = 'cap'")
                    .getRows(0).getValues(0).getText(), "an enabled capture starts again with its node");
            int later = 1_000_000;
            long lastScn = exec(stub, "INSERT INTO ks.t (pk, ck, v) VALUES (1, " + later + ", " + later + ")").getCommitScn();
            TestNodes.await(() -> exec(stub, "SELECT captured_scn FROM system_views.capture WHERE capture_name = 'cap'")
                    .getRows(0).getValues(0).getInteger() >= lastScn, Duration.ofSeconds(60), "the capture to catch up");
            Set<Integer> inTable = new java.util.HashSet<>();
            for (Row r : exec(stub, "SELECT ck FROM ks.t").getRowsList()) {
                inTable.add((int) r.getValues(0).getInteger());
            }
            assertTrue(inTable.containsAll(acked));
            Map<Integer, Integer> inQueue = new HashMap<>();
            Map<String, Long> lastScnOfStream = new HashMap<>();
            Set<String> positions = new java.util.HashSet<>();
            for (Row r : exec(stub, "SELECT \"cdc$stream_id\", \"cdc$time\", \"cdc$batch_seq_no\", \"lcr$scn\", lcr "
                    + "FROM system_queues.cap_q").getRowsList()) {
                String stream = java.util.HexFormat.of().formatHex(r.getValues(0).getBlob().toByteArray());
                assertTrue(positions.add(stream + "/" + r.getValues(1).getUuid() + "/" + r.getValues(2).getInteger()),
                        "a position holds one LCR");
                long scn = r.getValues(3).getInteger();
                Long prev = lastScnOfStream.put(stream, scn);
                assertTrue(prev == null || prev <= scn, "SCN order within the stream");
                Matcher m = V.matcher(r.getValues(4).getText());
                assertTrue(m.find(), r.getValues(4).getText());
                inQueue.merge(Integer.parseInt(m.group(1)), 1, Integer::sum);
            }
            for (Map.Entry<Integer, Integer> e : inQueue.entrySet()) {
                assertEquals(1, e.getValue(), "write " + e.getKey() + " is in the queue " + e.getValue() + " times");
            }
            Set<Integer> expected = new java.util.HashSet<>(inTable);
            assertEquals(expected, inQueue.keySet(), "the queue holds exactly the committed writes");
            ch.shutdownNow();
            assertTrue(node.stopCleanly());
        }
    }
}
