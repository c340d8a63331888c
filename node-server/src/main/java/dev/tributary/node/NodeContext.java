package dev.tributary.node;

import dev.tributary.node.health.NodeHealth;
import dev.tributary.node.metrics.NodeMetrics;
import dev.tributary.node.progress.RunningOperations;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * What every assembly of one node instance shares: its configuration, the one wall clock every
 * part reads (so the HLC, safe times, leases, retention and the clock check agree on "now"), its
 * source of randomness, where it serves, its lifecycle, the metrics it reports to, its long
 * operations in progress, and its replica groups' administration.
 *
 * @param random   where the host id, vnode tokens and CDC stream ids come from: a SecureRandom, unless a test seeded it
 * @param replicas the replica groups' administration, or null when the node runs without replication
 */
record NodeContext(NodeConfig config, LongSupplier wallMillis, RandomGenerator random, ServedEndpoints endpoints,
        NodeHealth health, NodeMetrics metrics, RunningOperations runningOperations, NodeOperations.ReplicaAdmin replicas) {
}
