package dev.tributary.node.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.node.TestNodes;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import dev.tributary.node.kit.ReplicaChecker;
import dev.tributary.node.storage.NodeStore;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import org.apache.ratis.protocol.RaftPeer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * Three Ratis servers on 127.0.0.1, each with real RocksDB replica stores: entries built on the
 * leader reach every replica, a leader's loss elects another, a minority refuses, and a replica
 * whose disk is lost is replaced by a new node that catches up from a snapshot.
 */
@Tag("integration")
class RaftHostIT {
    private static final String GROUP = "thread-1";
    // snapshots by size only (every 8 KB of entries), so the lost-disk test proves the log is purged by bytes
    private static final RaftHost.Tuning TUNING = new RaftHost.Tuning(
            Duration.ofMillis(500), Duration.ofMillis(1000), Duration.ofSeconds(4), 1_000_000, 8 * 1024);

    @TempDir
    Path dir;

    private final Map<String, RaftHost> hosts = new LinkedHashMap<>();
    private final Map<String, InetSocketAddress> addresses = new LinkedHashMap<>();

    @AfterEach
    void closeAll() {
        hosts.values().forEach(RaftHost::close);
    }

    private RaftHost start(String id, int port) {
        return start(id, port, null);
    }

    private RaftHost start(String id, int port, RaftHost.Tls tls) {
        RaftHost h = RaftHost.start(id, new InetSocketAddress("127.0.0.1", port), dir.resolve(id).resolve("raft"),
                dir.resolve(id).resolve("stores"), TUNING, RaftHost.RoleListener.NONE, tls);
        hosts.put(id, h);
        addresses.put(id, h.address());
        return h;
    }

    private List<RaftPeer> peers(String... ids) {
        List<RaftPeer> out = new ArrayList<>();
        for (String id : ids) {
            out.add(RaftHost.peer(id, addresses.get(id)));
        }
        return out;
    }

    private void stop(String id) {
        hosts.remove(id).close();
    }

    private RaftHost awaitLeader() {
        TestNodes.await(() -> hosts.values().stream().anyMatch(h -> h.leads(GROUP)), Duration.ofSeconds(30),
                "a leader of " + GROUP);
        return hosts.values().stream().filter(h -> h.leads(GROUP)).findFirst().orElseThrow();
    }

    /** One entry: a row and a redo record keyed by {@code i}, built on the leader's store. */
    private static long write(RaftHost leader, int i) {
        NodeStore s = leader.store(GROUP);
        byte[] key = ByteBuffer.allocate(8).putLong(i).array();
        try (WriteBatch b = new WriteBatch()) {
            b.put(s.handle(NodeStore.Family.ROWS), key, ("row " + i).getBytes());
            b.put(s.handle(NodeStore.Family.REDO), key, ("redo " + i).getBytes());
            return leader.propose(GROUP, b.data()).join();
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The entry of commit group {@code group} (built on {@code group - 1}): one row keyed by the group. */
    private static java.util.concurrent.CompletableFuture<Void> proposeGroup(RaftHost leader, long group) {
        NodeStore s = leader.store(GROUP);
        try (WriteBatch b = new WriteBatch()) {
            b.put(s.handle(NodeStore.Family.ROWS), ByteBuffer.allocate(8).putLong(-group).array(), ("group " + group).getBytes());
            return s.propose(group, List.of(b.data()));
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean hasGroupRow(NodeStore s, long group) {
        return s.get(NodeStore.Family.ROWS, ByteBuffer.allocate(8).putLong(-group).array()) != null;
    }

    private void writeAll(int from, int to) {
        RaftHost leader = awaitLeader();
        for (int i = from; i < to; i++) {
            write(leader, i);
        }
    }

    private void awaitIdentical(String... ids) {
        RaftHost first = hosts.get(ids[0]);
        for (String id : ids) {
            RaftHost h = hosts.get(id);
            TestNodes.await(() -> h.hosts(GROUP) && h.appliedIndex(GROUP) == first.appliedIndex(GROUP)
                    && ReplicaChecker.firstDifference(first.store(GROUP), h.store(GROUP)) == null, Duration.ofSeconds(30),
                    () -> id + " applied " + h.appliedIndex(GROUP) + " of " + first.appliedIndex(GROUP) + ": "
                            + ReplicaChecker.firstDifference(first.store(GROUP), h.store(GROUP)));
        }
    }

    private static int rows(NodeStore s) {
        int n = 0;
        try (var it = s.iterator(NodeStore.Family.ROWS)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                n++;
            }
        }
        return n;
    }

    private void startThree() {
        for (String id : List.of("a", "b", "c")) {
            start(id, 0);
        }
        for (RaftHost h : hosts.values()) {
            h.join(GROUP, peers("a", "b", "c"));
        }
    }

    @Test
    @DisplayName("issue 19: with TLS (mutual), three replicas elect a leader and replicate over TLS; a replica whose "
            + "certificate the CA did not sign gets nothing, a plaintext one neither")
    void tls() throws Exception {
        dev.tributary.node.kit.TestCertificates ca = dev.tributary.node.kit.TestCertificates.ca(dir.resolve("pki"), "raft-ca");
        dev.tributary.node.kit.TestCertificates other = dev.tributary.node.kit.TestCertificates.ca(dir.resolve("other"), "other");
        for (String id : List.of("a", "b", "c")) {
            dev.tributary.node.kit.TestCertificates.Issued cert = ca.issue(id);
            start(id, 0, new RaftHost.Tls(cert.keyFile().toFile(), cert.certFile().toFile(),
                    ca.authority().certFile().toFile(), true));
        }
        dev.tributary.node.kit.TestCertificates.Issued stranger = other.issue("d");
        start("d", 0, new RaftHost.Tls(stranger.keyFile().toFile(), stranger.certFile().toFile(),
                other.authority().certFile().toFile(), true));
        start("e", 0, null);
        // one group of five: the three with the CA's certificates are a majority; the other two are
        // members the others cannot talk to, so they never get an entry
        for (String id : List.of("a", "b", "c", "d", "e")) {
            hosts.get(id).join(GROUP, peers("a", "b", "c", "d", "e"));
        }
        writeAll(0, 50);
        awaitIdentical("a", "b", "c");
        assertEquals(50, rows(hosts.get("a").store(GROUP)));
        for (String outsider : List.of("d", "e")) {
            assertEquals(0, rows(hosts.get(outsider).store(GROUP)), outsider + " got rows");
            assertFalse(hosts.get(outsider).leads(GROUP), outsider + " leads");
        }
    }

    @Test
    void entriesReachEveryReplicaAndSurviveTheLeadersLoss() {
        startThree();
        writeAll(0, 100);
        awaitIdentical("a", "b", "c");

        String old = awaitLeader().nodeId();
        int port = addresses.get(old).getPort();
        stop(old);
        writeAll(100, 200);
        String[] rest = hosts.keySet().toArray(String[]::new);
        awaitIdentical(rest);

        // The old leader comes back on its data: it catches up and agrees.
        start(old, port);
        awaitIdentical("a", "b", "c");
        assertEquals(200, rows(hosts.get(old).store(GROUP)));
    }

    @Test
    @DisplayName("proposals made one after another without waiting enter the log in that order and reach every replica "
            + "(the committer's pipelined rounds rest on it)")
    void proposalsInFlightCommitInTheOrderMade() {
        startThree();
        RaftHost leader = awaitLeader();
        NodeStore s = leader.store(GROUP);
        byte[] last = "last".getBytes();
        List<java.util.concurrent.CompletableFuture<Long>> rounds = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            try (WriteBatch b = new WriteBatch()) {
                b.put(s.handle(NodeStore.Family.ROWS), ByteBuffer.allocate(8).putLong(i).array(), ("row " + i).getBytes());
                b.put(s.handle(NodeStore.Family.META), last, ByteBuffer.allocate(4).putInt(i).array());
                rounds.add(leader.propose(GROUP, b.data()));
            } catch (RocksDBException e) {
                throw new IllegalStateException(e);
            }
        }
        long previous = -1;
        for (int i = 0; i < rounds.size(); i++) {
            long index = rounds.get(i).join();
            assertTrue(index > previous, "proposal " + i + " is at log index " + index + ", before " + previous);
            previous = index;
        }
        awaitIdentical("a", "b", "c");
        assertEquals(200, rows(hosts.get("a").store(GROUP)));
        assertEquals(199, ByteBuffer.wrap(hosts.get("a").store(GROUP).get(NodeStore.Family.META, last)).getInt());
    }

    @Test
    @DisplayName("a commit group's entry built on a group that never entered the log is skipped on every replica, its "
            + "proposer told it was not applied; the last group applied survives a restart")
    void anEntryBuiltOnAGroupNotInTheLogIsSkippedEverywhere() {
        startThree();
        RaftHost leader = awaitLeader();
        proposeGroup(leader, 1).join();
        proposeGroup(leader, 2).join();
        write(leader, 0); // an entry of no group between them changes nothing of the chain
        // group 3 was refused at once (never in the log); group 4, built on it, was accepted
        CompletionException skipped = assertThrows(CompletionException.class, () -> proposeGroup(leader, 4).join());
        TributaryException te = (TributaryException) skipped.getCause();
        assertEquals(ErrorCode.UNAVAILABLE, te.code());
        assertTrue(te.notApplied(), te.getMessage());
        assertTrue(te.getMessage().contains("built on group 3, but the last group applied is 2"), te.getMessage());
        proposeGroup(leader, 3).join(); // the next group is built on the store
        awaitIdentical("a", "b", "c");
        for (RaftHost h : hosts.values()) {
            NodeStore s = h.store(GROUP);
            assertTrue(hasGroupRow(s, 1) && hasGroupRow(s, 2) && hasGroupRow(s, 3), h.nodeId());
            assertFalse(hasGroupRow(s, 4), h.nodeId() + " applied the entry built on a group it does not hold");
            assertEquals(3, s.lastAppliedGroup(), h.nodeId());
        }
        String follower = hosts.keySet().stream().filter(id -> !hosts.get(id).leads(GROUP)).findFirst().orElseThrow();
        int port = addresses.get(follower).getPort();
        stop(follower);
        start(follower, port);
        TestNodes.await(() -> hosts.get(follower).hosts(GROUP), Duration.ofSeconds(30), follower + " holds its replica again");
        assertEquals(3, hosts.get(follower).store(GROUP).lastAppliedGroup(), "kept with the applied index");
        proposeGroup(awaitLeader(), 4).join();
        awaitIdentical("a", "b", "c");
        assertTrue(hasGroupRow(hosts.get(follower).store(GROUP), 4));
    }

    @Test
    @DisplayName("an entry larger than Ratis' default appendEntries buffer (4 MB) reaches every replica")
    void aLargeEntryReachesEveryReplica() {
        startThree();
        RaftHost leader = awaitLeader();
        NodeStore s = leader.store(GROUP);
        try (WriteBatch b = new WriteBatch()) {
            b.put(s.handle(NodeStore.Family.ROWS), "large".getBytes(), new byte[6 << 20]);
            leader.propose(GROUP, b.data()).join(); // at Ratis' default 4 MB: "Log entry size ... exceeds the max buffer limit"
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
        writeAll(0, 10);
        awaitIdentical("a", "b", "c");
        assertEquals(11, rows(hosts.get("a").store(GROUP)));
    }

    @Test
    void aFollowerRefusesAndAMinorityCannotCommit() {
        startThree();
        writeAll(0, 10);
        RaftHost leader = awaitLeader();
        RaftHost follower = hosts.values().stream().filter(h -> h != leader).findFirst().orElseThrow();
        CompletionException notLeader = assertThrows(CompletionException.class,
                () -> follower.propose(GROUP, new byte[0]).join());
        assertEquals(ErrorCode.UNAVAILABLE, ((TributaryException) notLeader.getCause()).code());

        List<String> followers = hosts.keySet().stream().filter(id -> !id.equals(leader.nodeId())).toList();
        Map<String, Integer> ports = new LinkedHashMap<>();
        followers.forEach(id -> ports.put(id, addresses.get(id).getPort()));
        followers.forEach(this::stop);
        CompletionException refused = assertThrows(CompletionException.class, () -> write(leader, 10));
        TributaryException te = (TributaryException) refused.getCause();
        assertEquals(ErrorCode.UNAVAILABLE, te.code());
        assertTrue(te.getMessage().contains("thread-1"), te.getMessage());

        ports.forEach(this::start);
        writeAll(11, 20);
        awaitIdentical("a", "b", "c");
        // Entry 10 was never acknowledged: it may or may not have committed, but never twice.
        int n = rows(hosts.get("a").store(GROUP));
        assertTrue(n == 19 || n == 20, "rows " + n);
    }

    @Test
    void aLostDiskIsReplacedByANewNodeThatCatchesUpFromASnapshot() throws Exception {
        startThree();
        writeAll(0, 300);
        proposeGroup(awaitLeader(), 1).join(); // the new member must learn the last group from the snapshot
        long group1AtOrBelow = awaitLeader().appliedIndex(GROUP);
        awaitIdentical("a", "b", "c");
        String lost = hosts.keySet().stream().filter(id -> !hosts.get(id).leads(GROUP)).findFirst().orElseThrow();
        stop(lost);
        GroupStateMachine.deleteTree(dir.resolve(lost));
        writeAll(300, 500); // over 8 KB after group 1: the snapshot d gets holds it

        start("d", 0);
        List<String> members = new ArrayList<>(hosts.keySet());
        hosts.get("d").join(GROUP, peers(members.toArray(String[]::new)));
        RaftHost leader = awaitLeader();
        leader.reconfigure(GROUP, peers(members.toArray(String[]::new)));
        writeAll(500, 550);
        awaitIdentical(members.toArray(String[]::new));
        assertEquals(551, rows(hosts.get("d").store(GROUP)));
        // The leader's log below its snapshot was purged, so d got the snapshot, not 550 entries.
        try (Stream<Path> sm = Files.walk(dir.resolve("d").resolve("raft"))) {
            long oldest = sm.map(p -> p.getFileName().toString()).filter(n -> n.matches("snapshot\\.\\d+_\\d+"))
                    .mapToLong(n -> Long.parseLong(n.substring(n.indexOf('_') + 1))).min().orElseThrow(() -> new AssertionError("no snapshot on d"));
            assertTrue(oldest >= group1AtOrBelow, "d's snapshot at " + oldest + " holds group 1 (at or below " + group1AtOrBelow + ")");
        }
        assertFalse(hosts.containsKey(lost));
        assertNull(ReplicaChecker.firstDifference(leader.store(GROUP), hosts.get("d").store(GROUP)));
        assertEquals(1, hosts.get("d").store(GROUP).lastAppliedGroup());
        proposeGroup(leader, 2).join(); // applied on d too: built on the group its snapshot holds
        awaitIdentical(members.toArray(String[]::new));
        assertTrue(hasGroupRow(hosts.get("d").store(GROUP), 2));
    }
}
