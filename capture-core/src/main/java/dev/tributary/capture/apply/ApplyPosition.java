package dev.tributary.capture.apply;

import java.util.Comparator;

/**
 * Where an apply process stands in its queue: the commit SCN and transaction id of a source
 * transaction. Transactions are applied in this order (commit SCN, then transaction id, which
 * breaks ties between instances whose clocks gave the same SCN). {@link #START} is before all.
 */
public record ApplyPosition(long commitScn, String transactionId) implements Comparable<ApplyPosition> {
    public static final ApplyPosition START = new ApplyPosition(0, "");
    private static final Comparator<ApplyPosition> ORDER = Comparator.comparingLong(ApplyPosition::commitScn)
            .thenComparing(ApplyPosition::transactionId);

    public ApplyPosition {
        if (transactionId == null) {
            throw new IllegalArgumentException("a position names its transaction id");
        }
    }

    /** The transaction an LCR belongs to: a row LCR's commit SCN (a DDL LCR commits at its own SCN) and transaction id. */
    public static ApplyPosition of(dev.tributary.capture.lcr.Lcr lcr) {
        return new ApplyPosition(lcr instanceof dev.tributary.capture.lcr.RowLcr row ? row.commitScn() : lcr.scn(),
                lcr.transactionId() == null ? "" : lcr.transactionId());
    }

    @Override
    public int compareTo(ApplyPosition o) {
        return ORDER.compare(this, o);
    }

    @Override
    public String toString() {
        return commitScn + "/" + transactionId;
    }
}
