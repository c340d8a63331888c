package dev.tributary.node.coord;

import dev.tributary.generations.errors.PublishConflictException;
import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * Publishes a generation or stream set — a child {@code %020d} timestamp znode of {@code parent} —
 * only if the newest child is still the one the decision read: one transaction creates the child
 * and sets {@code parent} at the data version read before the listing. The topology lock alone
 * cannot stop a holder whose session (and with it the lock) expired mid-decision from publishing
 * beside the node that took the lock over.
 */
final class ConditionalPublish {
    private ConditionalPublish() {
    }

    static String childName(long timestampMillis) {
        return String.format("%020d", timestampMillis);
    }

    /**
     * @param expectedNewest the timestamp of the newest child the decision read; empty: none
     * @throws PublishConflictException when another child was published since, having written nothing
     */
    static void publish(CuratorFramework curator, String parent, long timestampMillis, byte[] data, OptionalLong expectedNewest)
            throws Exception {
        if (curator.checkExists().forPath(parent) == null) {
            try {
                curator.create().creatingParentsIfNeeded().forPath(parent, new byte[0]);
            } catch (KeeperException.NodeExistsException e) {
                // another node made it: its child, if any, shows below
            }
        }
        Stat stat = new Stat();
        curator.getData().storingStatIn(stat).forPath(parent);
        OptionalLong newest = curator.getChildren().forPath(parent).stream().mapToLong(Long::parseLong).max();
        if (!newest.equals(expectedNewest)) {
            throw conflict(parent, timestampMillis, (newest.isPresent() ? newest.getAsLong() + "" : "none") + " is the newest, not "
                    + (expectedNewest.isPresent() ? expectedNewest.getAsLong() + "" : "none"), null);
        }
        // as late as can be: a connection that dropped while the decision was read may have cost the lock
        TopologyLock.requireHeld(parent + "/" + childName(timestampMillis));
        try {
            curator.transaction().forOperations(
                    curator.transactionOp().setData().withVersion(stat.getVersion())
                            .forPath(parent, ("newest " + timestampMillis).getBytes(StandardCharsets.UTF_8)),
                    curator.transactionOp().create().forPath(parent + "/" + childName(timestampMillis), data));
        } catch (KeeperException.BadVersionException | KeeperException.NodeExistsException e) {
            throw conflict(parent, timestampMillis, "another node published first", e);
        }
    }

    private static PublishConflictException conflict(String parent, long timestampMillis, String why, Exception cause) {
        return new PublishConflictException(parent + "/" + childName(timestampMillis) + " not published: " + why
                + " (the decision is made again)", cause);
    }
}
