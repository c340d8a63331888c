package dev.tributary.kafka.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A capture queue's LCRs held by transaction until each is whole, then handed on in commit order
 * (docs/KAFKA.md, "A queue's transactions"). No I/O and no threads: the task feeds it what its
 * consumer handles and tells it the consumer's whole-transaction bound
 * ({@code ChangeConsumer.wholeTransactionsBelowMicros()}); a transaction committed below the bound
 * can gain no LCR any more, and every transaction not yet seen commits after it, so releasing the
 * open transactions below the bound in (commit SCN, transaction id) order is commit order.
 *
 * <p>After a restart the buffer starts from the last transaction whose records are committed
 * ({@code after}): LCRs of it and of every transaction before it were sent, and are dropped. An
 * LCR of a transaction already released in this run (which the skew rule says cannot happen) is
 * not dropped: it goes on as a transaction of its own, out of order, rather than be lost.
 * Not thread-safe.
 *
 * @param <T> an LCR as the caller holds it
 */
public final class TransactionBuffer<T> {
    /** A transaction's place in commit order: its commit SCN, then its id (two nodes may commit at one SCN). */
    public record TxKey(long commitScn, String transactionId) implements Comparable<TxKey> {
        /** Before every real transaction: nothing sent yet. */
        public static final TxKey NONE = new TxKey(Long.MIN_VALUE, "");

        public TxKey {
            transactionId = transactionId == null ? "" : transactionId;
        }

        @Override
        public int compareTo(TxKey o) {
            int c = Long.compare(commitScn, o.commitScn);
            return c != 0 ? c : transactionId.compareTo(o.transactionId);
        }

        public static TxKey max(TxKey a, TxKey b) {
            return a.compareTo(b) >= 0 ? a : b;
        }
    }

    /** A transaction released whole: its LCRs in their order within it. {@code late}: see the class comment. */
    public record Transaction<T>(TxKey key, long commitMicros, List<T> items, boolean late) {
    }

    /** What {@link #add} did with an LCR. */
    public enum Added {
        /** Held in its open transaction. */
        HELD,
        /** At or before the point the buffer started after: sent in an earlier run. */
        SENT_BEFORE,
        /** Its transaction was released already: ready at once, on its own. */
        LATE
    }

    private static final class Open<T> {
        final long commitMicros;
        final List<T> items = new ArrayList<>();

        Open(long commitMicros) {
            this.commitMicros = commitMicros;
        }
    }

    private final TxKey after;
    private final Comparator<T> within;
    private final TreeMap<TxKey, Open<T>> open = new TreeMap<>();
    private final ArrayDeque<Transaction<T>> ready = new ArrayDeque<>();
    private TxKey releasedThrough;
    private long bound = Long.MIN_VALUE;
    private int openItems;
    private int readyItems;

    /**
     * @param after  the last transaction sent before (its records' offsets committed), or {@link TxKey#NONE}
     * @param within the order of a transaction's LCRs
     */
    public TransactionBuffer(TxKey after, Comparator<T> within) {
        this.after = Objects.requireNonNull(after, "after");
        this.within = Objects.requireNonNull(within, "within");
        this.releasedThrough = after;
    }

    /** Holds an LCR of the transaction {@code key}, committed at {@code commitMicros}. */
    public Added add(TxKey key, long commitMicros, T item) {
        if (key.compareTo(after) <= 0) {
            return Added.SENT_BEFORE;
        }
        if (key.compareTo(releasedThrough) <= 0) {
            ready.add(new Transaction<>(key, commitMicros, List.of(item), true));
            readyItems++;
            return Added.LATE;
        }
        open.computeIfAbsent(key, k -> new Open<>(commitMicros)).items.add(item);
        openItems++;
        return Added.HELD;
    }

    /**
     * Makes ready, in commit order, every open transaction committed below {@code wholeBelowMicros}.
     * The bound only rises: a lower one than before is ignored.
     */
    public void promote(long wholeBelowMicros) {
        bound = Math.max(bound, wholeBelowMicros);
        Map.Entry<TxKey, Open<T>> e;
        while ((e = open.firstEntry()) != null && e.getValue().commitMicros < bound) {
            open.pollFirstEntry();
            List<T> items = e.getValue().items;
            items.sort(within);
            ready.add(new Transaction<>(e.getKey(), e.getValue().commitMicros, List.copyOf(items), false));
            openItems -= items.size();
            readyItems += items.size();
            releasedThrough = e.getKey();
        }
    }

    /**
     * Takes ready transactions in order, whole: at least one when any is ready, then more while
     * their LCRs stay within {@code maxItems}.
     */
    public List<Transaction<T>> take(int maxItems) {
        List<Transaction<T>> out = new ArrayList<>();
        int n = 0;
        Transaction<T> t;
        while ((t = ready.peekFirst()) != null && (out.isEmpty() || n + t.items().size() <= maxItems)) {
            ready.pollFirst();
            n += t.items().size();
            readyItems -= t.items().size();
            out.add(t);
        }
        return out;
    }

    /** LCRs held in transactions not whole yet. */
    public int openItems() {
        return openItems;
    }

    /** LCRs of whole transactions not taken yet. */
    public int readyItems() {
        return readyItems;
    }

    /** The highest transaction released so far (or the starting point). */
    public TxKey releasedThrough() {
        return releasedThrough;
    }
}
