package dev.tributary.generations;

import java.util.List;
import java.util.Objects;

/**
 * The streams of one vnode in a {@link Generation}: one row of
 * {@code system_distributed.cdc_streams_descriptions_v2} ({@code range_end}, {@code streams}).
 *
 * <p>Tributary nodes run one shard, so a vnode has one stream; a vnode described with several
 * (ScyllaDB's per-shard streams) writes to the first, the stream of shard 0, which is what ScyllaDB
 * picks on a single-shard node. Immutable.
 *
 * @param rangeEnd the vnode's inclusive end token
 * @param streams the vnode's streams, at least one
 */
public record VnodeStreams(long rangeEnd, List<StreamId> streams) {

    public VnodeStreams {
        Objects.requireNonNull(streams, "streams");
        streams = List.copyOf(streams);
        if (streams.isEmpty()) {
            throw new IllegalArgumentException("vnode ending at token " + rangeEnd + " has no streams");
        }
    }

    /** The stream writes to this vnode go to. */
    public StreamId primary() {
        return streams.get(0);
    }
}
