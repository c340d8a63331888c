package dev.tributary.capture.log;

import dev.tributary.dictionary.types.TimeUuids;
import dev.tributary.generations.StreamId;
import java.util.UUID;

/**
 * Where a log record sits: its stream, its time (a version-1 timeuuid made from the write
 * timestamp) and its place among the records of one transaction with that stream and time.
 * Positions order a stream's records; a consumer resumes after a position. Order: stream, then
 * the timeuuid's time (to its 100-ns tick), then its low half (unsigned), then the batch sequence
 * number, which is consistent with equals.
 */
public record LogPosition(StreamId stream, UUID time, int batchSeqNo) implements Comparable<LogPosition> {
    @Override
    public int compareTo(LogPosition o) {
        int c = stream.compareTo(o.stream);
        if (c != 0) {
            return c;
        }
        // whole 100-ns ticks: comparing micros would tie timeuuids of one microsecond that differ
        c = Long.compare(TimeUuids.ticks(time), TimeUuids.ticks(o.time));
        if (c != 0) {
            return c;
        }
        c = Long.compareUnsigned(time.getLeastSignificantBits(), o.time.getLeastSignificantBits());
        return c != 0 ? c : Integer.compare(batchSeqNo, o.batchSeqNo);
    }
}
