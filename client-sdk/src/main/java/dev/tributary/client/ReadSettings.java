package dev.tributary.client;

import dev.tributary.client.internal.Endpoints;
import io.grpc.ManagedChannel;
import java.time.Duration;
import java.util.function.Function;

/**
 * How a {@link PlainConsumer} reads, fixed at {@link ChangeConsumer.Builder#build()}: a group
 * member opens a plain consumer per session with these, whatever the builder is changed to later.
 *
 * @param table           the table whose CDC log is read, or null
 * @param queue           the capture queue read, or null
 * @param maxBatch        LCRs per ReadStreams message
 * @param refreshInterval how often the stream sets are listed again without a node saying so
 * @param workers         handler threads
 */
record ReadSettings(Endpoints endpoints, Function<String, ManagedChannel> channels, String table, String queue,
        int maxBatch, Duration refreshInterval, int workers) {
}
