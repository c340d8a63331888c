package dev.tributary.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.internal.Murmur3;
import dev.tributary.protocol.v1.CollectionValue;
import dev.tributary.protocol.v1.ExecutePreparedRequest;
import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.PrepareResponse;
import dev.tributary.protocol.v1.Row;
import dev.tributary.protocol.v1.StatementRouting;
import dev.tributary.protocol.v1.Value;
import io.grpc.Status;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The client's routing against stand-in nodes: node 1 (the only endpoint given) describes a ring in
 * system.local / system.peers; the client opens channels to the peers it lists and sends bound
 * statements to the owner of their key's token.
 */
class TokenAwareRoutingTest {
    private static final String INSERT = "INSERT INTO ks.t (k, v) VALUES (?, ?)";

    private final Map<String, TestNode> byAddress = new ConcurrentHashMap<>();
    private TestNode n1;
    private TestNode n2;
    private final Map<TestNode, String> hostIds = new ConcurrentHashMap<>();
    /** What node 1 says the ring is: host id → (address, tokens). */
    private volatile List<Member> ring;
    private final java.util.concurrent.atomic.AtomicLong localQueries = new java.util.concurrent.atomic.AtomicLong();

    private record Member(TestNode node, String address, List<Long> tokens, String state) {
    }

    @BeforeEach
    void start() {
        n1 = TestNode.start("n1");
        n2 = TestNode.start("n2");
        byAddress.put("127.0.0.1:9001", n1);
        byAddress.put("127.0.0.2:9002", n2);
        // node 1 owns (-inf, 0] and (MAX/2, +inf) by wraparound; node 2 owns (0, MAX/2]
        ring = List.of(new Member(n1, "127.0.0.1:9001", List.of(0L), "NORMAL"),
                new Member(n2, "127.0.0.2:9002", List.of(Long.MAX_VALUE / 2), "NORMAL"));
        for (TestNode n : List.of(n1, n2)) {
            hostIds.put(n, UUID.randomUUID().toString());
            n.onExecute = r -> systemTable(n, r);
            n.onPrepare = r -> PrepareResponse.newBuilder().setStatementId("id")
                    .addBindMarkers(TestNode.column("k", "int")).addBindMarkers(TestNode.column("v", "int"))
                    .setRouting(StatementRouting.newBuilder().setKeyspace("ks").setTable("t").addPartitionKeyIndexes(0))
                    .build();
        }
    }

    @AfterEach
    void stop() {
        n1.close();
        n2.close();
    }

    private ExecuteResponse systemTable(TestNode self, ExecuteRequest r) {
        boolean local = r.getStatement().endsWith("system.local");
        if (local) {
            localQueries.incrementAndGet();
        }
        if (!local && !r.getStatement().endsWith("system.peers")) {
            return ExecuteResponse.getDefaultInstance();
        }
        ExecuteResponse.Builder b = ExecuteResponse.newBuilder().setHasRows(true);
        for (String c : List.of("host_id", "rpc_address", "grpc_port", "tokens", "state")) {
            b.addColumns(TestNode.column(c, c.equals("tokens") ? "set<text>" : "text"));
        }
        for (Member m : ring) {
            if ((m.node() == self) != local) {
                continue;
            }
            CollectionValue.Builder tokens = CollectionValue.newBuilder();
            m.tokens().forEach(t -> tokens.addElements(Value.newBuilder().setText(Long.toString(t))));
            String[] hp = m.address().split(":");
            b.addRows(Row.newBuilder().addValues(Value.newBuilder().setUuid(hostIds.get(m.node())))
                    .addValues(Value.newBuilder().setInet(hp[0])).addValues(Value.newBuilder().setInteger(Long.parseLong(hp[1])))
                    .addValues(Value.newBuilder().setCollection(tokens)).addValues(Value.newBuilder().setText(m.state())));
        }
        return b.build();
    }

    private TributaryClient client(boolean tokenAware) {
        return TributaryClient.builder().channel("127.0.0.1:9001", n1.channel()).tokenAware(tokenAware)
                .ringRefreshInterval(Duration.ofMillis(50))
                .channelFactory(name -> byAddress.get(name).channel()).build();
    }

    private static long token(int k) {
        return Murmur3.token(ByteBuffer.allocate(4).putInt(k).array());
    }

    /** Keys whose token node 2 owns under the initial ring, and keys node 1 owns. */
    private static List<Integer> keys(boolean ownedByNode2, int count) {
        List<Integer> out = new ArrayList<>();
        for (int k = 0; out.size() < count; k++) {
            long t = token(k);
            if ((t > 0 && t <= Long.MAX_VALUE / 2) == ownedByNode2) {
                out.add(k);
            }
        }
        return out;
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting for " + what);
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000); // poll: the refresher gives no signal
        }
    }

    /**
     * Two refreshes begun after now: the first of them has been applied (one refresher thread), so
     * the ring the nodes describe now is the one routed by.
     */
    private void awaitRefresh() {
        long seen = localQueries();
        await(() -> localQueries() >= seen + 2, "two more ring refreshes");
    }

    /** The refreshes begun: each reads system.local first, of whichever node it asks. */
    private long localQueries() {
        return localQueries.get();
    }

    @Test
    @DisplayName("given only node 1, the client discovers node 2 and sends each bound statement to its key's owner")
    void routesToTheOwner() {
        try (TributaryClient c = client(true)) {
            awaitRefresh();
            assertEquals(List.of("127.0.0.1:9001", "127.0.0.2:9002"), c.endpoints(), "node 2 was discovered");
            PreparedStatement p = c.prepare(INSERT);
            assertEquals(List.of(0), p.partitionKeyIndexes());
            for (int k : keys(true, 20)) {
                c.execute(p.bind(k, k));
            }
            for (int k : keys(false, 20)) {
                c.execute(p.bind(k, k));
            }
            assertEquals(20, n2.requestsOf(ExecutePreparedRequest.class).size(), "node 2 got exactly its keys");
            assertEquals(20, n1.requestsOf(ExecutePreparedRequest.class).size(), "node 1 got exactly its keys");
        }
    }

    @Test
    @DisplayName("token-awareness off: every statement goes to the given endpoint, and the ring is never read")
    void offSendsAsBefore() {
        try (TributaryClient c = client(false)) {
            PreparedStatement p = c.prepare(INSERT);
            for (int k : keys(true, 10)) {
                c.execute(p.bind(k, k));
            }
            assertEquals(10, n1.requestsOf(ExecutePreparedRequest.class).size());
            assertEquals(0, n2.requests.size());
            assertEquals(0, n1.requestsOf(ExecuteRequest.class).size(), "no system.local / system.peers queries");
            assertEquals(List.of("127.0.0.1:9001"), c.endpoints());
        }
    }

    @Test
    @DisplayName("a batch goes to the one owner of its bound statements; over two owners it goes as before")
    void batches() {
        try (TributaryClient c = client(true)) {
            awaitRefresh();
            PreparedStatement p = c.prepare(INSERT);
            List<Integer> two = keys(true, 2);
            List<Integer> one = keys(false, 1);
            c.batch().add(p.bind(two.get(0), 0)).add("UPDATE ks.t SET v = 1 WHERE k = 5").add(p.bind(two.get(1), 0)).execute();
            assertEquals(1, n2.requestsOf(dev.tributary.protocol.v1.BatchRequest.class).size(), "same owner: node 2");
            c.execute(p.bind(one.get(0), 0)); // node 1 answered last, so an unrouted request goes there first
            c.batch().add(p.bind(two.get(0), 0)).add(p.bind(one.get(0), 0)).execute();
            assertEquals(1, n1.requestsOf(dev.tributary.protocol.v1.BatchRequest.class).size(), "two owners: the usual order");
        }
    }

    @Test
    @DisplayName("a key the client cannot serialize is sent without routing")
    void unroutableKey() {
        n1.onPrepare = r -> PrepareResponse.newBuilder().setStatementId("id")
                .addBindMarkers(TestNode.column("k", "frozen<list<int>>"))
                .setRouting(StatementRouting.newBuilder().setKeyspace("ks").setTable("t").addPartitionKeyIndexes(0)).build();
        try (TributaryClient c = client(true)) {
            awaitRefresh();
            PreparedStatement p = c.prepare("INSERT INTO ks.l (k) VALUES (?)");
            c.execute(p.bind(List.of(1)));
            assertEquals(1, n1.requestsOf(ExecutePreparedRequest.class).size());
            assertEquals(0, n2.requestsOf(ExecutePreparedRequest.class).size());
        }
    }

    @Test
    @DisplayName("when the owner cannot serve, the request fails over and the ring is read again; a new owner is learned")
    void failoverAndRingChange() {
        try (TributaryClient c = client(true)) {
            awaitRefresh();
            PreparedStatement p = c.prepare(INSERT);
            int k = keys(true, 1).get(0);
            n2.onExecutePrepared = r -> {
                throw TestNode.error(Status.Code.UNAVAILABLE, null, "going away");
            };
            c.execute(p.bind(k, 1));
            assertEquals(1, n1.requestsOf(ExecutePreparedRequest.class).size(), "failed over to node 1");

            // node 2 leaves; a node 3 joins and takes the range
            TestNode n3 = TestNode.start("n3");
            try {
                hostIds.put(n3, UUID.randomUUID().toString());
                n3.onExecute = r -> systemTable(n3, r);
                byAddress.put("127.0.0.3:9003", n3);
                ring = List.of(new Member(n1, "127.0.0.1:9001", List.of(0L), "NORMAL"),
                        new Member(n2, "127.0.0.2:9002", List.of(Long.MAX_VALUE / 2), "LEAVING"),
                        new Member(n3, "127.0.0.3:9003", List.of(Long.MAX_VALUE / 2 + 1), "NORMAL"));
                awaitRefresh();
                c.execute(p.bind(k, 2));
                assertEquals(1, n3.requestsOf(ExecutePreparedRequest.class).size(), "routed to the new owner");
                assertEquals(1, n2.requestsOf(ExecutePreparedRequest.class).size(), "the leaving node owns nothing");
                ring = List.of(ring.get(0), ring.get(2));
                awaitRefresh();
                assertEquals(List.of("127.0.0.1:9001", "127.0.0.3:9003"), c.endpoints(), "the node that left is dropped");
            } finally {
                n3.close();
            }
        }
    }

    @Test
    @DisplayName("a node the application gave that comes back on another port is followed there, by its host id")
    void aGivenNodeRestartedElsewhereIsFollowed() {
        TestNode moved = TestNode.start("n2-moved");
        try (TributaryClient c = TributaryClient.builder().channel("127.0.0.1:9001", n1.channel())
                .channel("127.0.0.2:9002", n2.channel()).ringRefreshInterval(Duration.ofMillis(50))
                .channelFactory(name -> byAddress.get(name).channel()).build()) {
            awaitRefresh();
            PreparedStatement p = c.prepare(INSERT);
            int k = keys(true, 1).get(0);
            c.execute(p.bind(k, 1));
            assertEquals(1, n2.requestsOf(ExecutePreparedRequest.class).size(), "node 2 at the address given");
            // node 2 restarts on another port (or its instance moves to another machine): same host id
            hostIds.put(moved, hostIds.get(n2));
            moved.onExecute = r -> systemTable(moved, r);
            byAddress.put("127.0.0.2:9102", moved);
            ring = List.of(ring.get(0), new Member(moved, "127.0.0.2:9102", List.of(Long.MAX_VALUE / 2), "NORMAL"));
            // a refresh may ask node 2 first, which no longer describes itself: wait for the one that applied
            await(() -> c.endpoints().contains("127.0.0.2:9102"), "the new address learned");
            awaitRefresh();
            c.execute(p.bind(k, 2));
            assertEquals(1, moved.requestsOf(ExecutePreparedRequest.class).size(), "routed to the node's new address");
            assertEquals(1, n2.requestsOf(ExecutePreparedRequest.class).size(), "not to the address given");
            assertEquals(List.of("127.0.0.1:9001", "127.0.0.2:9002", "127.0.0.2:9102"), c.endpoints(),
                    "the given addresses stay; the new one is added");
        } finally {
            moved.close();
        }
    }
}
