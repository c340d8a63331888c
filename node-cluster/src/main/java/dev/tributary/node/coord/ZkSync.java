package dev.tributary.node.coord;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;

/** ZooKeeper's sync: a read after it is not behind writes another client made before it. */
final class ZkSync {
    private static final long WAIT_SECONDS = 1;

    private ZkSync() {
    }

    /** Syncs {@code path}, waiting at most a second (a read then is at worst as stale as without it). */
    static void sync(CuratorFramework curator, String path) throws Exception {
        CountDownLatch synced = new CountDownLatch(1);
        curator.sync().inBackground((client, event) -> synced.countDown()).forPath(path);
        synced.await(WAIT_SECONDS, TimeUnit.SECONDS);
    }
}
