package dev.tributary.node.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * A replica group's entries as a replica applies them: an entry of commit group g only on top of
 * group g − 1, an entry of no group always; the last group applied kept in the store.
 */
class GroupEntryTest {
    private static final byte[] APPLIED = Keys.meta("test/applied");

    @TempDir
    Path dir;

    /** The leader's store: its proposals are kept, not applied, so the test decides what reaches the replica. */
    private final List<byte[]> proposed = new ArrayList<>();
    private NodeStore leader;
    private NodeStore replica;

    @AfterEach
    void close() {
        if (leader != null) {
            leader.close();
        }
        if (replica != null) {
            replica.close();
        }
    }

    private void open() {
        leader = NodeStore.open(dir.resolve("leader"), new NodeStore.Replicator() {
            @Override
            public void replicate(byte[] batchData) {
                proposed.add(batchData);
            }

            @Override
            public CompletableFuture<Void> propose(byte[] batchData) {
                proposed.add(batchData);
                return new CompletableFuture<>();
            }
        });
        replica = NodeStore.open(dir.resolve("replica"));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private byte[] batch(String row) {
        try (WriteBatch b = new WriteBatch()) {
            b.put(leader.handle(NodeStore.Family.ROWS), bytes(row), bytes("v"));
            return b.data();
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The entry of commit group {@code group}, holding one row per name, as the leader's store proposes it. */
    private byte[] groupEntry(long group, String... rows) {
        List<byte[]> batches = new ArrayList<>();
        for (String r : rows) {
            batches.add(batch(r));
        }
        leader.propose(group, batches);
        return proposed.get(proposed.size() - 1);
    }

    /** An entry of no group (a capture's append, a transaction written alone), as the leader's store writes it. */
    private byte[] plainEntry(String row) {
        try (WriteBatch b = new WriteBatch()) {
            b.put(leader.handle(NodeStore.Family.ROWS), bytes(row), bytes("v"));
            leader.write(b, false);
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
        return proposed.get(proposed.size() - 1);
    }

    private boolean apply(NodeStore s, byte[] entry, int index) {
        return s.applyEntry(entry, NodeStore.Family.META, APPLIED, bytes(String.valueOf(index)));
    }

    private static boolean has(NodeStore s, String row) {
        return s.get(NodeStore.Family.ROWS, bytes(row)) != null;
    }

    @Test
    @DisplayName("an entry names its group in the batch header; one of no group names none")
    void theHeaderNamesTheGroup() {
        open();
        assertEquals(7, NodeStore.groupOf(groupEntry(7, "a", "b")));
        assertEquals(7, NodeStore.groupOf(groupEntry(7, "a")));
        assertEquals(0, NodeStore.groupOf(plainEntry("c")));
        leader.propose(List.of(batch("d")));
        assertEquals(0, NodeStore.groupOf(proposed.get(proposed.size() - 1)));
    }

    @Test
    @DisplayName("an entry built on a group the store does not hold is skipped whole, the applied index still moves; "
            + "entries of no group apply whatever came before and leave the chain as it is")
    void anEntryAppliesOnlyOnTheGroupItWasBuiltOn() {
        open();
        assertEquals(0, replica.lastAppliedGroup());
        assertTrue(apply(replica, groupEntry(1, "g1"), 1));
        assertTrue(apply(replica, groupEntry(2, "g2a", "g2b"), 2));
        assertTrue(apply(replica, plainEntry("capture"), 3));
        assertEquals(2, replica.lastAppliedGroup());
        // group 3 never reached the log; group 4 was built on it
        assertFalse(apply(replica, groupEntry(4, "g4a", "g4b"), 4));
        assertFalse(has(replica, "g4a") || has(replica, "g4b"), "nothing of the skipped entry is in the store");
        assertArrayEquals(bytes("4"), replica.get(NodeStore.Family.META, APPLIED), "the applied index moved");
        assertEquals(2, replica.lastAppliedGroup());
        assertFalse(apply(replica, groupEntry(5, "g5"), 5), "nor what was built on the skipped one");
        assertTrue(apply(replica, plainEntry("barrier"), 6));
        assertTrue(apply(replica, groupEntry(3, "g3"), 7), "the next group, built on the store, applies");
        assertTrue(has(replica, "g1") && has(replica, "g2a") && has(replica, "g2b") && has(replica, "g3"));
        assertTrue(has(replica, "capture") && has(replica, "barrier"));
        assertFalse(has(replica, "g5"));
        assertEquals(3, replica.lastAppliedGroup());
        assertFalse(apply(replica, groupEntry(3, "g3again"), 8), "a group is applied once");
        assertFalse(has(replica, "g3again"));
    }

    @Test
    @DisplayName("RocksDB gives an entry's writes its own sequence number, not the group id in the header: a group's "
            + "write of a key written many times before is the one read, also after a reopen")
    void theGroupIdIsNotTheWritesSequenceNumber() {
        open();
        for (int i = 0; i < 50; i++) {
            assertTrue(apply(replica, plainEntry("k"), i + 1)); // the store's sequence numbers pass 1
        }
        byte[] entry;
        try (WriteBatch b = new WriteBatch()) {
            b.put(leader.handle(NodeStore.Family.ROWS), bytes("k"), bytes("group 1"));
            leader.propose(1, List.of(b.data()));
            entry = proposed.get(proposed.size() - 1);
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
        assertTrue(apply(replica, entry, 51));
        assertArrayEquals(bytes("group 1"), replica.get(NodeStore.Family.ROWS, bytes("k")));
        replica.close();
        replica = NodeStore.open(dir.resolve("replica"));
        assertArrayEquals(bytes("group 1"), replica.get(NodeStore.Family.ROWS, bytes("k")), "after the WAL's replay");
    }

    @Test
    @DisplayName("the last group applied is in the store: a reopened store and a checkpoint of it apply the next group and skip others")
    void theLastGroupSurvivesAReopenAndACheckpoint() {
        open();
        assertTrue(apply(replica, groupEntry(1, "g1"), 1));
        assertTrue(apply(replica, groupEntry(2, "g2"), 2));
        replica.close();
        replica = NodeStore.open(dir.resolve("replica"));
        assertEquals(2, replica.lastAppliedGroup());
        assertTrue(has(replica, "g1") && has(replica, "g2"), "the store reads back the entries whose header named a group");
        Path snapshot = dir.resolve("snapshot");
        replica.checkpoint(snapshot);
        try (NodeStore installed = NodeStore.open(snapshot)) {
            assertEquals(2, installed.lastAppliedGroup());
            assertFalse(apply(installed, groupEntry(4, "g4"), 3));
            assertTrue(apply(installed, groupEntry(3, "g3"), 4));
            assertNull(installed.get(NodeStore.Family.ROWS, bytes("g4")));
        }
        assertFalse(apply(replica, groupEntry(4, "g4"), 3));
        assertTrue(apply(replica, groupEntry(3, "g3"), 4));
    }
}
