package dev.tributary.capture;

import dev.tributary.capture.redo.RedoEntry;
import dev.tributary.dictionary.io.CorruptRecordException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A redo thread held in memory, for driving a capture worker in one thread: when the worker has
 * caught up and waits for redo, the {@link #onCaughtUp} action runs instead of waiting (a test
 * stops the worker there), so {@code worker.run()} returns once every entry is captured. An SCN marked {@link #corruptAt}
 * reads as a record that does not decode. Thread-safe.
 */
final class InMemoryRedoSource implements RedoSource {
    private final TreeMap<Long, RedoEntry> entries = new TreeMap<>();
    private final List<Long> readsAfter = new ArrayList<>();
    private final List<Integer> rowsRead = new ArrayList<>();
    private Runnable onCaughtUp;
    private long corruptAt = -1;

    synchronized void add(RedoEntry... es) {
        for (RedoEntry e : es) {
            if (entries.putIfAbsent(e.scn(), e) != null) {
                throw new IllegalArgumentException("two redo entries at SCN " + e.scn());
            }
        }
        notifyAll();
    }

    synchronized void onCaughtUp(Runnable r) {
        onCaughtUp = r;
    }

    synchronized void corruptAt(long scn) {
        corruptAt = scn;
    }

    /** The {@code afterScn} of every read, in order. */
    synchronized List<Long> readsAfter() {
        return List.copyOf(readsAfter);
    }

    /** The row changes each read returned, in order. */
    synchronized List<Integer> rowsRead() {
        return List.copyOf(rowsRead);
    }

    @Override
    public synchronized List<RedoEntry> readAfter(long afterScn, int max) {
        readsAfter.add(afterScn);
        List<RedoEntry> out = new ArrayList<>();
        for (Map.Entry<Long, RedoEntry> e : entries.tailMap(afterScn, false).entrySet()) {
            if (out.size() == max) {
                break;
            }
            if (e.getKey() == corruptAt) {
                if (out.isEmpty()) {
                    throw new CorruptRecordException("redo record at SCN " + corruptAt + " is damaged");
                }
                break;
            }
            out.add(e.getValue());
        }
        rowsRead.add(out.stream().mapToInt(e -> e.rows().size()).sum());
        return out;
    }

    @Override
    public void awaitNewer(long afterScn, long timeoutMillis) throws InterruptedException {
        Runnable r;
        synchronized (this) {
            if (entries.higherKey(afterScn) != null) {
                return;
            }
            r = onCaughtUp;
            if (r == null) {
                wait(timeoutMillis);
                return;
            }
        }
        r.run(); // a spurious return: the worker reads again unless the action stopped it
    }
}
