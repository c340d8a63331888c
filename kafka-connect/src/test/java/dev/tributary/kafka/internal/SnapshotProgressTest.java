package dev.tributary.kafka.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.ChangeRecord;
import dev.tributary.client.LcrPosition;
import dev.tributary.client.SnapshotHandover;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The initial snapshot's hand-over across restarts: nodes whose keys are written while their rows
 * are read in pieces (a task stopped after some tokens goes on at a new SCN), the progress kept
 * only as its offset text between pieces, and each key's events then checked against its history:
 * the row as of the SCN of the piece that read it, then exactly the changes committed after that
 * SCN — none before it, none missing. Seeded; the seed is printed and replays.
 */
@Timeout(30)
class SnapshotProgressTest {
    /** One node: its thread, and per key (by token) the commit SCNs of its writes, each write's value its SCN. */
    private record Node(String hostId, int thread, TreeMap<Long, List<Long>> writes) {
    }

    @Test
    @DisplayName("pieces read at later SCNs after restarts: every key's row, then exactly the changes after its piece's SCN")
    void handOverAcrossRestarts() {
        long seed = Long.getLong("snapshot.seed", System.nanoTime()); // -Dsnapshot.seed=<printed> replays a run
        System.out.println("SnapshotProgressTest seed " + seed);
        for (int round = 0; round < 200; round++) {
            simulate(new Random(seed + round), seed);
        }
    }

    private static void simulate(Random random, long seed) {
        List<Node> nodes = new ArrayList<>();
        long[] scn = {(1_700_000_000_000L << 16)};
        for (int n = 0; n < 1 + random.nextInt(3); n++) {
            TreeMap<Long, List<Long>> writes = new TreeMap<>();
            for (int k = 0; k < 1 + random.nextInt(30); k++) {
                writes.put(random.nextLong(), new ArrayList<>());
            }
            nodes.add(new Node("host-" + n, n + 1, writes));
        }
        // every key written once before the snapshot, so each has a row
        for (Node node : nodes) {
            for (List<Long> w : node.writes().values()) {
                w.add(++scn[0]);
            }
        }
        SnapshotProgress progress = SnapshotProgress.none();
        Map<String, Map<Long, Long>> readAt = new HashMap<>(); // per node, per token: the SCN its row was read at
        boolean anyRestart = false;
        while (true) {
            boolean all = true;
            for (Node node : nodes) {
                if (progress.complete(node.hostId())) {
                    continue;
                }
                writeSome(random, node, scn);
                long pointScn = ++scn[0]; // the node's snapshot, between two of its commits
                OptionalLong after = progress.resumeAfter(node.hostId());
                boolean interrupted = random.nextInt(3) == 0;
                int sendBeforeStop = random.nextInt(5);
                int sent = 0;
                for (Map.Entry<Long, List<Long>> key : node.writes().entrySet()) {
                    if (after.isPresent() && key.getKey() <= after.getAsLong()) {
                        continue;
                    }
                    if (interrupted && sent == sendBeforeStop) {
                        break;
                    }
                    Long previous = readAt.computeIfAbsent(node.hostId(), h -> new HashMap<>()).put(key.getKey(), pointScn);
                    assertEquals(null, previous, "run of seed " + seed + ": token " + key.getKey() + " read twice");
                    progress = progress.sentThrough(node.hostId(), node.thread(), pointScn, key.getKey());
                    sent++;
                    writeSome(random, node, scn); // writes go on while the rows are read
                }
                if (interrupted && sent == sendBeforeStop) {
                    all = false;
                    anyRestart = true;
                } else {
                    progress = progress.nodeComplete(node.hostId(), node.thread(), pointScn);
                }
                // a restarted task knows only the committed offset
                progress = SnapshotProgress.of(progress.offset());
            }
            if (all) {
                break;
            }
        }
        writeSome(random, nodes.get(0), scn);
        assertFalse(progress.done());
        SnapshotProgress done = SnapshotProgress.of(progress.finished().offset());
        assertTrue(done.done());
        SnapshotHandover handover = done.handover();
        for (Node node : nodes) {
            for (Map.Entry<Long, List<Long>> key : node.writes().entrySet()) {
                long rowScn = readAt.get(node.hostId()).get(key.getKey());
                List<Long> expected = new ArrayList<>();
                long rowValue = 0;
                for (long w : key.getValue()) {
                    if (w <= rowScn) {
                        rowValue = w; // the row as of its read
                    } else {
                        expected.add(w);
                    }
                }
                List<Long> followed = new ArrayList<>();
                for (long w : key.getValue()) {
                    if (handover.follows(lcr(node.thread(), w), () -> OptionalLong.of(key.getKey()))) {
                        followed.add(w);
                    }
                }
                assertEquals(expected, followed, "run of seed " + seed + ": node " + node.hostId() + " token " + key.getKey()
                        + " read at " + rowScn + " (row value " + rowValue + "), writes " + key.getValue() + ", progress "
                        + done.offset());
            }
        }
        assertTrue(anyRestart || nodes.stream().allMatch(n -> done.nodes().get(n.hostId()).segments().size() == 1));
    }

    private static void writeSome(Random random, Node node, long[] scn) {
        List<Long> tokens = new ArrayList<>(node.writes().keySet());
        for (int i = random.nextInt(4); i > 0; i--) {
            node.writes().get(tokens.get(random.nextInt(tokens.size()))).add(++scn[0]);
        }
    }

    private static ChangeRecord lcr(int thread, long commitScn) {
        long lsb = ((thread & 0x3FFL) << 52) | (commitScn & ((1L << 52) - 1));
        LcrPosition p = new LcrPosition(ByteBuffer.wrap(new byte[16]), new UUID(0x1000L, (lsb & 0x3FFFFFFFFFFFFFFFL)
                | 0x8000000000000000L), 0);
        return new ChangeRecord("ROW", "tributary", "UPDATE", "ks", "t", null, "tx", commitScn, commitScn, null,
                Map.of("pk", 1), p, true, null, null, null, null, null, null, null);
    }

    @Test
    @DisplayName("the offset text round-trips, and a bad one is refused naming it")
    void offsetForm() {
        SnapshotProgress p = SnapshotProgress.none().sentThrough("a", 3, 100, -5).nodeComplete("a", 3, 200)
                .sentThrough("b", 4, 150, Long.MIN_VALUE);
        SnapshotProgress back = SnapshotProgress.of(p.offset());
        assertEquals(p, back);
        assertEquals("a/3/100:-5,200:9223372036854775807 b/4/150:-9223372036854775808", p.offset().get(SnapshotProgress.PROGRESS));
        assertTrue(back.complete("a"));
        assertFalse(back.complete("b"));
        assertEquals(OptionalLong.of(Long.MIN_VALUE), back.resumeAfter("b"));
        assertEquals(OptionalLong.empty(), back.resumeAfter("c"));
        assertThrows(IllegalStateException.class, back::finished, "b is not complete");
        assertThrows(IllegalStateException.class, back::handover);
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> SnapshotProgress.of(Map.of(SnapshotProgress.PROGRESS, "a/x/1:2")));
        assertTrue(bad.getMessage().contains("a/x/1:2"), bad.getMessage());
        assertEquals(SnapshotProgress.none(), SnapshotProgress.of(null));
    }
}
