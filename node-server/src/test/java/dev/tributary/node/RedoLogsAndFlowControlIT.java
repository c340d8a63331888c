package dev.tributary.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.protocol.v1.ChangeStreamServiceGrpc;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.Lcr;
import dev.tributary.protocol.v1.Row;
import dev.tributary.protocol.v1.SubscribeRequest;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Archived redo logs and their purging; the buffered queue's flow control with a stalled subscriber. */
@Timeout(240)
class RedoLogsAndFlowControlIT {
    private static final String KS = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}";

    /** (first_change, next_change, deleted, dictionary_begin) of every archived log. */
    private static List<long[]> archived(TestNodes.Wire w) {
        return w.exec("SELECT first_change, next_change, deleted, dictionary_begin FROM system_views.archived_log")
                .getRowsList().stream()
                .map(r -> new long[] {r.getValues(0).getInteger(), r.getValues(1).getInteger(),
                        r.getValues(2).getText().equals("YES") ? 1 : 0, r.getValues(3).getText().equals("YES") ? 1 : 0})
                .toList();
    }

    private static long checkpoint(TestNodes.Wire w, String capture) {
        return (Long) w.scalar("SELECT required_checkpoint_scn FROM system_views.capture WHERE capture_name = '" + capture + "'");
    }

    private static void insertBatch(TestNodes.Wire w, int from, int n, String payload) {
        StringBuilder b = new StringBuilder("BEGIN BATCH ");
        for (int i = from; i < from + n; i++) {
            b.append("INSERT INTO ks.t (id, v, p) VALUES (").append(i).append(", ").append(i).append(", '").append(payload)
                    .append("'); ");
        }
        w.exec(b.append("APPLY BATCH").toString());
    }

    @Test
    @DisplayName("CAP-DS-9 CAP-LOG-1: log switches archive the redo; an archived log is purged (logmnr_purged_log, deleted) only once every capture's required checkpoint is past it")
    void purgeOnlyBelowEveryCheckpoint(@TempDir Path dir) {
        try (TributaryNode node = TestNodes.startOperating(dir, "--redo-segment-bytes", "8192");
                TestNodes.Wire w = new TestNodes.Wire(node)) {
            w.exec(KS);
            w.exec("CREATE TABLE ks.t (id int PRIMARY KEY, v int, p text)");
            w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                    + "streams_name => 'hold', queue_name => 'q')");
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'hold')");
            long first = w.exec("INSERT INTO ks.t (id, v, p) VALUES (0, 0, 'x')").getCommitScn();
            w.awaitCaptured("hold", first);
            w.exec("CALL dbms_capture_adm.stop_capture(capture_name => 'hold')");
            long held = checkpoint(w, "hold");
            String payload = "p".repeat(200);
            for (int i = 1; i <= 400; i += 20) {
                insertBatch(w, i, 20, payload);
            }
            TestNodes.await(() -> archived(w).stream().filter(l -> l[0] > held).count() >= 3, Duration.ofSeconds(30),
                    "log switches by size");
            // the purge runs every second: give it two rounds, then nothing above the stopped capture may be gone
            long round = System.currentTimeMillis();
            TestNodes.await(() -> System.currentTimeMillis() - round > 2_500, Duration.ofSeconds(5), "two purge rounds");
            for (long[] l : archived(w)) {
                assertTrue(l[2] == 0 || l[1] - 1 <= held, "log [" + l[0] + ", " + l[1] + ") deleted above checkpoint " + held);
            }
            assertTrue(archived(w).stream().anyMatch(l -> l[0] > held && l[2] == 0), "the redo the stopped capture needs is kept");

            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'hold')");
            long last = w.exec("INSERT INTO ks.t (id, v, p) VALUES (1000, 1000, 'y')").getCommitScn();
            w.awaitCaptured("hold", last);
            assertEquals(402, w.queueLcrs("q").size(), "the capture resumed over the archived logs and lost nothing");
            TestNodes.await(() -> archived(w).stream().filter(l -> l[1] - 1 <= last && l[3] == 0).allMatch(l -> l[2] == 1),
                    Duration.ofSeconds(30), "every archived log below the checkpoints to be purged");
            assertTrue(archived(w).stream().anyMatch(l -> l[3] == 1 && l[2] == 0),
                    "the newest dictionary build's log is kept for captures still to be created from it");
            ExecuteResponse purged = w.exec("SELECT file_name FROM system_views.logmnr_purged_log");
            assertEquals(archived(w).stream().filter(l -> l[2] == 1).count(), purged.getRowsCount());
            assertTrue(purged.getRowsCount() >= 3);

            // CAP-DS-9: a capture created with a first SCN in a purged log would mine redo that is gone
            long gone = archived(w).stream().filter(l -> l[2] == 1).mapToLong(l -> l[0]).max().orElseThrow();
            w.exec("CALL dbms_streams_adm.set_up_queue(queue_name => 'late_q')");
            io.grpc.StatusRuntimeException late = org.junit.jupiter.api.Assertions.assertThrows(io.grpc.StatusRuntimeException.class,
                    () -> w.exec("CALL dbms_capture_adm.create_capture(queue_name => 'late_q', capture_name => 'late', "
                            + "first_scn => " + gone + ")"));
            assertTrue(late.getStatus().getDescription().contains("the redo from first_scn " + gone + " on is no longer all there"),
                    late.getStatus().getDescription());
        }
    }

    @Test
    @DisplayName("CAP-FLOW-1 CAP-Q-2 CAP-STATE-1: a subscriber that stops reading pauses the capture (PAUSED FOR FLOW CONTROL) with the buffered queue bounded; reading on resumes it and loses nothing")
    void flowControl(@TempDir Path dir) throws Exception {
        long capacity = 64 * 1024;
        try (TributaryNode node = TestNodes.startOperating(dir, "--queue-buffer-bytes", Long.toString(capacity));
                TestNodes.Wire w = new TestNodes.Wire(node)) {
            w.exec(KS);
            w.exec("CREATE TABLE ks.t (id int PRIMARY KEY, v int, p text)");
            w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                    + "streams_name => 'fc', queue_name => 'fq')");
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'fc')");

            Set<Integer> received = ConcurrentHashMap.newKeySet();
            AtomicReference<ClientCallStreamObserver<SubscribeRequest>> call = new AtomicReference<>();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            ChangeStreamServiceGrpc.newStub(w.channel).subscribe(SubscribeRequest.newBuilder().setQueue("fq").build(),
                    new ClientResponseObserver<SubscribeRequest, dev.tributary.protocol.v1.LcrBatch>() {
                        @Override
                        public void beforeStart(ClientCallStreamObserver<SubscribeRequest> c) {
                            c.disableAutoRequestWithInitial(0); // a consumer that reads nothing yet
                            call.set(c);
                        }

                        @Override
                        public void onNext(dev.tributary.protocol.v1.LcrBatch batch) {
                            for (Lcr lcr : batch.getLcrsList()) {
                                received.add((int) lcr.getNewValues(0).getValue().getInteger());
                            }
                        }

                        @Override
                        public void onError(Throwable t) {
                            failed.set(t);
                        }

                        @Override
                        public void onCompleted() {
                        }
                    });
            TestNodes.await(() -> ((Number) w.scalar("SELECT subscribers FROM system_views.buffered_queues WHERE queue_name = 'fq'"))
                    .longValue() == 1, Duration.ofSeconds(10), "the subscription");

            String payload = "f".repeat(300);
            int rows = 12_000;
            for (int i = 0; i < rows; i += 100) {
                insertBatch(w, i, 100, payload);
            }
            String state = "SELECT state FROM system_views.streams_capture WHERE capture_name = 'fc'";
            TestNodes.await(() -> w.scalar(state).equals("PAUSED FOR FLOW CONTROL"), Duration.ofSeconds(60),
                    "the capture to pause for flow control");
            long buffered = (Long) w.scalar("SELECT buffered_bytes FROM system_views.buffered_queues WHERE queue_name = 'fq'");
            // a region goes in whole only while the buffer stays within its bound (an empty buffer takes any
            // one); here each region is one 100-row entry, larger than half the bound
            assertTrue(buffered >= capacity / 2 && buffered <= Math.max(capacity, 150 * 1024),
                    "the buffer stops within its bound (or one region): " + buffered);
            long pausedAt = (Long) w.scalar("SELECT captured_scn FROM system_views.streams_capture WHERE capture_name = 'fc'");
            long end = w.exec("INSERT INTO ks.t (id, v, p) VALUES (" + rows + ", 0, 'end')").getCommitScn();
            assertTrue(pausedAt < end, "paused short of the end of the redo");

            call.get().request(Integer.MAX_VALUE);
            TestNodes.await(() -> received.size() == rows + 1 || failed.get() != null, Duration.ofSeconds(90),
                    "every LCR to reach the subscriber");
            assertEquals(null, failed.get());
            assertEquals(rows + 1, received.size());
            w.awaitCaptured("fc", end);
            assertTrue((Long) w.scalar("SELECT flow_control_pauses FROM system_views.streams_capture WHERE capture_name = 'fc'") > 0);
            TestNodes.await(() -> !w.scalar(state).equals("PAUSED FOR FLOW CONTROL"), Duration.ofSeconds(10), "resumed");
            call.get().cancel("done", null);
            TestNodes.await(() -> ((Number) w.scalar("SELECT subscribers FROM system_views.buffered_queues WHERE queue_name = 'fq'"))
                    .longValue() == 0, Duration.ofSeconds(10), "the subscription to end with the call");
        }
    }
}
