package dev.tributary.generations;

import java.time.Duration;
import java.util.Locale;

/**
 * A node's wall clock against the cluster's reference clock, read in one round trip: the reference
 * stamped its time somewhere between the moments this node sent the request and received the
 * answer, so the offset is known to within half the round trip.
 *
 * <p>Why it matters: a generation (and a tablet stream set) takes effect at a wall-clock time set
 * one ring delay ahead of its publication, and every node routes a write by its own clock. A node
 * whose clock is off by more than the ring delay can log a write into a generation the others have
 * not switched to, or left; Scylla's design assumes NTP keeps nodes well inside it. Up to half the
 * ring delay the switch holds with room to spare; beyond the whole ring delay the node must not
 * take writes.
 *
 * <p>Pure value; thread-safe.
 *
 * @param offsetMillis      this node's clock minus the reference's (positive: this node is ahead)
 * @param uncertaintyMillis half the round trip: the true offset lies within this of {@code offsetMillis}
 */
public record ClockOffset(long offsetMillis, long uncertaintyMillis) {

    /** What an offset means for taking writes. */
    public enum Verdict {
        /** Not certainly beyond half the ring delay. */
        AGREES,
        /** Certainly beyond half the ring delay, not certainly beyond the whole: warn. */
        DRIFTING,
        /** Certainly beyond the ring delay: the node must refuse writes. */
        BEYOND_RING_DELAY,
        /** The round trip took too long to tell (a slow or unreachable ZooKeeper): keep the last verdict. */
        UNKNOWN
    }

    public ClockOffset {
        if (uncertaintyMillis < 0) {
            throw new IllegalArgumentException("uncertainty must not be negative: " + uncertaintyMillis);
        }
    }

    /**
     * The offset from one round trip: {@code referenceMillis} was stamped by the reference clock
     * between {@code sentMillis} and {@code receivedMillis} of this node's clock.
     */
    public static ClockOffset measure(long sentMillis, long referenceMillis, long receivedMillis) {
        if (receivedMillis < sentMillis) {
            // the wall clock stepped back during the round trip: take the widest honest bound
            long t = sentMillis;
            sentMillis = receivedMillis;
            receivedMillis = t;
        }
        long half = (receivedMillis - sentMillis + 1) / 2;
        long midpoint = sentMillis + (receivedMillis - sentMillis) / 2;
        return new ClockOffset(midpoint - referenceMillis, half);
    }

    public Verdict judge(Duration ringDelay) {
        long ring = ringDelay.toMillis();
        long nearest = Math.abs(offsetMillis) - uncertaintyMillis; // the least the offset can be
        if (nearest > ring) {
            return Verdict.BEYOND_RING_DELAY;
        }
        if (uncertaintyMillis > ring / 2) {
            return Verdict.UNKNOWN;
        }
        return nearest > ring / 2 ? Verdict.DRIFTING : Verdict.AGREES;
    }

    /** For messages: "5012 ms ahead of ZooKeeper's clock (± 3 ms)". */
    public String describe(String reference) {
        String side = offsetMillis >= 0 ? "ahead of" : "behind";
        return String.format(Locale.ROOT, "%d ms %s %s clock (± %d ms)", Math.abs(offsetMillis), side, reference,
                uncertaintyMillis);
    }
}
