package dev.tributary.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.protocol.v1.ColumnSpec;
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
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
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
 * Kill -9 while a rules-based capture process mines under write load, restart on the same data
 * dir: the enabled capture starts again by itself, resumes at its checkpoint, and its queue holds
 * each LCR exactly once, in SCN order within each stream (Jepsen-style: a unique value per write).
 */
@Timeout(300)
class CaptureKillRestartIT {
    private static final String QUEUE = "cap_q";
    private static final Pattern V = Pattern.compile("\"new_values\":\\{[^}]*\"v\":(-?\\d+)");
    private static final Pattern COMMIT_SCN = Pattern.compile("\"commit_scn\":(\\d+)");

    @TempDir
    Path tmp;

    private static ExecuteResponse exec(CqlServiceGrpc.CqlServiceBlockingStub stub, String st) {
        return stub.withDeadlineAfter(30, TimeUnit.SECONDS).execute(ExecuteRequest.newBuilder().setStatement(st)
                .setSession(SessionState.newBuilder().setUsername("writer").setSessionId(1)).build());
    }

    /** Writers with unique values; each acknowledged value is recorded with the commit SCN it was given. */
    private static final class Writers {
        final Map<Integer, Long> acked = new ConcurrentHashMap<>();
        final AtomicInteger next = new AtomicInteger();
        private final AtomicBoolean stop = new AtomicBoolean();
        private final List<Thread> threads = new ArrayList<>();

        void start(CqlServiceGrpc.CqlServiceBlockingStub stub, int threadCount, int perThread) {
            stop.set(false);
            threads.clear();
            for (int t = 0; t < threadCount; t++) {
                Thread th = new Thread(() -> {
                    for (int i = 0; (perThread < 0 || i < perThread) && !stop.get(); i++) {
                        int v = next.getAndIncrement();
                        try {
                            long scn = exec(stub, "INSERT INTO ks.t (pk, ck, v) VALUES (" + (v % 50) + ", " + v + ", " + v + ")")
                                    .getCommitScn();
                            acked.put(v, scn);
                        } catch (RuntimeException e) {
                            return; // the node died: this write may or may not have committed
                        }
                    }
                }, "writer-" + t);
                th.start();
                threads.add(th);
            }
        }

        void stopAndJoin() throws InterruptedException {
            stop.set(true);
            join();
        }

        void join() throws InterruptedException {
            for (Thread th : threads) {
                th.join(30_000);
                org.junit.jupiter.api.Assertions.assertFalse(th.isAlive(), "writer " + th.getName() + " did not finish");
            }
        }
    }

    /** One row of the queue table, in the order the view returned it. */
    private record QueueRow(String stream, UUID time, int batchSeq, long scn, long commitScn, String command, String owner,
            String object, Integer v, String lcr) {
        String position() {
            return stream + "/" + time + "/" + batchSeq;
        }
    }

    @Test
    @DisplayName("CAP-PERSIST-1 CAP-CKPT-1 CAP-SCN-3: kill -9 during capture under write load, restart: the queue holds each LCR "
            + "exactly once, in SCN order per stream")
    void killNineDuringCaptureThenRestart() throws Exception {
        Path dir = tmp.resolve("node");
        Writers writers = new Writers();
        try (NodeProcess node = NodeProcess.start(dir)) {
            ManagedChannel ch = ManagedChannelBuilder.forTarget(node.endpoint).usePlaintext().build();
            CqlServiceGrpc.CqlServiceBlockingStub stub = CqlServiceGrpc.newBlockingStub(ch);
            exec(stub, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            exec(stub, "CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck))");
            exec(stub, "CALL dbms_streams_adm.set_up_queue(queue_name => '" + QUEUE + "')");
            exec(stub, "CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                    + "streams_name => 'cap', queue_name => '" + QUEUE + "')");
            exec(stub, "CALL dbms_capture_adm.start_capture(capture_name => 'cap')");
            assertEquals("ENABLED", captureColumn(stub, "status").getText());
            // the queue routes each change to the stream of the generation in force at its time
            long firstGeneration = exec(stub, "SELECT time FROM system_distributed.cdc_generation_timestamps").getRows(0)
                    .getValues(0).getTimestampMillis();
            TestNodes.await(() -> System.currentTimeMillis() >= firstGeneration, Duration.ofSeconds(10), "the first generation");

            writers.start(stub, 4, -1);
            TestNodes.awaitOrShowLog(node, () -> writers.acked.size() >= 300, Duration.ofSeconds(60), "300 acknowledged writes");
            // kill while the capture is mining: it has enqueued some of the writes, and the writers are still going
            long someAcked = writers.acked.values().stream().mapToLong(Long::longValue).min().orElseThrow();
            TestNodes.awaitOrShowLog(node, () -> captureColumn(stub, "captured_scn").getInteger() >= someAcked,
                    Duration.ofSeconds(30), "the capture to pass SCN " + someAcked + " under load");
            node.kill();
            writers.stopAndJoin();
            ch.shutdownNow();
        }
        int ackedBeforeKill = writers.acked.size();
        assertTrue(ackedBeforeKill >= 300, "acknowledged before the kill: " + ackedBeforeKill);

        try (NodeProcess node = NodeProcess.start(dir)) {
            ManagedChannel ch = ManagedChannelBuilder.forTarget(node.endpoint).usePlaintext().build();
            CqlServiceGrpc.CqlServiceBlockingStub stub = CqlServiceGrpc.newBlockingStub(ch);
            // seed: CAP-PERSIST-1 — nobody starts it: the capture was enabled, so it runs again with its node
            assertEquals("ENABLED", captureColumn(stub, "status").getText());
            TestNodes.awaitOrShowLog(node,
                    () -> exec(stub, "SELECT state FROM system_views.streams_capture WHERE capture_name = 'cap'")
                    .getRowsCount() == 1, Duration.ofSeconds(20), "the capture to run again after the restart");

            writers.start(stub, 4, 25);
            writers.join();
            assertEquals(ackedBeforeKill + 100, writers.acked.size(), "every write after the restart is acknowledged");

            // seed: CAP-SCN-1 — the captured SCN (last scanned change) reaches the end of the redo thread
            long redoEnd = exec(stub, "SELECT current_scn FROM system_views.database").getRows(0).getValues(0).getInteger();
            long lastAcked = writers.acked.values().stream().mapToLong(Long::longValue).max().orElseThrow();
            assertTrue(redoEnd >= lastAcked, "redo end " + redoEnd + " is below the last acknowledged SCN " + lastAcked);
            TestNodes.awaitOrShowLog(node, () -> captureColumn(stub, "captured_scn").getInteger() >= redoEnd,
                    Duration.ofSeconds(60), "the capture to reach the redo end " + redoEnd);
            assertEquals("ENABLED", captureColumn(stub, "status").getText(), "the capture did not abort");
            // seed: CAP-CKPT-1 — the restart point moved on with the capture
            assertTrue(captureColumn(stub, "required_checkpoint_scn").getInteger() >= lastAcked,
                    "required checkpoint SCN below the last acknowledged write " + lastAcked);
            long startScn = captureColumn(stub, "start_scn").getInteger();

            Set<Integer> inTable = new HashSet<>();
            for (Row r : exec(stub, "SELECT v FROM ks.t").getRowsList()) {
                inTable.add((int) r.getValues(0).getInteger());
            }
            List<QueueRow> queue = readQueue(exec(stub, "SELECT * FROM system_queues.\"" + QUEUE.toUpperCase(java.util.Locale.ROOT) + "\""));
            ch.shutdownNow();
            assertQueue(writers, inTable, queue, startScn);
            assertTrue(node.stopCleanly(), "SIGTERM shuts the node down cleanly");
        }
    }

    private static void assertQueue(Writers writers, Set<Integer> inTable, List<QueueRow> queue, long startScn) {
        assertTrue(inTable.containsAll(writers.acked.keySet()), "acknowledged writes missing from the table: "
                + TestNodes.missing(writers.acked.keySet(), inTable));
        // seed: CAP-SCN-3 — the restarted capture scans from its checkpoint: nothing twice, nothing below the start SCN
        // no position repeats: a recaptured transaction lands on its old positions or not at all
        Set<String> positions = new HashSet<>();
        for (QueueRow r : queue) {
            assertTrue(positions.add(r.position()), "position " + r.position() + " is in the queue twice: " + r.lcr());
        }
        // each committed write is one INSERT LCR, exactly once
        Map<Integer, Integer> times = new HashMap<>();
        for (QueueRow r : queue) {
            assertEquals("INSERT", r.command(), r.lcr());
            assertEquals("ks", r.owner(), r.lcr());
            assertEquals("t", r.object(), r.lcr());
            assertTrue(r.v() != null, "an INSERT LCR without v: " + r.lcr());
            assertEquals(r.scn(), r.commitScn(), "lcr$scn and commit_scn differ: " + r.lcr());
            assertTrue(r.scn() >= startScn, "an LCR below the start SCN " + startScn + ": " + r.lcr());
            times.merge(r.v(), 1, Integer::sum);
        }
        List<String> repeated = new ArrayList<>();
        times.forEach((v, n) -> {
            if (n != 1) {
                repeated.add(v + " x" + n);
            }
        });
        assertEquals(List.of(), first(repeated), "writes whose LCR is in the queue more than once");
        assertTrue(times.keySet().containsAll(writers.acked.keySet()), "acknowledged writes missing from the queue: "
                + TestNodes.missing(writers.acked.keySet(), times.keySet()));
        // the unacknowledged writes that committed (they are in the table) are in the queue too, and nothing else is
        assertEquals(new TreeSet<>(inTable), new TreeSet<>(times.keySet()), "the queue holds exactly the committed writes");
        for (QueueRow r : queue) {
            Long ackedScn = writers.acked.get(r.v());
            if (ackedScn != null) {
                assertEquals(ackedScn.longValue(), r.scn(), "the LCR of write " + r.v() + " carries another SCN than its commit");
            }
        }
        // within each stream the view's order is position order, and position order is commit SCN order
        Map<String, List<QueueRow>> byStream = new LinkedHashMap<>();
        for (QueueRow r : queue) {
            byStream.computeIfAbsent(r.stream(), s -> new ArrayList<>()).add(r);
        }
        assertTrue(byStream.size() > 1, "50 partitions over 8 vnodes should spread over several streams: " + byStream.keySet());
        for (Map.Entry<String, List<QueueRow>> s : byStream.entrySet()) {
            List<QueueRow> rows = s.getValue();
            for (int i = 1; i < rows.size(); i++) {
                QueueRow a = rows.get(i - 1);
                QueueRow b = rows.get(i);
                assertTrue(comparePositions(a, b) < 0, "stream " + s.getKey() + ": position " + a.position()
                        + " is not before " + b.position());
                assertTrue(a.commitScn() < b.commitScn(), "stream " + s.getKey() + ": commit SCN " + a.commitScn() + " (v="
                        + a.v() + ") comes before " + b.commitScn() + " (v=" + b.v() + ") but is not lower");
            }
        }
    }

    /** Position order within a stream: time (the timeuuid's timestamp, then its low half unsigned), then batch sequence. */
    private static int comparePositions(QueueRow a, QueueRow b) {
        int c = Long.compare(a.time().timestamp(), b.time().timestamp());
        if (c == 0) {
            c = Long.compareUnsigned(a.time().getLeastSignificantBits(), b.time().getLeastSignificantBits());
        }
        return c != 0 ? c : Integer.compare(a.batchSeq(), b.batchSeq());
    }

    private static List<QueueRow> readQueue(ExecuteResponse r) {
        Map<String, Integer> col = new HashMap<>();
        List<ColumnSpec> specs = r.getColumnsList();
        for (int i = 0; i < specs.size(); i++) {
            col.put(specs.get(i).getName(), i);
        }
        List<QueueRow> out = new ArrayList<>();
        for (Row row : r.getRowsList()) {
            String lcr = row.getValues(col.get("lcr")).getText();
            Matcher v = V.matcher(lcr);
            Matcher commit = COMMIT_SCN.matcher(lcr);
            assertTrue(commit.find(), "an LCR without commit_scn: " + lcr);
            out.add(new QueueRow(HexFormat.of().formatHex(row.getValues(col.get("cdc$stream_id")).getBlob().toByteArray()),
                    UUID.fromString(row.getValues(col.get("cdc$time")).getUuid()),
                    (int) row.getValues(col.get("cdc$batch_seq_no")).getInteger(),
                    row.getValues(col.get("lcr$scn")).getInteger(), Long.parseLong(commit.group(1)),
                    row.getValues(col.get("lcr$command_type")).getText(), row.getValues(col.get("lcr$object_owner")).getText(),
                    row.getValues(col.get("lcr$object_name")).getText(), v.find() ? Integer.valueOf(v.group(1)) : null, lcr));
        }
        return out;
    }

    private static dev.tributary.protocol.v1.Value captureColumn(CqlServiceGrpc.CqlServiceBlockingStub stub, String column) {
        ExecuteResponse r = exec(stub, "SELECT " + column + " FROM system_views.capture WHERE capture_name = 'cap'");
        assertEquals(1, r.getRowsCount(), "system_views.capture rows for cap");
        return r.getRows(0).getValues(0);
    }

    private static <T> List<T> first(List<T> l) {
        return l.subList(0, Math.min(20, l.size()));
    }
}
