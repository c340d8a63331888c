package dev.tributary.node;

import dev.tributary.node.exec.WriteService;

/**
 * The cluster as the write service sees it, from ZooKeeper's topology and this node's replica
 * group: how many nodes a keyspace's replicas can go to, how many copies this node keeps, and
 * whether it may take writes at all.
 */
final class CoordinatedWriteCluster implements WriteService.Cluster {
    private final ClusterAssembly cluster;
    private final String hostId;
    /** Null when the node runs without replication: it keeps one copy. */
    private final NodeOperations.ReplicaAdmin replicas;

    CoordinatedWriteCluster(ClusterAssembly cluster, String hostId, NodeOperations.ReplicaAdmin replicas) {
        this.cluster = cluster;
        this.hostId = hostId;
        this.replicas = replicas;
    }

    @Override
    public int nodes() {
        return Math.max(1, cluster.coordinator.topology().nodes());
    }

    @Override
    public int nodeCopies() {
        return replicas == null ? 1 : replicas.copies(hostId);
    }

    @Override
    public String moreCopiesNeeded(String what, int factor) {
        if (replicas == null) {
            return "Cannot achieve replication_factor " + factor + " for " + what + ": node " + hostId
                    + " runs without replication and keeps 1 copy of its data; start the nodes with "
                    + "--replication raft (local-cluster does) and a ZooKeeper of their own";
        }
        replicas.require(factor);
        return what + " asks " + factor + " replicas: the replica group of node " + hostId + " has "
                + nodeCopies() + " and is growing to " + factor + " (as live nodes allow); retry shortly";
    }

    @Override
    public String refusesWritesBecause() {
        return cluster.refusesWritesBecause();
    }
}
