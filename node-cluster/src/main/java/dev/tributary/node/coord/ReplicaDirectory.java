package dev.tributary.node.coord;

import dev.tributary.generations.ReplicaPlacement;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * The replication layout in ZooKeeper (docs/REPLICATION.md), under {@code /tributary/<cluster>/replication}:
 * {@code hosts/<host id>} holds a node's Raft endpoint, {@code groups/<group>} the members of one
 * replica group (the preferred leader first). Changes run under {@code locks/replication}, so the
 * placement is changed by one node at a time. Thread-safe.
 */
public final class ReplicaDirectory implements AutoCloseable {
    private final CuratorFramework curator;
    private final String root;
    private final TopologyLock lock;
    private final List<CuratorCache> caches = new ArrayList<>();
    private volatile PersistentNode liveRegistration;

    private ReplicaDirectory(CuratorFramework curator, String cluster) {
        this.curator = curator;
        this.root = "/tributary/" + cluster + "/replication";
        this.lock = new TopologyLock(curator, "/tributary/" + cluster + "/locks/replication", "the replication lock");
    }

    /** Connects; fails with UNAVAILABLE if ZooKeeper cannot be reached within {@code timeout}. */
    public static ReplicaDirectory connect(String connectString, String cluster, Duration timeout,
            ZooKeeperClients.Access access) {
        CuratorFramework c = ZooKeeperClients.connect(connectString, timeout, access);
        try {
            ReplicaDirectory d = new ReplicaDirectory(c, cluster);
            for (String dir : List.of("/hosts", "/groups", "/live")) {
                try {
                    c.create().creatingParentsIfNeeded().forPath(d.root + dir);
                } catch (KeeperException.NodeExistsException made) {
                    // another node made it first
                }
            }
            try {
                // made before any node watches it: the watch then sees each change of the value
                c.create().forPath(d.root + "/factor", "0".getBytes(StandardCharsets.UTF_8));
            } catch (KeeperException.NodeExistsException made) {
                // another node made it first
            }
            return d;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            c.close();
            throw new TributaryException(ErrorCode.UNAVAILABLE, "interrupted while connecting to ZooKeeper");
        } catch (TributaryException e) {
            throw e;
        } catch (Exception e) {
            c.close();
            throw new TributaryException(ErrorCode.UNAVAILABLE, "could not set up replication in ZooKeeper: " + e, e);
        }
    }

    /** Records where a host's Raft server listens (kept across its restarts). */
    public void publishHost(String hostId, InetSocketAddress raft) {
        byte[] data = (raft.getHostString() + ":" + raft.getPort()).getBytes(StandardCharsets.UTF_8);
        ZooKeeperClients.call("publish the Raft endpoint of " + hostId, () -> {
            String path = root + "/hosts/" + hostId;
            try {
                curator.create().forPath(path, data);
            } catch (KeeperException.NodeExistsException e) {
                curator.setData().forPath(path, data);
            }
            return null;
        });
    }

    /**
     * Marks a host live for as long as this session lasts ({@code live/<host id>}, ephemeral):
     * groups grow only onto live hosts, and removenode refuses a host that is live.
     */
    public void registerLive(String hostId) {
        PersistentNode n = new PersistentNode(curator, CreateMode.EPHEMERAL, false, root + "/live/" + hostId, new byte[0]);
        n.start();
        try {
            if (!n.waitForInitialCreate(30, TimeUnit.SECONDS)) {
                throw new TributaryException(ErrorCode.UNAVAILABLE, "could not register host " + hostId + " as live");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TributaryException(ErrorCode.UNAVAILABLE, "interrupted while registering host " + hostId);
        }
        liveRegistration = n;
    }

    /**
     * Ends this host's live mark before its process ends (a decommission): no group grows or is
     * balanced onto it from now on.
     */
    public void unregisterLive() {
        PersistentNode n = liveRegistration;
        if (n != null) {
            try {
                n.close();
            } catch (java.io.IOException e) {
                throw new TributaryException(ErrorCode.UNAVAILABLE, "could not end this host's live mark: " + e, e);
            }
            liveRegistration = null;
        }
    }

    /** The hosts whose node process is up. */
    public java.util.Set<String> liveHosts() {
        return ZooKeeperClients.call("read the live hosts", () -> new java.util.TreeSet<>(curator.getChildren().forPath(root + "/live")));
    }

    /** Forgets a host that is gone for good (its Raft endpoint); its groups' placement is changed apart. */
    public void forgetHost(String hostId) {
        ZooKeeperClients.call("forget host " + hostId, () -> {
            try {
                curator.delete().forPath(root + "/hosts/" + hostId);
            } catch (KeeperException.NoNodeException gone) {
                // forgotten before
            }
            return null;
        });
    }

    /** Every host that ever ran replication, with its Raft endpoint. */
    public Map<String, InetSocketAddress> hosts() {
        return ZooKeeperClients.call("read the Raft endpoints", () -> {
            Map<String, InetSocketAddress> out = new TreeMap<>();
            for (String id : curator.getChildren().forPath(root + "/hosts")) {
                byte[] endpoint;
                try {
                    endpoint = curator.getData().forPath(root + "/hosts/" + id);
                } catch (KeeperException.NoNodeException forgotten) {
                    continue; // forgotten since the listing (removenode, decommission)
                }
                String a = new String(endpoint, StandardCharsets.UTF_8);
                int colon = a.lastIndexOf(':');
                out.put(id, InetSocketAddress.createUnresolved(a.substring(0, colon), Integer.parseInt(a.substring(colon + 1))));
            }
            return out;
        });
    }

    /**
     * The replicas each group is to have: the highest replication_factor a keyspace asked of the
     * cluster (0 before any did). It only rises: a keyspace of factor 1 beside one of 3 gets 3.
     */
    public int factor() {
        return ZooKeeperClients.call("read the replication factor", this::readFactor);
    }

    /** {@code factor} exists from {@link #connect} on. */
    private int readFactor() throws Exception {
        return Integer.parseInt(new String(curator.getData().forPath(root + "/factor"), StandardCharsets.UTF_8));
    }

    /** Raises {@link #factor()} to {@code n} if it is lower, under the replication lock; the groups then grow. */
    public void requireFactor(int n) {
        if (factor() >= n) {
            return;
        }
        lock.run("raise the replication factor to " + n, () -> {
            if (readFactor() < n) {
                curator.setData().forPath(root + "/factor", Integer.toString(n).getBytes(StandardCharsets.UTF_8));
            }
            return null;
        });
    }

    /** The replica groups and their members, by group id. */
    public ReplicaPlacement placement() {
        return ZooKeeperClients.call("read the replica groups", this::readPlacement);
    }

    private ReplicaPlacement readPlacement() throws Exception {
        Map<String, List<String>> groups = new TreeMap<>();
        for (String g : curator.getChildren().forPath(root + "/groups")) {
            byte[] data;
            try {
                data = curator.getData().forPath(root + "/groups/" + g);
            } catch (KeeperException.NoNodeException dissolved) {
                continue; // dissolved since the listing
            }
            String members = new String(data, StandardCharsets.UTF_8);
            groups.put(g, Arrays.asList(members.split(",")));
        }
        return new ReplicaPlacement(new LinkedHashMap<>(groups));
    }

    /** Changes the placement under the replication lock; writes the groups that changed and returns the new placement. */
    public ReplicaPlacement update(String what, UnaryOperator<ReplicaPlacement> change) {
        return lock.run(what, () -> {
            ReplicaPlacement before = readPlacement();
            ReplicaPlacement after = change.apply(before);
            for (Map.Entry<String, List<String>> g : after.groups().entrySet()) {
                if (!g.getValue().equals(before.groups().get(g.getKey()))) {
                    byte[] data = String.join(",", g.getValue()).getBytes(StandardCharsets.UTF_8);
                    String path = root + "/groups/" + g.getKey();
                    if (before.groups().containsKey(g.getKey())) {
                        curator.setData().forPath(path, data);
                    } else {
                        curator.create().forPath(path, data);
                    }
                }
            }
            for (String g : before.groups().keySet()) {
                if (!after.groups().containsKey(g)) {
                    curator.delete().forPath(root + "/groups/" + g); // dissolved (its node decommissioned)
                }
            }
            return after;
        });
    }

    /** Calls {@code onChange} (on Curator's thread: do not block) whenever a host, a group or the factor changes. */
    public void watch(Runnable onChange) {
        for (String dir : List.of("/hosts", "/groups", "/live", "/factor")) {
            CuratorCache cache = CuratorCache.build(curator, root + dir);
            cache.listenable().addListener((type, oldData, data) -> onChange.run());
            cache.start();
            caches.add(cache);
        }
    }

    @Override
    public void close() {
        caches.forEach(CuratorCache::close);
        PersistentNode n = liveRegistration;
        if (n != null) {
            try {
                n.close();
            } catch (java.io.IOException e) {
                // the session closes next, which removes it anyway
            }
        }
        curator.close();
    }
}
