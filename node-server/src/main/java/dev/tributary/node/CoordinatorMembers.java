package dev.tributary.node;

import dev.tributary.node.nativeproto.NativeServer;
import java.util.Map;
import java.util.Set;

/** The cluster's members as the native protocol's topology events read them, from ZooKeeper. */
final class CoordinatorMembers implements NativeServer.Members {
    private final ClusterAssembly cluster;

    CoordinatorMembers(ClusterAssembly cluster) {
        this.cluster = cluster;
    }

    @Override
    public Map<String, String> liveNativeEndpoints() {
        return cluster.coordinator.topology().liveNativeEndpoints();
    }

    @Override
    public Set<String> members() {
        return cluster.memberIds();
    }
}
