package dev.tributary.client;

/**
 * Which streams a {@link ChangeConsumer} reads: all of them by default. A consumer group plugs
 * in here, giving each member a share of the token ring; a stream whose parents another member
 * reads waits until the {@link PositionStore} says they are delivered up to its opening.
 */
@FunctionalInterface
public interface StreamAssignment {
    StreamAssignment ALL = s -> true;

    boolean assigned(StreamDescriptor stream);
}
