package dev.tributary.node.coord;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * Test fault hook: expires a coordinator's ZooKeeper session the way Curator's KillSession does —
 * a second client joins the same session and closes it, so the server ends the session for both.
 */
public final class KillSession {
    private KillSession() {
    }

    /** The id of the session the coordinator's client holds now: it changes once an expired session is replaced. */
    public static long sessionId(ClusterCoordinator c) throws Exception {
        return c.curator().getZookeeperClient().getZooKeeper().getSessionId();
    }

    public static void expire(ClusterCoordinator c) throws Exception {
        ZooKeeper zk = c.curator().getZookeeperClient().getZooKeeper();
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper twin = new ZooKeeper(c.curator().getZookeeperClient().getCurrentConnectionString(), 5_000, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        }, zk.getSessionId(), zk.getSessionPasswd());
        try {
            if (!connected.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("could not join the session to expire it");
            }
        } finally {
            twin.close();
        }
    }
}
