package dev.tributary.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.CqlTypeName;
import dev.tributary.client.PreparedStatement;
import dev.tributary.client.TributaryClient;
import dev.tributary.client.internal.Murmur3;
import dev.tributary.client.RoutingKeys;
import dev.tributary.client.ValueCodec;
import dev.tributary.generations.Murmur3Partitioner;
import dev.tributary.generations.TokenRing;
import dev.tributary.node.kit.InProcessCluster;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The token-aware SDK against real nodes: given only node 1's endpoint it learns the ring, sends
 * each prepared write to its owner (no node forwards any), learns a joining node, and computes the
 * same tokens as the nodes for every key type it routes.
 */
@Timeout(300)
class TokenAwareRoutingIT {
    private static final Duration RING_DELAY = Duration.ofMillis(1500);
    private static final String INSERT = "INSERT INTO ks.t (pk, v) VALUES (?, ?)";

    private static long forwarded(TributaryNode n) {
        try (TestNodes.Wire w = new TestNodes.Wire(n)) {
            return (Long) w.scalar("SELECT forwarded_writes FROM system_views.request_routing");
        }
    }

    private static long forwarded(List<TributaryNode> nodes) {
        return nodes.stream().mapToLong(TokenAwareRoutingIT::forwarded).sum();
    }

    private static long token(int pk) {
        return Murmur3Partitioner.token(ByteBuffer.allocate(4).putInt(pk).array());
    }

    private static TokenRing ring(List<TributaryNode> nodes) {
        TokenRing r = TokenRing.empty();
        for (TributaryNode n : nodes) {
            r = r.with(n.hostId().toString(), n.tokens());
        }
        return r;
    }

    private static TributaryClient client(TributaryNode contact, boolean tokenAware) {
        return TributaryClient.builder().endpoints(contact.endpoint()).tokenAware(tokenAware)
                .ringRefreshInterval(Duration.ofMillis(200)).requestTimeout(Duration.ofSeconds(30)).build();
    }

    /**
     * Waits until the client sends a write of a key {@code owner} owns straight there: until then
     * the write reaches node 1 and is forwarded.
     */
    private static void awaitRoutedTo(TributaryClient c, PreparedStatement insert, TributaryNode owner,
            List<TributaryNode> nodes) {
        TokenRing r = ring(nodes);
        int probe = 1_000_000;
        while (!r.owner(token(probe)).equals(owner.hostId().toString())) {
            probe++;
        }
        int key = probe;
        TestNodes.await(() -> {
            long before = forwarded(nodes);
            c.execute(insert.bind(key, -1));
            return forwarded(nodes) == before;
        }, Duration.ofSeconds(30), "the client to route to " + owner.hostId());
    }

    /** Asserts every row of ks.t sits on the owner of its token. */
    private static void assertOnOwners(List<TributaryNode> nodes) {
        TokenRing r = ring(nodes);
        for (TributaryNode n : nodes) {
            for (var row : TestNodes.localOnly(n, "SELECT pk, token(pk) FROM ks.t").getRowsList()) {
                assertEquals(n.hostId().toString(), r.owner(row.getValues(1).getInteger()),
                        "row " + row.getValues(0).getInteger() + " is stored on the owner of its token");
            }
        }
    }

    private static void awaitAllNormal(TestNodes.Wire w, int peers) {
        TestNodes.await(() -> {
            var rows = w.exec("SELECT state FROM system.peers").getRowsList();
            return rows.size() == peers && rows.stream().allMatch(x -> x.getValues(0).getText().equals("NORMAL"));
        }, Duration.ofSeconds(30), peers + " peers NORMAL");
    }

    @Test
    @DisplayName("given node 1 only, the SDK sends 200 prepared inserts to their owners (none forwarded), without "
            + "token-awareness the node forwards those another node owns, and after a join the SDK routes to the new owner")
    void routesToOwners(@TempDir Path dir) throws Exception {
        try (InProcessCluster cluster = InProcessCluster.builder(dir).ringDelay(RING_DELAY).build()) {
            TributaryNode first = cluster.startOperating("n1");
            TestNodes.Wire w1 = cluster.wire("n1");
            w1.exec("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            w1.exec("CREATE TABLE ks.t (pk int PRIMARY KEY, v int)");
            TributaryNode second = cluster.start("n2");
            try (TributaryClient aware = client(first, true);
                    TributaryClient unaware = client(first, false)) {
                awaitAllNormal(w1, 1);
                List<TributaryNode> two = List.of(first, second);
                PreparedStatement insert = aware.prepare(INSERT);
                assertEquals(List.of(0), insert.partitionKeyIndexes());
                awaitRoutedTo(aware, insert, second, two);

                long before = forwarded(two);
                for (int pk = 0; pk < 200; pk++) {
                    aware.execute(insert.bind(pk, pk));
                }
                assertEquals(before, forwarded(two), "no write of the token-aware client was forwarded");
                assertTrue(aware.endpoints().contains(second.endpoint()), "node 2 was discovered from node 1 alone");
                assertOnOwners(two);

                PreparedStatement plain = unaware.prepare(INSERT);
                TokenRing r = ring(two);
                long otherOwned = 0;
                long firstBefore = forwarded(first);
                for (int pk = 1000; pk < 1200; pk++) {
                    unaware.execute(plain.bind(pk, pk));
                    if (r.owner(token(pk)).equals(second.hostId().toString())) {
                        otherOwned++;
                    }
                }
                assertTrue(otherOwned > 0 && otherOwned < 200, "both nodes own some of the keys: " + otherOwned);
                assertEquals(otherOwned, forwarded(first) - firstBefore,
                        "without token-awareness node 1 forwards every write node 2 owns");
                assertEquals(List.of(first.endpoint()), unaware.endpoints(), "a client not token-aware discovers nothing");

                TributaryNode third = cluster.start("n3");
                awaitAllNormal(w1, 2);
                List<TributaryNode> three = List.of(first, second, third);
                awaitRoutedTo(aware, insert, third, three);
                TokenRing joined = ring(three);
                long thirdOwns = 0;
                long beforeJoin = forwarded(three);
                for (int pk = 2000; pk < 2200; pk++) {
                    aware.execute(insert.bind(pk, pk));
                    if (joined.owner(token(pk)).equals(third.hostId().toString())) {
                        thirdOwns++;
                    }
                }
                assertTrue(thirdOwns > 0, "the joined node owns some of the keys");
                assertEquals(beforeJoin, forwarded(three), "after the join no write was forwarded either");
                assertOnOwners(three);
            }
        }
    }

    @Test
    @DisplayName("CDC-TAB-1: a tablet table's writes go straight to the replica of their tablet (system.tablets), none forwarded")
    void routesTabletTablesByReplica(@TempDir Path dir) throws Exception {
        try (InProcessCluster cluster = InProcessCluster.builder(dir).ringDelay(RING_DELAY).build()) {
            TributaryNode first = cluster.start("n1");
            TestNodes.Wire w1 = cluster.wire("n1");
            TributaryNode second = cluster.start("n2");
            try (TributaryClient aware = client(first, true)) {
                awaitAllNormal(w1, 1);
                w1.exec("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1} "
                        + "AND tablets = {'enabled': true}");
                w1.exec("CREATE TABLE ks.t (pk int PRIMARY KEY, v int) WITH tablets = {'min_tablet_count': 4}");
                java.util.TreeMap<Long, String> replicas = new java.util.TreeMap<>();
                for (var r : w1.exec("SELECT last_token, replica FROM system.tablets").getRowsList()) {
                    replicas.put(r.getValues(0).getInteger(), r.getValues(1).getUuid());
                }
                assertEquals(2, new java.util.HashSet<>(replicas.values()).size(), "the tablets are spread over both nodes");
                List<TributaryNode> two = List.of(first, second);
                PreparedStatement insert = aware.prepare(INSERT);
                // a key whose tablet is on node 2 but whose vnode is node 1's: only tablet routing sends it straight there
                TokenRing vnodes = ring(two);
                int probe = 0;
                while (!(replicas.ceilingEntry(token(probe)).getValue().equals(second.hostId().toString())
                        && vnodes.owner(token(probe)).equals(first.hostId().toString()))) {
                    probe++;
                }
                int key = probe;
                TestNodes.await(() -> {
                    long before = forwarded(two);
                    aware.execute(insert.bind(key, -1));
                    return forwarded(two) == before;
                }, Duration.ofSeconds(30), "the client to learn the tablet map");
                long before = forwarded(two);
                for (int pk = 0; pk < 200; pk++) {
                    aware.execute(insert.bind(pk, pk));
                }
                assertEquals(before, forwarded(two), "no write of a tablet table was forwarded");
                for (TributaryNode n : two) {
                    for (var row : TestNodes.localOnly(n, "SELECT pk, token(pk) FROM ks.t").getRowsList()) {
                        assertEquals(n.hostId().toString(), replicas.ceilingEntry(row.getValues(1).getInteger()).getValue(),
                                "row " + row.getValues(0).getInteger() + " on the replica of its tablet");
                    }
                }
            }
        }
    }

    @Test
    @DisplayName("the SDK's token of a bound key equals SELECT token(pk) on the node, for every key type it routes")
    void keyTokensMatchTheNode(@TempDir Path dir) throws Exception {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("text", "héllo wörld");
        values.put("ascii", "plain");
        values.put("varchar", "\u65e5\u672c");
        values.put("int", -7);
        values.put("bigint", 1L << 40);
        values.put("smallint", (short) -300);
        values.put("tinyint", (byte) 9);
        values.put("uuid", UUID.fromString("550e8400-e29b-41d4-a716-446655440000"));
        values.put("timeuuid", UUID.fromString("e7d2f8a0-1dd2-11b2-8080-808080808080"));
        values.put("blob", ByteBuffer.wrap(new byte[] {(byte) 0xca, (byte) 0xfe, (byte) 0x80}));
        values.put("timestamp", Instant.ofEpochMilli(1_700_000_000_123L));
        values.put("date", LocalDate.of(2024, 2, 29));
        values.put("time", LocalTime.of(13, 14, 15, 16));
        values.put("boolean", true);
        values.put("float", 1.5f);
        values.put("double", -2.25);
        values.put("inet", InetAddress.getByName("10.1.2.3"));
        values.put("varint", new BigInteger("-123456789012345678901234567890"));
        values.put("decimal", new BigDecimal("-12.345"));
        try (TributaryNode node = TestNodes.startOperating(dir.resolve("n1"));
                TestNodes.Wire w = new TestNodes.Wire(node);
                TributaryClient c = client(node, true)) {
            w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            List<String> mismatches = new ArrayList<>();
            for (Map.Entry<String, Object> e : values.entrySet()) {
                String table = "ks.k_" + e.getKey();
                w.exec("CREATE TABLE " + table + " (pk " + e.getKey() + " PRIMARY KEY, v int)");
                PreparedStatement p = c.prepare("INSERT INTO " + table + " (pk, v) VALUES (?, ?)");
                assertEquals(List.of(0), p.partitionKeyIndexes(), e.getKey());
                c.execute(p.bind(e.getValue(), 1));
                long nodeToken = w.exec("SELECT token(pk) FROM " + table).getRows(0).getValues(0).getInteger();
                CqlTypeName type = CqlTypeName.parse(e.getKey());
                long sdkToken = Murmur3.token(RoutingKeys.component(type, ValueCodec.encode(e.getValue(), type, "pk")));
                if (nodeToken != sdkToken) {
                    mismatches.add(e.getKey() + ": node " + nodeToken + ", sdk " + sdkToken);
                }
            }
            assertEquals(List.of(), mismatches);

            // a compound key bound out of order, and the other statements that carry routing
            w.exec("CREATE TABLE ks.kc (a int, b text, c int, v int, PRIMARY KEY ((a, b), c))");
            PreparedStatement p = c.prepare("INSERT INTO ks.kc (b, c, a, v) VALUES (?, ?, ?, ?)");
            assertEquals(List.of(2, 0), p.partitionKeyIndexes());
            c.execute(p.bind("twenty", 1, 10, 1));
            long nodeToken = w.exec("SELECT token(a, b) FROM ks.kc").getRows(0).getValues(0).getInteger();
            CqlTypeName i = CqlTypeName.parse("int");
            CqlTypeName t = CqlTypeName.parse("text");
            byte[] key = RoutingKeys.serialize(List.of(0, 1), List.of(i, t),
                    List.of(ValueCodec.encode(10, i, "a"), ValueCodec.encode("twenty", t, "b")));
            assertEquals(nodeToken, Murmur3.token(key));
            assertEquals(List.of(2, 3), c.prepare("UPDATE ks.kc SET v = ? WHERE c = ? AND a = ? AND b = ?")
                    .partitionKeyIndexes());
            assertEquals(List.of(0, 1), c.prepare("SELECT * FROM ks.kc WHERE a = ? AND b = ?").partitionKeyIndexes());
            assertEquals(List.of(0, 1), c.prepare("DELETE FROM ks.kc WHERE a = ? AND b = ? AND c = ?").partitionKeyIndexes());
            assertEquals(List.of(), c.prepare("SELECT * FROM ks.kc WHERE a = 1 AND b = ?").partitionKeyIndexes(),
                    "a literal key column: not routed");
            assertEquals(List.of(), c.prepare("DELETE FROM ks.kc WHERE a IN ? AND b = ?").partitionKeyIndexes());
            assertEquals(List.of(), c.prepare("SELECT * FROM system.local WHERE key = ?").partitionKeyIndexes(),
                    "system tables are answered where asked");
        }
    }
}
