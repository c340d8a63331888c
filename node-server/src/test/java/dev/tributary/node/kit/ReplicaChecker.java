package dev.tributary.node.kit;

import dev.tributary.node.ReplicatedNode;
import dev.tributary.node.TestNodes;
import dev.tributary.node.storage.NodeStore;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import java.util.HexFormat;
import dev.tributary.node.storage.StoreIterator;

/**
 * Compares two replicas of one replica group key by key: rows, redo, CDC log and metadata must be
 * identical (the applied index included, once both applied the same entries).
 */
public final class ReplicaChecker {
    private ReplicaChecker() {
    }

    /** Null when the stores are identical, else the first difference. */
    public static String firstDifference(NodeStore a, NodeStore b) {
        for (NodeStore.Family f : NodeStore.Family.values()) {
            try (StoreIterator x = a.iterator(f); StoreIterator y = b.iterator(f)) {
                x.seekToFirst();
                y.seekToFirst();
                long n = 0;
                while (x.isValid() || y.isValid()) {
                    if (!x.isValid() || !y.isValid()) {
                        return f.cfName() + ": entry " + n + " only in " + (x.isValid() ? a.directory() : b.directory())
                                + " (key " + HexFormat.of().formatHex(x.isValid() ? x.key() : y.key()) + ")";
                    }
                    if (!Arrays.equals(x.key(), y.key()) || !Arrays.equals(x.value(), y.value())) {
                        return f.cfName() + ": entry " + n + " differs: " + HexFormat.of().formatHex(x.key())
                                + " vs " + HexFormat.of().formatHex(y.key());
                    }
                    x.next();
                    y.next();
                    n++;
                }
            }
        }
        return null;
    }

    /**
     * Waits until every replica of every group the nodes hold has applied the same entries and is
     * identical to the others, entry for entry: rows, redo, CDC log, metadata.
     */
    public static void awaitAllReplicasAgree(Collection<ReplicatedNode> nodes) {
        TreeSet<String> groups = new TreeSet<>();
        nodes.forEach(n -> groups.addAll(n.replicaGroups()));
        for (String group : groups) {
            List<ReplicatedNode> holders = nodes.stream().filter(n -> n.replicaGroups().contains(group)).toList();
            ReplicatedNode a = holders.get(0);
            for (ReplicatedNode b : holders.subList(1, holders.size())) {
                TestNodes.await(() -> a.appliedIndex(group) == b.appliedIndex(group)
                        && firstDifference(a.replicaStore(group), b.replicaStore(group)) == null,
                        Duration.ofSeconds(30), () -> "replicas of group " + group + " to agree: applied "
                                + a.appliedIndex(group) + " and " + b.appliedIndex(group) + ", "
                                + firstDifference(a.replicaStore(group), b.replicaStore(group)));
            }
        }
    }
}
