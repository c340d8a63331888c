package dev.tributary.client;

/**
 * When a transaction's LCRs are all in: the arithmetic behind
 * {@link ChangeConsumer#wholeTransactionsBelowMicros()}, without I/O.
 *
 * <p>A row change is logged at {@code max(write timestamp, commit SCN's time)}
 * ({@code CdcLogFormatter.logMicros}). The node that plans a write refuses a timestamp more than
 * {@code --max-write-skew} from its wall clock, and the commit SCN it draws afterwards comes from
 * its hybrid logical clock, whose milliseconds are never below that wall clock. So every LCR of a
 * transaction committed at SCN {@code c} lies before {@code (millis(c) + 1) * 1000 + skew}
 * microseconds, and once the consumer's low watermark is past that point every one has been
 * handled.
 */
final class WholeTransactions {
    /** An SCN's low 16 bits are its logical counter; the rest its physical milliseconds. */
    private static final int LOGICAL_BITS = 16;

    private WholeTransactions() {
    }

    /** The node's {@code Scns.micros}: the physical milliseconds in µs plus the counter, at most 999. */
    static long commitMicros(long scn) {
        return (scn >>> LOGICAL_BITS) * 1000 + Math.min(scn & ((1L << LOGICAL_BITS) - 1), 999);
    }

    /**
     * Transactions whose {@link #commitMicros} lies below the result are whole under a watermark
     * of {@code watermarkMicros}: {@code commitMicros < watermark - skew - 1000} gives
     * {@code millis * 1000 + 1000 + skew < watermark}. {@link Long#MIN_VALUE} while either is unknown
     * (a watermark of {@code MIN_VALUE}, a skew below 0).
     */
    static long below(long watermarkMicros, long skewMillis) {
        if (watermarkMicros == Long.MIN_VALUE || skewMillis < 0) {
            return Long.MIN_VALUE;
        }
        return watermarkMicros - Math.multiplyExact(skewMillis, 1000L) - 1000;
    }
}
