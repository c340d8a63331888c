package dev.tributary.node.changes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.ChangeReader;
import dev.tributary.client.ChangeRecord;
import dev.tributary.client.Row;
import dev.tributary.client.SnapshotHandover;
import dev.tributary.client.SnapshotPoint;
import dev.tributary.client.SnapshotRow;
import dev.tributary.client.TableSnapshotRead;
import dev.tributary.client.TributaryClient;
import dev.tributary.client.errors.NotFoundException;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * ReadTableSnapshot on a real node, through the SDK, while rows are written: the rows as of the
 * snapshot's SCN and then the LCRs that follow it (SnapshotHandover) give every key's final state,
 * with every value written after the snapshot exactly once and none written before it — also when
 * the read stops after some tokens and goes on with a second read at a later SCN.
 */
@Timeout(120)
class TableSnapshotIT {
    private static final int KEYS = 300;

    @Test
    @DisplayName("a snapshot read in two pieces under writes, then the LCRs after each piece's SCN: every key's "
            + "final row, each later value once, no earlier one")
    void rowsThenTheChangesAfterThem(@TempDir Path dir) throws Exception {
        try (TributaryNode node = TestNodes.startOperating(dir);
                TributaryClient client = TributaryClient.builder().endpoints(node.endpoint()).build()) {
            client.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            client.execute("CREATE TABLE ks.t (pk int, ck int, v text, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");
            client.execute("CREATE TABLE ks.plain (pk int PRIMARY KEY, v text)");
            for (int pk = 0; pk < KEYS; pk++) {
                client.execute("INSERT INTO ks.t (pk, ck, v) VALUES (?, ?, ?)", pk, pk % 3, "k" + pk + "-0");
            }
            // writes go on while the snapshot is read: a unique value each, some deletes
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicInteger writes = new AtomicInteger();
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                java.util.Random random = new java.util.Random(7);
                for (int n = 1; writing.get() || n < 200; n++) {
                    int pk = random.nextInt(KEYS);
                    if (n % 17 == 0) {
                        client.execute("DELETE FROM ks.t WHERE pk = ? AND ck = ?", pk, pk % 3);
                    } else {
                        client.execute("INSERT INTO ks.t (pk, ck, v) VALUES (?, ?, ?)", pk, pk % 3, "k" + pk + "-" + n);
                    }
                    writes.incrementAndGet();
                }
            });

            List<ChangeReader.SnapshotNode> nodes = client.changes().snapshotNodes("ks.t");
            assertEquals(1, nodes.size(), nodes::toString);
            String endpoint = nodes.get(0).endpoint();
            Map<Integer, String> rows = new HashMap<>();
            Map<Integer, Long> readAt = new HashMap<>();
            List<SnapshotHandover.Segment> segments = new ArrayList<>();
            SnapshotPoint first;
            long through;
            // the first piece: stopped after the token that completes the 100th row
            try (TableSnapshotRead read = client.changes().readSnapshot("ks.t", endpoint, OptionalLong.empty(), 7)) {
                first = read.point();
                assertEquals(nodes.get(0).hostId(), first.hostId());
                assertTrue(first.redoThread() > 0, first::toString);
                long last = Long.MIN_VALUE;
                while (true) {
                    assertTrue(read.hasNext(), "more than 100 rows");
                    SnapshotRow r = read.next();
                    assertTrue(r.token() >= last, "token order");
                    last = r.token();
                    take(rows, readAt, r, first.scn());
                    if (rows.size() >= 100 && r.completesToken()) {
                        through = r.token();
                        break;
                    }
                }
            }
            segments.add(new SnapshotHandover.Segment(first.scn(), through));
            TestNodes.await(() -> writes.get() > 50, java.time.Duration.ofSeconds(30), "writes between the two pieces");
            SnapshotPoint second;
            try (TableSnapshotRead read = client.changes().readSnapshot("ks.t", endpoint, OptionalLong.of(through), 7)) {
                second = read.point();
                assertTrue(second.scn() > first.scn(), "the second piece is of a later SCN");
                assertEquals(first.redoThread(), second.redoThread());
                while (read.hasNext()) {
                    SnapshotRow r = read.next();
                    assertTrue(r.token() > through, "only the tokens after the first piece");
                    take(rows, readAt, r, second.scn());
                }
                assertTrue(read.complete());
            }
            segments.add(new SnapshotHandover.Segment(second.scn(), Long.MAX_VALUE));
            writing.set(false);
            writer.get(60, TimeUnit.SECONDS);
            SnapshotHandover handover = SnapshotHandover.of(Map.of(first.redoThread(), segments));

            // the whole log, and what follows the snapshot in it: the capture logs a write after its
            // acknowledgement, in commit order, so the log is whole once it holds a marker written
            // after the last write (counting row LCRs cannot tell: the 300 first inserts are logged
            // too, and a delete of a row already deleted logs nothing; seen twice in CI, the last
            // write missing)
            client.execute("INSERT INTO ks.t (pk, ck, v) VALUES (?, ?, ?)", KEYS, 0, "marker");
            TestNodes.await(() -> client.changes().read("ks.t", null, 0).stream().anyMatch(r -> r.isRow()
                    && r.newValues() != null && "marker".equals(r.newValues().get("v"))),
                    java.time.Duration.ofSeconds(30), "the marker written after the last write, logged");
            List<ChangeRecord> log = client.changes().read("ks.t", null, 0);
            Map<Integer, String> state = new HashMap<>(rows);
            Set<String> valuesAfter = new HashSet<>();
            int followed = 0;
            for (ChangeRecord r : log) {
                if (!r.isRow()) {
                    continue;
                }
                Map<String, Object> values = r.newValues() != null ? r.newValues() : r.oldValues();
                int pk = (Integer) values.get("pk");
                long token = dev.tributary.client.RoutingKeys.token(List.of(dev.tributary.client.CqlTypeName.parse("int")),
                        List.of(pk)).orElseThrow();
                boolean follows = handover.follows(r, () -> OptionalLong.of(token));
                Long at = readAt.get(pk);
                long keyScn = at != null ? at : token <= through ? first.scn() : second.scn();
                assertEquals(r.commitScn() > keyScn, follows, "an LCR follows exactly when committed after its row's read");
                if (!follows) {
                    continue;
                }
                followed++;
                if ("DELETE".equals(r.commandType())) {
                    state.remove(pk);
                } else {
                    String v = (String) r.newValues().get("v");
                    assertTrue(valuesAfter.add(v), "value " + v + " once");
                    state.put(pk, v);
                }
            }
            Map<Integer, String> table = new HashMap<>();
            for (Row r : client.execute("SELECT pk, v FROM ks.t").all()) {
                table.put(r.getInt("pk"), r.getString("v"));
            }
            assertEquals(table, state, "the rows, then the changes after them, are the table");
            assertTrue(followed > 0 && followed < log.size(), followed + " of " + log.size() + " LCRs follow");
            System.out.println("snapshot in two pieces at " + first.scn() + " and " + second.scn() + ": " + rows.size()
                    + " rows, " + followed + " of " + log.size() + " LCRs follow, " + writes.get() + " writes");

            // a table without a CDC log has no change streams to hand over to; an unknown one is not found
            NotFoundException noCdc = assertThrows(NotFoundException.class, () -> {
                try (TableSnapshotRead r = client.changes().readSnapshot("ks.plain", endpoint, OptionalLong.empty(), 10)) {
                    r.point();
                }
            });
            assertTrue(noCdc.getMessage().contains("ks.plain"), noCdc.getMessage());
            NotFoundException unknown = assertThrows(NotFoundException.class, () -> {
                try (TableSnapshotRead r = client.changes().readSnapshot("ks.nope", endpoint, OptionalLong.empty(), 10)) {
                    r.point();
                }
            });
            assertTrue(unknown.getMessage().contains("nope"), unknown.getMessage());
            // the node checks max_rows itself (the SDK refuses it before sending)
            io.grpc.ManagedChannel raw = io.grpc.ManagedChannelBuilder.forTarget(endpoint).usePlaintext().build();
            try {
                io.grpc.StatusRuntimeException tooMany = assertThrows(io.grpc.StatusRuntimeException.class,
                        () -> dev.tributary.protocol.v1.ChangeStreamServiceGrpc.newBlockingStub(raw)
                                .readTableSnapshot(dev.tributary.protocol.v1.ReadTableSnapshotRequest.newBuilder()
                                        .setTable("ks.t").setMaxRows(5000).build()).next());
                assertEquals(io.grpc.Status.Code.INVALID_ARGUMENT, tooMany.getStatus().getCode());
                assertTrue(tooMany.getStatus().getDescription().contains("max_rows"), tooMany::toString);
            } finally {
                raw.shutdownNow();
            }
        }
    }

    private static void take(Map<Integer, String> rows, Map<Integer, Long> readAt, SnapshotRow r, long scn) {
        int pk = (Integer) r.values().get("pk");
        assertEquals(null, rows.put(pk, (String) r.values().get("v")), "key " + pk + " read once");
        readAt.put(pk, scn);
        assertEquals(pk % 3, r.values().get("ck"));
    }
}
