package dev.tributary.node.exec;

/** The operator's cluster procedures (ScyllaDB's nodetool), run by the node that is asked. */
public interface ClusterOperations {
    /** {@code check_and_repair_cdc_streams}: a new CDC generation over the current ring; returns its timestamp. */
    long checkAndRepairCdcStreams();

    /**
     * {@code decommission}: this node hands its ranges, base rows and CDC log entries to the
     * other nodes and leaves the cluster; returns once it is out.
     */
    Decommissioned decommission();

    /**
     * {@code removenode}: a node that is gone for good leaves the replica groups; each group it
     * was in takes another node in its place (which catches up from the group), so every group is
     * back at its replication factor once there are enough nodes.
     *
     * @return the groups whose members changed
     */
    java.util.List<String> removenode(String hostId);

    /** What a decommission did. */
    record Decommissioned(java.util.UUID hostId, long generationMillis, long movedEntries) {
    }
}
