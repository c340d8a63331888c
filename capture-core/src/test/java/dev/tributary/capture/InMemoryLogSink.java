package dev.tributary.capture;

import dev.tributary.capture.log.LogPosition;
import dev.tributary.capture.log.LogRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The CDC logs and checkpoints in memory, with {@link LogSink}'s contract: records and checkpoint
 * change together, and re-appending the record a position holds is a no-op. A different record
 * at an occupied position is a capture bug, so it throws. Keeps every append for the tests.
 * Thread-safe.
 */
final class InMemoryLogSink implements LogSink {
    /** One call of {@link #append}. */
    record Append(String captureName, List<LogRecord> records, long checkpointScn) {
    }

    private record Key(long logId, LogPosition position) implements Comparable<Key> {
        @Override
        public int compareTo(Key o) {
            int c = Long.compare(logId, o.logId);
            return c != 0 ? c : position.compareTo(o.position);
        }
    }

    private final TreeMap<Key, LogRecord> logs = new TreeMap<>();
    private final Map<String, Long> checkpoints = new HashMap<>();
    private final List<Append> appends = new ArrayList<>();

    private int fullFor;

    /** The next {@code appends} appends fail as a full disk would ({@link LogSink.SinkFullException}). */
    synchronized void fullFor(int appends) {
        fullFor = appends;
    }

    @Override
    public synchronized void append(String captureName, List<LogRecord> records, long checkpointScn) {
        if (fullFor > 0) {
            fullFor--;
            throw new SinkFullException("no space left (test)", null);
        }
        for (LogRecord r : records) {
            LogRecord held = logs.get(new Key(r.logId(), r.position()));
            if (held != null && !held.equals(r)) {
                throw new IllegalStateException("position " + r.position() + " of log " + r.logId() + " holds " + held
                        + ", not " + r);
            }
        }
        for (LogRecord r : records) {
            logs.put(new Key(r.logId(), r.position()), r);
        }
        checkpoints.put(captureName, checkpointScn);
        appends.add(new Append(captureName, List.copyOf(records), checkpointScn));
    }

    @Override
    public synchronized long checkpoint(String captureName) {
        return checkpoints.getOrDefault(captureName, 0L);
    }

    synchronized List<Append> appends() {
        return List.copyOf(appends);
    }

    /** Every record ever passed to {@link #append}, duplicates included, in append order. */
    synchronized List<LogRecord> appended() {
        List<LogRecord> out = new ArrayList<>();
        for (Append a : appends) {
            out.addAll(a.records());
        }
        return out;
    }

    /** One log in position order. */
    synchronized List<LogRecord> log(long logId) {
        List<LogRecord> out = new ArrayList<>();
        for (Map.Entry<Key, LogRecord> e : logs.entrySet()) {
            if (e.getKey().logId() == logId) {
                out.add(e.getValue());
            }
        }
        return out;
    }

    synchronized int size() {
        return logs.size();
    }
}
