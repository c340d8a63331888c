package dev.tributary.capture.log;

import dev.tributary.generations.StreamId;
import java.util.UUID;

/**
 * Where a log record sits: its stream, its time (a version-1 timeuuid made from the write
 * timestamp) and its place among the records of one transaction with that stream and time.
 * Positions order a stream's records; a consumer resumes after a position.
 */
public record LogPosition(StreamId stream, UUID time, int batchSeqNo) implements Comparable<LogPosition> {
    @Override
    public int compareTo(LogPosition o) {
        int c = stream.compareTo(o.stream);
        if (c != 0) {
            return c;
        }
        c = Long.compare(TimeUuids.micros(time), TimeUuids.micros(o.time));
        if (c != 0) {
            return c;
        }
        c = Long.compareUnsigned(time.getLeastSignificantBits(), o.time.getLeastSignificantBits());
        return c != 0 ? c : Integer.compare(batchSeqNo, o.batchSeqNo);
    }
}
