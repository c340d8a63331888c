package dev.tributary.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.tributary.protocol.v1.CommitRequest;
import dev.tributary.protocol.v1.ConsumerGroupServiceGrpc;
import dev.tributary.protocol.v1.FetchPositionsRequest;
import dev.tributary.protocol.v1.GroupLog;
import dev.tributary.protocol.v1.GroupState;
import dev.tributary.protocol.v1.HeartbeatRequest;
import dev.tributary.protocol.v1.JoinRequest;
import dev.tributary.protocol.v1.LcrPosition;
import dev.tributary.protocol.v1.StreamPosition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node side of consumer groups, through the wire: membership by lease with epochs, fencing
 * of a member that lost its place, committed positions, the group's low watermark, the applied
 * SCN it gives a capture, and retention that keeps a log until every group has passed it.
 */
@Timeout(120)
class ConsumerGroupsIT {
    private static final long UUID_EPOCH_OFFSET = 0x01b21dd213814000L;

    private static ConsumerGroupServiceGrpc.ConsumerGroupServiceBlockingStub groups(TestNodes.Wire w) {
        return ConsumerGroupServiceGrpc.newBlockingStub(w.channel);
    }

    private static GroupState join(TestNodes.Wire w, String group, GroupLog log, String member, long leaseMillis) {
        return groups(w).join(JoinRequest.newBuilder().setGroup(group).setLog(log).setMemberId(member)
                .setLeaseMillis(leaseMillis).build());
    }

    private static long commit(TestNodes.Wire w, String group, String member, long epoch, long watermarkMicros) {
        return groups(w).commit(CommitRequest.newBuilder().setGroup(group).setMemberId(member).setEpoch(epoch)
                .setLowWatermarkMicros(watermarkMicros).build()).getLowWatermarkMicros();
    }

    private static Status.Code code(Runnable call) {
        return assertThrows(StatusRuntimeException.class, call::run).getStatus().getCode();
    }

    /** The times (micros) of the table's log entries, ascending. */
    private static List<Long> logTimes(TestNodes.Wire w) {
        List<Long> out = new ArrayList<>();
        for (var r : w.exec("SELECT \"cdc$time\" FROM ks.t_scylla_cdc_log").getRowsList()) {
            out.add((UUID.fromString(r.getValues(0).getUuid()).timestamp() - UUID_EPOCH_OFFSET) / 10);
        }
        out.sort(null);
        return out;
    }

    @Test
    @DisplayName("a group's members hold leases; every change of membership is a new epoch; a member under an old epoch or without a lease is fenced")
    void membershipEpochsAndFencing(@TempDir Path dir) {
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node)) {
            w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            w.exec("CREATE TABLE ks.t (pk int PRIMARY KEY, v int) WITH cdc = {'enabled': true}");
            GroupLog table = GroupLog.newBuilder().setTable("ks.t").build();
            GroupState one = join(w, "g", table, "m1", 60_000);
            assertEquals(List.of("m1"), one.getMembersList());
            GroupState two = join(w, "g", table, "m2", 400);
            assertEquals(one.getEpoch() + 1, two.getEpoch(), "a member joining is a new epoch");
            assertEquals(List.of("m1", "m2"), two.getMembersList());
            assertEquals(two.getEpoch(), join(w, "g", table, "m1", 60_000).getEpoch(), "a member rejoining changes nothing");

            assertEquals(Status.Code.FAILED_PRECONDITION, code(() -> commit(w, "g", "m1", one.getEpoch(), 1)),
                    "a commit under the old epoch is fenced");
            StreamPosition p = StreamPosition.newBuilder().setStreamId(ByteString.copyFrom(new byte[16]))
                    .setLast(LcrPosition.newBuilder().setStreamId(ByteString.copyFrom(new byte[16])).setTime("t").setBatchSeqNo(2))
                    .setThroughMicros(77).build();
            groups(w).commit(CommitRequest.newBuilder().setGroup("g").setMemberId("m1").setEpoch(two.getEpoch())
                    .addPositions(p).setLowWatermarkMicros(1000).build());
            assertEquals(List.of(p), groups(w).fetchPositions(FetchPositionsRequest.newBuilder().setGroup("g").build())
                    .getPositionsList(), "committed positions are kept in the cluster");

            // m2 stops heartbeating: once its lease runs out the next call removes it
            TestNodes.await(() -> groups(w).heartbeat(HeartbeatRequest.newBuilder().setGroup("g").setMemberId("m1").build())
                    .getMembersList().equals(List.of("m1")), Duration.ofSeconds(10), "m2's lease to run out");
            long three = groups(w).heartbeat(HeartbeatRequest.newBuilder().setGroup("g").setMemberId("m1").build()).getEpoch();
            assertEquals(two.getEpoch() + 1, three, "a member expiring is a new epoch");
            assertEquals(Status.Code.NOT_FOUND, code(() -> groups(w).heartbeat(HeartbeatRequest.newBuilder().setGroup("g")
                    .setMemberId("m2").build())), "a member whose lease ran out must join again");
            assertEquals(Status.Code.FAILED_PRECONDITION, code(() -> commit(w, "g", "m2", three, 5)),
                    "and cannot commit: another member reads its streams now");
            assertEquals(Status.Code.INVALID_ARGUMENT, code(() -> join(w, "g", GroupLog.newBuilder().setQueue("q").build(), "m3", 0)),
                    "a group reads one log");
            assertEquals(Status.Code.NOT_FOUND, code(() -> join(w, "h", GroupLog.newBuilder().setTable("ks.nope").build(), "m", 0)));
            assertEquals(1, w.exec("SELECT group_name, epoch, members FROM system_views.consumer_groups").getRowsCount());
        }
    }

    @Test
    @DisplayName("a table's log is kept until every group on it has passed an entry; the low watermark is the lowest member's")
    void retentionWaitsForEveryGroup(@TempDir Path dir) throws Exception {
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node)) {
            w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            w.exec("CREATE TABLE ks.t (pk int PRIMARY KEY, v int) WITH cdc = {'enabled': true, 'ttl': 0}");
            for (int i = 0; i < 20; i++) {
                w.exec("INSERT INTO ks.t (pk, v) VALUES (" + i + ", " + i + ")");
            }
            TestNodes.await(() -> logTimes(w).size() >= 20, Duration.ofSeconds(20), "the 20 inserts logged");
            List<Long> times = logTimes(w);
            long cut = times.get(10);
            GroupLog table = GroupLog.newBuilder().setTable("ks.t").build();
            long a = join(w, "a", table, "a1", 60_000).getEpoch();
            long b = join(w, "b", table, "b1", 60_000).getEpoch();
            assertEquals(cut, commit(w, "a", "a1", a, cut), "a's watermark is its one member's");
            // b has passed nothing: two retention rounds later (the second begun after a's commit)
            // everything is still there
            long rounds = node.retentionRounds();
            TestNodes.await(() -> node.retentionRounds() >= rounds + 2, Duration.ofSeconds(30), "two retention rounds");
            assertEquals(times, logTimes(w), "nothing goes while group b has not passed it");

            long b2 = join(w, "b", table, "b2", 60_000).getEpoch();
            commit(w, "b", "b1", b2, cut + 1);
            assertEquals(0, groups(w).heartbeat(HeartbeatRequest.newBuilder().setGroup("b").setMemberId("b1").build())
                    .getLowWatermarkMicros(), "b2 has not committed: the group has passed nothing yet");
            assertEquals(cut, commit(w, "b", "b2", b2, cut), "the group is as far as its slowest member");
            TestNodes.await(() -> logTimes(w).size() == times.size() - 10, Duration.ofSeconds(10),
                    "the entries both groups passed to go");
            assertEquals(times.subList(10, times.size()), logTimes(w), "exactly the entries below the watermark went");
        }
    }

    @Test
    @DisplayName("CAP-SCN-1: a capture's applied SCN is the low watermark of the groups reading its queue, and moves as they commit")
    void appliedScnFollowsTheGroups(@TempDir Path dir) {
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node)) {
            w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            w.exec("CREATE TABLE ks.t (pk int PRIMARY KEY, v int)");
            w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                    + "streams_name => 'cap', queue_name => 'q')");
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'cap')");
            assertNull(applied(w), "no group has passed anything");
            GroupLog queue = GroupLog.newBuilder().setQueue("q").build();
            long epoch = join(w, "readers", queue, "r1", 60_000).getEpoch();
            long t1 = System.currentTimeMillis() * 1000;
            commit(w, "readers", "r1", epoch, t1);
            assertEquals((t1 / 1000) << 16, applied(w));
            commit(w, "readers", "r1", epoch, t1 + 5_000_000);
            assertEquals(((t1 + 5_000_000) / 1000) << 16, applied(w), "the applied SCN moves as the group commits");
            commit(w, "readers", "r1", epoch, t1);
            assertEquals(((t1 + 5_000_000) / 1000) << 16, applied(w), "and never goes back");
        }
    }

    @Test
    @DisplayName("RELIABILITY D5: over ten restarts of the node, with writes and group commits between them, a capture's "
            + "required checkpoint SCN, captured SCN and applied SCN never decrease, and each LCR is in its queue once")
    void scnsNeverDecreaseOverRestarts(@TempDir Path dir) {
        int restarts = Integer.getInteger("tributary.d5.restarts", 10);
        long[] last = {Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE};
        int written = 0;
        for (int round = 0; round <= restarts; round++) {
            try (TributaryNode node = round == 0 ? TestNodes.startOperating(dir)
                    : TributaryNode.start(TestNodes.config(dir, java.time.Duration.ofMillis(300)));
                    TestNodes.Wire w = new TestNodes.Wire(node)) {
                if (round == 0) {
                    w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
                    w.exec("CREATE TABLE ks.t (pk int PRIMARY KEY, v int)");
                    w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                            + "streams_name => 'cap', queue_name => 'q')");
                    w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'cap')");
                } else {
                    // right after the restart, before anything new: where the node picked up is not behind where it was
                    assertNotBehind(w, last, "round " + round + " at restart");
                }
                long scn = 0;
                for (int i = 0; i < 5; i++) {
                    scn = w.exec("INSERT INTO ks.t (pk, v) VALUES (" + written + ", " + round + ")").getCommitScn();
                    written++;
                }
                w.awaitCaptured("cap", scn);
                GroupLog queue = GroupLog.newBuilder().setQueue("q").build();
                long epoch = join(w, "readers", queue, "r" + round, 60_000).getEpoch();
                commit(w, "readers", "r" + round, epoch, System.currentTimeMillis() * 1000);
                groups(w).leave(dev.tributary.protocol.v1.LeaveRequest.newBuilder().setGroup("readers").setMemberId("r" + round)
                        .build());
                assertNotBehind(w, last, "round " + round);
                assertEquals(written, w.queueLcrs("q").size(), "round " + round + ": each LCR once across the restarts");
            }
        }
        assertTrue(last[2] != Long.MIN_VALUE, "the groups' commits gave an applied SCN");
    }

    /** Reads required_checkpoint_scn, captured_scn and applied_scn and checks none went below {@code last}, then keeps them. */
    private static void assertNotBehind(TestNodes.Wire w, long[] last, String when) {
        var row = w.exec("SELECT required_checkpoint_scn, captured_scn, applied_scn FROM system_views.capture "
                + "WHERE capture_name = 'cap'").getRows(0);
        String[] names = {"required_checkpoint_scn", "captured_scn", "applied_scn"};
        for (int i = 0; i < 3; i++) {
            long v = row.getValues(i).hasInteger() ? row.getValues(i).getInteger() : Long.MIN_VALUE;
            assertTrue(v >= last[i], when + ": " + names[i] + " went back from " + last[i] + " to " + v);
            last[i] = v;
        }
    }

    private static Long applied(TestNodes.Wire w) {
        var v = w.exec("SELECT applied_scn FROM system_views.capture WHERE capture_name = 'cap'").getRows(0).getValues(0);
        return v.hasInteger() ? v.getInteger() : null;
    }
}
