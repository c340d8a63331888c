package dev.tributary.node.net;

import io.grpc.Metadata;

/**
 * The {@code authorization: Bearer <token>} header of a gRPC call: what a client (or a database
 * link) shows, and what the node's authentication reads.
 */
public final class BearerToken {
    public static final Metadata.Key<String> HEADER = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    public static final String PREFIX = "Bearer ";

    private BearerToken() {
    }

    /** The headers of a call carrying {@code token}. */
    public static Metadata headers(String token) {
        Metadata md = new Metadata();
        md.put(HEADER, PREFIX + token);
        return md;
    }
}
