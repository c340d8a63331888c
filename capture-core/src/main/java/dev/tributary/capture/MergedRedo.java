package dev.tributary.capture;

import dev.tributary.capture.redo.RedoEntry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The redo of every thread in a capture's scope merged in SCN order, as a RAC capture merges the
 * instances' threads: an entry is handed out only once every thread is known to hold nothing
 * below it that is not handed out too. A thread's read tells how far it is complete (its
 * {@link RedoThread.Batch#completeThrough()}, or its last entry when the read was full); the
 * merge releases entries up to the lowest of those. A thread that cannot be read holds the
 * merge back (nothing past it is released) until it can: passing it by would hand its entries
 * out of SCN order, or never. Entries of one SCN on several threads are never split between
 * reads (the capture's position is an SCN); among them the lower thread number comes first.
 *
 * <p>Not thread-safe: the capture's reader thread owns it.
 */
public final class MergedRedo implements RedoSource {
    private static final Comparator<RedoEntry> ORDER = Comparator.comparingLong(RedoEntry::scn)
            .thenComparingInt(e -> e.session().threadNumber());

    private final Supplier<Map<String, RedoThread>> threads;
    private final RedoSource local;
    private final long pollMillis;
    /** Everything at or below it has been handed out by a read (see {@link #completeThrough()}). */
    private volatile long handedOutThrough = Long.MIN_VALUE;
    private volatile String waitingFor;

    /**
     * @param threads    the threads in scope now, by a name for {@link #waitingFor()} (the set may
     *                   change as nodes join)
     * @param local      this process's own thread, whose new entries wake {@link #awaitNewer}
     * @param pollMillis how long {@link #awaitNewer} waits at most while other threads are in
     *                   scope: their news is polled, not pushed
     */
    public MergedRedo(Supplier<Map<String, RedoThread>> threads, RedoSource local, long pollMillis) {
        this.threads = threads;
        this.local = local;
        this.pollMillis = pollMillis;
    }

    @Override
    public List<RedoEntry> readAfter(long afterScn, int max) {
        Map<String, RedoThread> now = threads.get();
        long bound = Long.MAX_VALUE;
        List<RedoEntry> all = new ArrayList<>();
        for (Map.Entry<String, RedoThread> t : now.entrySet()) {
            RedoThread.Batch b;
            try {
                b = t.getValue().read(afterScn, max);
            } catch (RedoThread.ThreadUnavailableException e) {
                waitingFor = t.getKey() + ": " + e.getMessage();
                return List.of();
            }
            long known = b.completeThrough();
            if (b.entries().size() >= max) {
                known = Math.min(known, b.entries().get(b.entries().size() - 1).scn());
            }
            bound = Math.min(bound, known);
            all.addAll(b.entries());
        }
        waitingFor = null;
        final long through = bound;
        List<RedoEntry> out = new ArrayList<>(all.stream().filter(e -> e.scn() <= through).sorted(ORDER).toList());
        if (out.size() > max) {
            int end = max;
            while (end < out.size() && out.get(end).scn() == out.get(end - 1).scn()) {
                end++; // the rest of the last SCN comes along
            }
            out = new ArrayList<>(out.subList(0, end));
            handedOutThrough = Math.max(handedOutThrough, out.get(out.size() - 1).scn());
        } else if (through != Long.MAX_VALUE) {
            handedOutThrough = Math.max(handedOutThrough, through);
        }
        return out;
    }

    /**
     * The SCN through which reads have handed out every entry of every thread: a capture that
     * asked this before a read that found nothing after its position has captured everything up
     * to it.
     */
    @Override
    public long completeThrough() {
        return handedOutThrough;
    }

    @Override
    public void awaitNewer(long afterScn, long timeoutMillis) throws InterruptedException {
        local.awaitNewer(afterScn, threads.get().size() > 1 ? Math.min(timeoutMillis, pollMillis) : timeoutMillis);
    }

    /** The thread the merge waits for and why, or null when every thread answered the last read. */
    public String waitingFor() {
        return waitingFor;
    }
}
