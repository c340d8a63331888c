package dev.tributary.node;

import dev.tributary.node.nativeproto.NativeServer;
import io.grpc.Server;

/**
 * Where the node serves, as clients and peers reach it: the configured host with the port its
 * server bound (the configured port until then, which may be 0). Set by the services assembly
 * as each server starts; read from any thread.
 */
final class ServedEndpoints {
    private final NodeConfig config;
    private volatile Server server;
    private volatile NativeServer nativeServer;

    ServedEndpoints(NodeConfig config) {
        this.config = config;
    }

    void bound(Server grpc) {
        this.server = grpc;
    }

    void bound(NativeServer cqlNative) {
        this.nativeServer = cqlNative;
    }

    int port() {
        Server s = server;
        return s == null ? config.listenPort() : s.getPort();
    }

    /** The host:port clients reach this node at (the bound port when 0 was asked for). */
    String endpoint() {
        return config.listenHost() + ":" + port();
    }

    /** The host:port drivers reach this node's CQL native protocol at, or "" when it serves none. */
    String nativeEndpoint() {
        if (!config.servesNative()) {
            return "";
        }
        NativeServer n = nativeServer;
        return config.nativeHost() + ":" + (n == null ? config.nativePort() : n.port());
    }
}
