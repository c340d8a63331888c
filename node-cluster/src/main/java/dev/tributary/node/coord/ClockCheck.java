package dev.tributary.node.coord;

import dev.tributary.generations.ClockOffset;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import java.time.Duration;
import java.util.function.LongSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's wall clock against ZooKeeper's (RELIABILITY C6), judged by {@link ClockOffset}
 * against the ring delay: a write to this node's clock znode is stamped with the ZooKeeper
 * leader's time, between the moments this node sent it and heard back. The nodes share that one
 * reference, so each node within half the ring delay of it keeps every pair within the ring delay.
 *
 * <p>Checked at start (a node certainly beyond the ring delay does not start) and then
 * periodically (a node that drifts beyond it refuses writes, naming its offset, until it is back).
 * While ZooKeeper cannot be reached the last verdict stands. Thread-safe.
 */
public final class ClockCheck {
    private static final Logger LOG = LoggerFactory.getLogger(ClockCheck.class);
    private static final String REFERENCE = "ZooKeeper's";

    private final CuratorFramework curator;
    private final String path;
    private final String hostId;
    private final LongSupplier wallMillis;
    private final Duration ringDelay;
    private volatile ClockOffset.Verdict lastVerdict;
    private volatile String refusal;

    ClockCheck(CuratorFramework curator, String root, String hostId, LongSupplier wallMillis, Duration ringDelay) {
        this.curator = curator;
        this.path = root + "/clocks/" + hostId;
        this.hostId = hostId;
        this.wallMillis = wallMillis;
        this.ringDelay = ringDelay;
    }

    /** One round trip to ZooKeeper. */
    ClockOffset measure() throws Exception {
        long sent = wallMillis.getAsLong();
        Stat stat;
        try {
            stat = curator.setData().forPath(path, new byte[0]);
        } catch (KeeperException.NoNodeException e) {
            // ephemeral: gone with an earlier session; the round trip that made it is not the one measured
            try {
                curator.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path, new byte[0]);
            } catch (KeeperException.NodeExistsException raced) {
                // made by this node's previous check on the same session
            }
            sent = wallMillis.getAsLong();
            stat = curator.setData().forPath(path, new byte[0]);
        }
        return ClockOffset.measure(sent, stat.getMtime(), wallMillis.getAsLong());
    }

    /**
     * The check a node makes before it takes a write.
     *
     * @throws TributaryException UNAVAILABLE when the clock is certainly beyond the ring delay, or
     *                            ZooKeeper could not be asked
     */
    public void checkAtStart() {
        ClockOffset o;
        try {
            o = measure();
        } catch (Exception e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "could not compare the node's clock with ZooKeeper's: " + e, e);
        }
        String refused = judge(o);
        if (refused != null) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, refused);
        }
    }

    /** A periodic check: keeps the verdict the write path asks {@link #refusesWritesBecause()} for. */
    public void run() {
        try {
            judge(measure());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.debug("node {}: could not compare its clock with ZooKeeper's: {}", hostId, e.toString());
        }
    }

    private String judge(ClockOffset o) {
        ClockOffset.Verdict verdict = o.judge(ringDelay);
        if (verdict == ClockOffset.Verdict.UNKNOWN) {
            LOG.debug("node {}: a round trip of {} ms to ZooKeeper tells nothing of its clock", hostId, 2 * o.uncertaintyMillis());
            return refusal;
        }
        ClockOffset.Verdict before = lastVerdict;
        lastVerdict = verdict;
        String refused = verdict != ClockOffset.Verdict.BEYOND_RING_DELAY ? null : "node " + hostId + "'s clock is "
                + o.describe(REFERENCE) + ", more than the ring delay (" + ringDelay.toMillis() + " ms): CDC generations "
                + "switch at a wall-clock time every node must agree on, so its writes could be logged in the wrong "
                + "streams; correct the clock (NTP) or raise --ring-delay";
        if (refused != null && refusal == null) {
            LOG.error("{}; refusing writes", refused);
        } else if (refused == null && refusal != null) {
            LOG.info("node {}'s clock is {} again; taking writes", hostId, o.describe(REFERENCE));
        }
        if (verdict == ClockOffset.Verdict.DRIFTING && before != ClockOffset.Verdict.DRIFTING) {
            LOG.warn("node {}'s clock is {}, more than half the ring delay ({} ms): correct it (NTP) before it passes the "
                    + "whole ring delay and the node refuses writes", hostId, o.describe(REFERENCE), ringDelay.toMillis());
        }
        refusal = refused;
        return refused;
    }

    /** Null while the clock is within the ring delay of ZooKeeper's (or not yet measured), else why writes are refused. */
    public String refusesWritesBecause() {
        return refusal;
    }
}
