package dev.tributary.client;

import dev.tributary.protocol.v1.Lcr;
import java.util.UUID;

/** An LCR held for merging, with its position decoded once. */
record HeldLcr(Lcr lcr, long micros, long lsb, int seq) implements Comparable<HeldLcr> {
    static HeldLcr of(Lcr l) {
        UUID t = UUID.fromString(l.getPosition().getTime());
        return new HeldLcr(l, micros(t), t.getLeastSignificantBits(), l.getPosition().getBatchSeqNo());
    }

    /** Unix microseconds of a timeuuid (the SDK depends on the wire contract only, so it has no TimeUuids). */
    static long micros(UUID timeUuid) {
        return Math.floorDiv(timeUuid.timestamp() - 0x01B21DD213814000L, 10);
    }

    @Override
    public int compareTo(HeldLcr o) {
        int c = Long.compare(micros, o.micros);
        if (c == 0) {
            c = Long.compareUnsigned(lsb, o.lsb);
        }
        return c != 0 ? c : Integer.compareUnsigned(seq, o.seq);
    }
}
