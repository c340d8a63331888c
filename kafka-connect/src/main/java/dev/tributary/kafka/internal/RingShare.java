package dev.tributary.kafka.internal;

import dev.tributary.client.StreamAssignment;
import dev.tributary.client.StreamDescriptor;

/**
 * Task {@code task} of {@code tasks} reads the streams whose token t (the stream id's high 64
 * bits, signed) has {@code floor((t + 2^63) * tasks / 2^64) == task}: the consumer-group rule of
 * groups.proto, so the shares cover the ring without overlap and a partition's streams of every
 * generation and tablet stream set fall to the same task (lineage gates across tasks stay rare).
 */
public record RingShare(int task, int tasks) implements StreamAssignment {
    public RingShare {
        if (tasks < 1 || task < 0 || task >= tasks) {
            throw new IllegalArgumentException("task " + task + " of " + tasks);
        }
    }

    public static int taskOf(long token, int tasks) {
        long u = token ^ Long.MIN_VALUE; // t + 2^63 as an unsigned number
        // the high word of the unsigned 128-bit product; multiplyHigh is signed, so add back
        return (int) (Math.multiplyHigh(u, tasks) + ((u >> 63) & tasks));
    }

    @Override
    public boolean assigned(StreamDescriptor stream) {
        return taskOf(stream.streamId().duplicate().getLong(), tasks) == task;
    }
}
