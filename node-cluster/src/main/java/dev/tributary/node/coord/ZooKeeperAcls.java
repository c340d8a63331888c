package dev.tributary.node.coord;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * Closes the znodes a cluster made before it was given --zookeeper-auth-file: every znode under
 * the cluster's root whose ACL lets the world in gets {@code CREATOR_ALL_ACL}, the ACL the node
 * gives what it creates with credentials (the session's digest user, all permissions). Run by
 * each node with credentials at start; idempotent, and harmless when two nodes run it at once
 * (both set the same ACL). A znode that vanishes meanwhile (an ephemeral one) is skipped.
 */
final class ZooKeeperAcls {
    private ZooKeeperAcls() {
    }

    /**
     * @return how many znodes were open and are closed now
     * @throws Exception from ZooKeeper, e.g. NoAuth for a znode another user's credentials own
     */
    static int closeOpen(CuratorFramework c, String root) throws Exception {
        if (c.checkExists().forPath(root) == null) {
            return 0; // the cluster's first start: everything it makes gets the ACL as it is made
        }
        int closed = 0;
        Deque<String> todo = new ArrayDeque<>(List.of(root));
        while (!todo.isEmpty()) {
            String path = todo.pop();
            try {
                Stat stat = new Stat();
                List<ACL> acl = c.getACL().storingStatIn(stat).forPath(path);
                if (acl.stream().anyMatch(a -> a.getId().getScheme().equals("world"))) {
                    // conditional on the ACL version read: a concurrent change by another node wins, and says so
                    c.setACL().withVersion(stat.getAversion()).withACL(ZooDefs.Ids.CREATOR_ALL_ACL).forPath(path);
                    closed++;
                }
                for (String child : c.getChildren().forPath(path)) {
                    todo.push(path + "/" + child);
                }
            } catch (KeeperException.NoNodeException gone) {
                // an ephemeral znode whose session ended while we walked: nothing left to close
            } catch (KeeperException.BadVersionException raced) {
                todo.push(path); // another node changed its ACL meanwhile: look again
            }
        }
        return closed;
    }
}
