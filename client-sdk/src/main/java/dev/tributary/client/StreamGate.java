package dev.tributary.client;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A stream's life in a consumer, without I/O: when it may be read (its parents are delivered up
 * to its set's timestamp) and when it is done (delivered up to its closing). The consumer's event
 * loop and the seeded simulation (ConsumerSimulationTest) share it.
 */
final class StreamGate {
    private StreamGate() {
    }

    /** A stream's state in a consumer; transitions only as {@link #next} allows. */
    enum Status {
        /** Its parents are not delivered up to its set's timestamp yet: not read. */
        WAITING,
        /** Read from every node. */
        ACTIVE,
        /** Delivered up to its closing timestamp (or closed before where the consumer starts): not read. */
        DONE;

        private static final Map<Status, Set<Status>> NEXT = Map.of(
                WAITING, EnumSet.of(ACTIVE, DONE),
                ACTIVE, EnumSet.of(DONE),
                DONE, EnumSet.noneOf(Status.class));

        Status to(Status next) {
            if (!NEXT.get(this).contains(next)) {
                throw new IllegalStateException("a stream cannot go from " + this + " to " + next);
            }
            return next;
        }
    }

    /** How far a parent stream is, as this consumer knows it. */
    record Parent(boolean readHere, Status status, long deliveredMicros, boolean listed, long storedThroughMicros,
            long closedMillis) {
        /** A parent this consumer reads itself. */
        static Parent readHere(Status status, long deliveredMicros) {
            return new Parent(true, status, deliveredMicros, true, Long.MIN_VALUE, Long.MAX_VALUE);
        }

        /** A parent another member reads (or none does here): its stored progress. */
        static Parent elsewhere(boolean listed, long storedThroughMicros, long closedMillis) {
            return new Parent(false, null, Long.MIN_VALUE, listed, storedThroughMicros, closedMillis);
        }
    }

    /**
     * Whether a stream of a set opened at {@code openedMillis} may be read: every parent is done
     * or delivered up to that timestamp — by this consumer, or (a parent another group member
     * reads) as far as the position store says; a parent closed before where this consumer
     * starts has nothing to wait for. The first set ({@link Long#MIN_VALUE}) has no parents.
     */
    static boolean open(long openedMillis, List<Parent> parents, long startMicros) {
        if (openedMillis == Long.MIN_VALUE) {
            return true;
        }
        long needed = openedMillis * 1000;
        for (Parent p : parents) {
            if (p.readHere()) {
                if (p.status() != Status.DONE && p.deliveredMicros() < needed) {
                    return false;
                }
            } else if (p.listed() && p.storedThroughMicros() < needed && !(p.closedMillis() * 1000 <= startMicros)) {
                return false;
            }
        }
        return true;
    }

    /** Whether an active stream is done: it has a closing time and everything below it is handled. */
    static boolean complete(long closedMillis, int inFlight, long deliveredMicros) {
        return closedMillis != Long.MAX_VALUE && inFlight == 0 && deliveredMicros >= closedMillis * 1000;
    }
}
