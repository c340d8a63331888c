package dev.tributary.client.internal;

import dev.tributary.protocol.v1.ColumnSpec;
import dev.tributary.protocol.v1.CqlServiceGrpc;
import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.Row;
import dev.tributary.protocol.v1.SessionState;
import dev.tributary.protocol.v1.Value;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The token ring as the client knows it, learned from {@code system.local} and {@code system.peers}
 * of one node and refreshed in the background (every interval, and soon after a request had to
 * fail over), with a channel opened to every node it lists. Routing by it is a hint: any node
 * accepts any statement and forwards a write it does not own, so a stale ring costs a hop, never
 * a wrong answer. Thread-safe.
 */
public final class ClusterRing implements AutoCloseable {
    static final String COLUMNS = "host_id, rpc_address, grpc_port, tokens, state";
    static final String LOCAL = "SELECT " + COLUMNS + " FROM system.local";
    static final String PEERS = "SELECT " + COLUMNS + " FROM system.peers";
    static final String TABLETS = "SELECT keyspace_name, table_name, last_token, replica FROM system.tablets";
    private static final Logger LOG = Logger.getLogger(ClusterRing.class.getName());
    private static final Duration MAX_QUERY_TIME = Duration.ofSeconds(10);

    /** One row of system.local or system.peers. */
    record Member(String hostId, String hostPort, List<Long> tokens, String state) {
        /** As the nodes route: a member leaving, or down, owns nothing. */
        boolean ownsRanges() {
            return !state.equals("LEAVING") && !state.equals("DOWN");
        }
    }

    private final Endpoints endpoints;
    private final ScheduledExecutorService refresher;
    private final AtomicBoolean refreshQueued = new AtomicBoolean();
    private final AtomicLong refreshes = new AtomicLong();
    private final Map<String, Endpoints.Endpoint> byHostId = new ConcurrentHashMap<>();
    private volatile TokenRing<Endpoints.Endpoint> ring = TokenRing.empty();
    /** Per tablet table ("ks.t"): each tablet's last token → its replica (system.tablets). */
    private volatile Map<String, TokenRing<Endpoints.Endpoint>> tabletRings = Map.of();

    public ClusterRing(Endpoints endpoints, Duration interval) {
        this.endpoints = endpoints;
        this.refresher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tributary-ring-refresh");
            t.setDaemon(true);
            return t;
        });
        endpoints.onFailover(this::requestRefresh);
        refresher.scheduleWithFixedDelay(this::refreshQuietly, 0, interval.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * The node holding a partition: for a tablet table the replica of its token's tablet, else
     * the owner of its token's vnode; null when the ring does not say.
     */
    public Endpoints.Endpoint ownerOf(RoutingKey key) {
        if (key == null) {
            return null;
        }
        TokenRing<Endpoints.Endpoint> tablets = key.table() == null ? null : tabletRings.get(key.table());
        return (tablets != null ? tablets : ring).owner(Murmur3.token(key.partitionKey()));
    }

    /** How many times the ring was read from a node (tests await a refresh with it). */
    public long refreshes() {
        return refreshes.get();
    }

    /** Reads the ring again soon, on the refresher thread; requests meanwhile coalesce into one. */
    public void requestRefresh() {
        if (refreshQueued.compareAndSet(false, true)) {
            try {
                refresher.execute(() -> {
                    refreshQueued.set(false);
                    refreshQuietly();
                });
            } catch (java.util.concurrent.RejectedExecutionException closed) {
                refreshQueued.set(false);
            }
        }
    }

    private void refreshQuietly() {
        try {
            refresh();
        } catch (RuntimeException e) {
            // keep the ring we have: a stale ring only costs forwards
            LOG.log(Level.FINE, "could not refresh the token ring", e);
        }
    }

    /** Reads system.local and system.peers of the first node that answers both, and routes by them. */
    void refresh() {
        for (Endpoints.Endpoint ep : endpoints.inFailoverOrder()) {
            ExecuteResponse local;
            ExecuteResponse peers;
            try {
                local = query(ep, LOCAL);
                peers = query(ep, PEERS);
            } catch (io.grpc.StatusRuntimeException e) {
                continue;
            }
            List<Member> self = members(local);
            if (self.isEmpty()) {
                continue; // not a node that describes the ring (it has no system.local row): ask another
            }
            apply(ep, self, members(peers));
            tabletRings = tablets(ep);
            refreshes.incrementAndGet();
            return;
        }
    }

    /** The tablet maps the node serves; none when it cannot say (the vnode ring is used then). */
    private Map<String, TokenRing<Endpoints.Endpoint>> tablets(Endpoints.Endpoint ep) {
        ExecuteResponse r;
        try {
            r = query(ep, TABLETS);
        } catch (io.grpc.StatusRuntimeException e) {
            return Map.of();
        }
        Map<String, Map<Long, Endpoints.Endpoint>> byTable = new HashMap<>();
        for (Row row : r.getRowsList()) {
            String table = row.getValues(0).getText() + "." + row.getValues(1).getText();
            // a replica the client cannot reach routes nowhere (null), like an unreachable vnode
            byTable.computeIfAbsent(table, k -> new HashMap<>()).put(row.getValues(2).getInteger(),
                    byHostId.get(row.getValues(3).getUuid()));
        }
        Map<String, TokenRing<Endpoints.Endpoint>> out = new HashMap<>();
        byTable.forEach((t, m) -> out.put(t, TokenRing.of(m)));
        return Map.copyOf(out);
    }

    private ExecuteResponse query(Endpoints.Endpoint ep, String statement) {
        long nanos = Math.min(endpoints.requestTimeout().toNanos(), MAX_QUERY_TIME.toNanos());
        return CqlServiceGrpc.newBlockingStub(ep.channel()).withDeadlineAfter(nanos, TimeUnit.NANOSECONDS)
                .execute(ExecuteRequest.newBuilder().setStatement(statement)
                        .setSession(SessionState.newBuilder().setUsername("tributary-sdk")).build());
    }

    private void apply(Endpoints.Endpoint answering, List<Member> local, List<Member> peers) {
        Map<Long, Endpoints.Endpoint> owners = new HashMap<>();
        Set<Endpoints.Endpoint> listed = new HashSet<>();
        Set<Long> unreachable = new HashSet<>();
        for (Member m : local) {
            byHostId.put(m.hostId(), answering);
            listed.add(answering);
            if (m.ownsRanges()) {
                m.tokens().forEach(t -> owners.put(t, answering));
            }
        }
        for (Member m : peers) {
            Endpoints.Endpoint ep = endpointOf(m);
            if (ep != null) {
                listed.add(ep);
            }
            if (m.ownsRanges()) {
                for (long t : m.tokens()) {
                    if (ep == null) {
                        unreachable.add(t);
                    } else {
                        owners.put(t, ep);
                    }
                }
            }
        }
        endpoints.retainDiscovered(listed);
        // a range of a node the client cannot reach routes nowhere rather than to its neighbour
        Map<Long, Endpoints.Endpoint> withGaps = new HashMap<>(owners);
        unreachable.forEach(t -> withGaps.put(t, null));
        ring = TokenRing.of(withGaps);
    }

    /**
     * The endpoint for a peer: the one it answered on before while the ring lists it there, else
     * one at the address the ring lists now. A node restarted on another port, or an instance
     * moved to another node, is followed there even when the user gave its old address.
     */
    private Endpoints.Endpoint endpointOf(Member m) {
        Endpoints.Endpoint known = byHostId.get(m.hostId());
        if (m.hostPort() == null) {
            return known;
        }
        if (known != null && known.name().equals(m.hostPort())) {
            return known;
        }
        Endpoints.Endpoint ep = endpoints.discovered(m.hostPort());
        if (ep != null) {
            byHostId.put(m.hostId(), ep);
        }
        return ep;
    }

    static List<Member> members(ExecuteResponse r) {
        Map<String, Integer> at = new HashMap<>();
        List<ColumnSpec> columns = r.getColumnsList();
        for (int i = 0; i < columns.size(); i++) {
            at.put(columns.get(i).getName(), i);
        }
        List<Member> out = new ArrayList<>();
        if (!at.keySet().containsAll(List.of("host_id", "rpc_address", "grpc_port", "tokens", "state"))) {
            return out;
        }
        for (Row row : r.getRowsList()) {
            String hostId = row.getValues(at.get("host_id")).getUuid();
            String address = row.getValues(at.get("rpc_address")).getInet();
            long port = row.getValues(at.get("grpc_port")).getInteger();
            List<Long> tokens = new ArrayList<>();
            for (Value t : row.getValues(at.get("tokens")).getCollection().getElementsList()) {
                tokens.add(Long.parseLong(t.getText()));
            }
            out.add(new Member(hostId, hostPort(address, port), tokens, row.getValues(at.get("state")).getText()));
        }
        return out;
    }

    /** {@code host:port} to reach a node at, or null for an address no client can reach (0.0.0.0). */
    static String hostPort(String address, long port) {
        if (address.isEmpty() || port <= 0 || port > 65535) {
            return null;
        }
        try {
            // an address literal from the node: parsed without a lookup
            InetAddress a = InetAddress.getByName(address);
            if (a.isAnyLocalAddress()) {
                return null;
            }
            return (address.indexOf(':') >= 0 ? "[" + address + "]" : address) + ":" + port;
        } catch (UnknownHostException e) {
            return null;
        }
    }

    @Override
    public void close() {
        refresher.shutdownNow();
    }
}
