package dev.tributary.node.changes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.ChangeConsumer;
import dev.tributary.client.ConsumerTestHooks;
import dev.tributary.client.LcrPosition;
import dev.tributary.client.StartPosition;
import dev.tributary.client.TributaryClient;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import dev.tributary.node.kit.DeliveryChecker;
import dev.tributary.node.kit.UniqueWriters;
import dev.tributary.protocol.v1.ConsumerGroupServiceGrpc;
import dev.tributary.protocol.v1.FetchPositionsRequest;
import dev.tributary.protocol.v1.StreamPosition;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14, with the delivery kit: consumer group members that crash mid-batch, stop early and
 * resume, against a real node under continuous writes; nothing acknowledged is left undelivered,
 * and retention never deletes what the group has not delivered.
 */
@Timeout(300)
class GroupDeliveryIT {
    private static final Duration LEASE = Duration.ofMillis(1000);

    private static TributaryNode node(Path dir, int tokens) {
        return TestNodes.startOperating(dir, "--max-write-skew", "300ms", "--num-tokens", Integer.toString(tokens));
    }

    private static void createTable(TributaryClient client) {
        client.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
        client.execute("CREATE TABLE ks.t (pk int, v int, PRIMARY KEY (pk)) WITH cdc = {'enabled': true}");
    }

    private static ChangeConsumer member(TributaryClient client, String group, DeliveryChecker seen, AtomicInteger count) {
        return member(client, group, seen, count, new ConcurrentHashMap<>());
    }

    /** @param first where the member's delivery began, per stream: its first LCR there */
    private static ChangeConsumer member(TributaryClient client, String group, DeliveryChecker seen, AtomicInteger count,
            Map<ByteBuffer, LcrPosition> first) {
        return ChangeConsumer.builder(client).table("ks.t").start(StartPosition.earliest()).workers(2).maxBatch(32)
                .group(group).groupLease(LEASE).groupCommitInterval(Duration.ofMillis(200)).handler(r -> {
                    if (!r.isDdl()) {
                        first.putIfAbsent(r.position().streamId(), r.position());
                    }
                    seen.record(r);
                    count.incrementAndGet();
                }).build();
    }

    /** The group's committed position per stream: the last LCR handled there (groups.proto FetchPositions). */
    private static Map<ByteBuffer, LcrPosition> committed(TestNodes.Wire w, String group) {
        Map<ByteBuffer, LcrPosition> out = new HashMap<>();
        for (StreamPosition p : ConsumerGroupServiceGrpc.newBlockingStub(w.channel)
                .fetchPositions(FetchPositionsRequest.newBuilder().setGroup(group).build()).getPositionsList()) {
            if (p.hasLast()) {
                out.put(ByteBuffer.wrap(p.getStreamId().toByteArray()), LcrPosition.of(p.getStreamId().toByteArray(),
                        UUID.fromString(p.getLast().getTime()), p.getLast().getBatchSeqNo()));
            }
        }
        return out;
    }

    /** The streams where a member's first LCR was not after the group's committed position. */
    private static List<String> notAfter(Map<ByteBuffer, LcrPosition> first, Map<ByteBuffer, LcrPosition> committed, int member) {
        List<String> out = new ArrayList<>();
        first.forEach((stream, p) -> {
            LcrPosition c = committed.get(stream);
            if (c != null && DeliveryChecker.ORDER.compare(p, c) <= 0) {
                out.add("member " + member + " began " + p + " at or before the committed " + c);
            }
        });
        return out;
    }

    @Test
    @DisplayName("RELIABILITY D4: twenty consumer crashes mid-batch while writers run, then a member that reads to the end: 0 gaps, "
            + "per stream in order; repeats only of what was delivered after a crashed member's last commit")
    void twentyCrashesLeaveNoGap(@TempDir Path dir) throws Exception {
        try (TributaryNode node = node(dir, 32); TributaryClient client = TributaryClient.builder().endpoints(node.endpoint()).build();
                TestNodes.Wire w = new TestNodes.Wire(node)) {
            createTable(client);
            DeliveryChecker seen = new DeliveryChecker();
            UniqueWriters writers = UniqueWriters.pkV();
            // RELIABILITY D4: each member starts every stream right after what the group had committed when the
            // one before it crashed — nothing committed comes again (the gaps are the checker's to find)
            Map<ByteBuffer, LcrPosition> committedAtCrash = Map.of();
            List<String> resumedBeforeCommit = new ArrayList<>();
            try {
                writers.start(1, () -> node);
                writers.start(2, () -> node);
                for (int crash = 0; crash < 20; crash++) {
                    AtomicInteger count = new AtomicInteger();
                    Map<ByteBuffer, LcrPosition> first = new ConcurrentHashMap<>();
                    ChangeConsumer c = member(client, "g", seen, count, first);
                    c.start();
                    int target = 20 + crash * 3;
                    int n = crash;
                    Map<ByteBuffer, LcrPosition> before = committedAtCrash;
                    // and to have committed some of it: a member that dies before its first commit (200 ms) leaves
                    // nothing to resume from, and the check below would hold for want of a committed position
                    TestNodes.await(() -> count.get() >= target && !committed(w, "g").equals(before), Duration.ofSeconds(60),
                            () -> "member " + n + " to deliver " + target + " LCRs and commit: " + ConsumerTestHooks.state(c));
                    ConsumerTestHooks.crash(c); // mid-batch: its handler is being called as it dies
                    resumedBeforeCommit.addAll(notAfter(first, committedAtCrash, crash));
                    // a commit the dead member sent may still land after this read: then it is later, never earlier
                    committedAtCrash = committed(w, "g");
                }
                writers.awaitMore(100);
            } finally {
                writers.close();
            }
            AtomicInteger count = new AtomicInteger();
            Map<ByteBuffer, LcrPosition> first = new ConcurrentHashMap<>();
            try (ChangeConsumer last = member(client, "g", seen, count, first)) {
                last.start();
                TestNodes.await(() -> seen.hasAll(writers), Duration.ofSeconds(60),
                        () -> "every acknowledged write delivered: " + seen.problems(writers) + "\n" + ConsumerTestHooks.state(last));
            }
            resumedBeforeCommit.addAll(notAfter(first, committedAtCrash, 20));
            assertEquals(List.of(), resumedBeforeCommit, "members that delivered again what the group had committed");
            assertTrue(!committedAtCrash.isEmpty(), "the crashed members committed positions");
            seen.verify(writers);
            assertTrue(writers.acked.size() > 500, "a real load: " + writers.acked.size());
        }
    }

    @Test
    @DisplayName("retention with a group that stopped early: while it is stopped nothing it has not delivered is "
            + "deleted (another group passed it all); resumed, it delivers every LCR; then retention deletes behind it")
    void retentionKeepsWhatAStoppedGroupHasNotDelivered(@TempDir Path dir) throws Exception {
        // many small streams, one worker: as tail reads (the LCRs after its limit are spread over many batches)
        try (TributaryNode node = node(dir, 256); TributaryClient client = TributaryClient.builder().endpoints(node.endpoint()).build();
                TestNodes.Wire w = new TestNodes.Wire(node)) {
            createTable(client);
            UniqueWriters writers = UniqueWriters.pkV();
            try {
                writers.start(1, () -> node);
                writers.awaitMore(400);
            } finally {
                writers.close();
            }
            long logged = writers.acked.size();
            TestNodes.await(() -> count(w) == logged, Duration.ofSeconds(20), "every write logged");

            DeliveryChecker slow = new DeliveryChecker();
            AtomicInteger slowCount = new AtomicInteger();
            try (ChangeConsumer early = ChangeConsumer.builder(client).table("ks.t").start(StartPosition.earliest())
                    .workers(1).group("slow").handler(r -> {
                        if (slowCount.get() >= 100) {
                            throw new IllegalStateException("stops early, as tail --limit 100 does");
                        }
                        slow.record(r);
                        slowCount.incrementAndGet();
                    }).build()) {
                early.start();
                TestNodes.await(() -> !early.isRunning(), Duration.ofSeconds(30), "the slow group to stop at its limit");
            }
            DeliveryChecker fast = new DeliveryChecker();
            try (ChangeConsumer all = member(client, "fast", fast, new AtomicInteger())) {
                all.start();
                TestNodes.await(() -> fast.hasAll(writers), Duration.ofSeconds(30), "the fast group to read everything");
                // the fast group's watermark passes every write; the slow one's holds retention back
                TestNodes.await(() -> watermarkMillis(client, "fast") > 0, Duration.ofSeconds(30), "the fast group's watermark");
            }
            // the invariant: the slow group's watermark is at or below every LCR it has not delivered, and
            // every such LCR is still in the log
            long slowMark = watermarkMillis(client, "slow");
            long firstUndelivered = Long.MAX_VALUE;
            java.util.Set<Integer> inLog = new java.util.HashSet<>();
            java.util.Set<Integer> delivered = slow.keys();
            for (var r : w.exec("SELECT pk, \"cdc$time\" FROM ks.t_scylla_cdc_log").getRowsList()) {
                int pk = (int) r.getValues(0).getInteger();
                inLog.add(pk);
                if (!delivered.contains(pk)) {
                    long t = dev.tributary.dictionary.types.TimeUuids.micros(java.util.UUID.fromString(r.getValues(1).getUuid())) / 1000;
                    firstUndelivered = Math.min(firstUndelivered, t);
                }
            }
            assertTrue(slowMark <= firstUndelivered, "the slow group's watermark " + slowMark
                    + " passed an LCR it has not delivered, at " + firstUndelivered);
            java.util.Set<Integer> undelivered = new java.util.HashSet<>(writers.acked);
            undelivered.removeAll(delivered);
            assertTrue(inLog.containsAll(undelivered), "retention deleted LCRs the slow group had not delivered");

            AtomicInteger resumed = new AtomicInteger();
            try (ChangeConsumer again = member(client, "slow", slow, resumed)) {
                again.start();
                TestNodes.await(() -> slow.hasAll(writers), Duration.ofSeconds(30),
                        () -> "the resumed slow group to deliver the rest: " + slow.problems(writers));
                slow.verify(writers);
                // both groups have passed the writes now: retention deletes them
                TestNodes.await(() -> count(w) < logged, Duration.ofSeconds(30), "retention to delete behind both groups");
            }
        }
    }

    private static long count(TestNodes.Wire w) {
        return w.exec("SELECT count(*) FROM ks.t_scylla_cdc_log").getRows(0).getValues(0).getInteger();
    }

    private static long watermarkMillis(TributaryClient client, String group) {
        for (var r : client.execute("SELECT group_name, low_watermark FROM system_views.consumer_groups").all()) {
            if (group.equals(r.getString("group_name")) && r.getInstant("low_watermark") != null) {
                return r.getInstant("low_watermark").toEpochMilli();
            }
        }
        return 0;
    }
}
