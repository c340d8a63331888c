package dev.tributary.client;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * One CDC stream as a consumer sees it: the lineage it belongs to, the token range it holds,
 * when writes start and stop going to it, and its parents — the streams of the stream set before
 * whose ranges overlap it, which must be delivered up to {@code openedMillis} before it is.
 *
 * @param lineage      "vnodes", "ks.t" for a tablets table, or "schema" for the DDL stream
 * @param streamId     the 16-byte stream id
 * @param rangeStart   exclusive start token; the range wraps when it is not below rangeEnd
 * @param rangeEnd     inclusive end token
 * @param openedMillis the stream set timestamp from which writes use it ({@link Long#MIN_VALUE}: always)
 * @param closedMillis the timestamp from which writes no longer do ({@link Long#MAX_VALUE}: still current)
 * @param parents      the parents' stream ids
 */
public record StreamDescriptor(String lineage, ByteBuffer streamId, long rangeStart, long rangeEnd, long openedMillis,
        long closedMillis, List<ByteBuffer> parents) {
    public StreamDescriptor {
        streamId = streamId.asReadOnlyBuffer();
        parents = List.copyOf(parents);
    }
}
