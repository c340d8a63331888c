package dev.tributary.client;

import dev.tributary.client.errors.ValueConversionException;
import dev.tributary.protocol.v1.Generation;
import dev.tributary.protocol.v1.Lcr;
import dev.tributary.protocol.v1.VnodeStreams;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

/** Converts the change-stream messages to the client's records. Stateless. */
public final class Lcrs {
    private Lcrs() {
    }

    public static ChangeRecord toRecord(Lcr l) {
        Supplier<String> what = () -> "LCR of " + l.getObjectOwner() + "." + l.getObjectName();
        return new ChangeRecord(
                l.getLcr(),
                emptyToNull(l.getSourceDatabaseName()),
                emptyToNull(l.getCommandType()),
                emptyToNull(l.getObjectOwner()),
                emptyToNull(l.getObjectName()),
                l.getHasTag() ? l.getTag().asReadOnlyByteBuffer() : null,
                emptyToNull(l.getTransactionId()),
                l.getScn(),
                l.getCommitScn(),
                l.getHasOldValues() ? new LazyFields(l.getOldValuesList(), () -> what.get() + " old value") : null,
                l.getHasNewValues() ? new LazyFields(l.getNewValuesList(), () -> what.get() + " new value") : null,
                l.hasPosition() ? toPosition(l.getPosition(), what) : null,
                l.getEndOfBatch(),
                new LazyFields(l.getExtraList(), () -> what.get() + " extra attribute"),
                emptyToNull(l.getObjectType()),
                emptyToNull(l.getDdlText()),
                emptyToNull(l.getLogonUser()),
                emptyToNull(l.getCurrentSchema()),
                emptyToNull(l.getBaseTableOwner()),
                emptyToNull(l.getBaseTableName()));
    }

    public static LcrPosition toPosition(dev.tributary.protocol.v1.LcrPosition p, String what) {
        return toPosition(p, () -> what);
    }

    private static LcrPosition toPosition(dev.tributary.protocol.v1.LcrPosition p, Supplier<String> what) {
        UUID time;
        try {
            time = UUID.fromString(p.getTime());
        } catch (IllegalArgumentException e) {
            throw new ValueConversionException(what.get() + ": position time '" + p.getTime() + "' is not a timeuuid", e);
        }
        return new LcrPosition(p.getStreamId().asReadOnlyByteBuffer(), time, p.getBatchSeqNo());
    }

    public static dev.tributary.protocol.v1.LcrPosition toWire(LcrPosition p) {
        return dev.tributary.protocol.v1.LcrPosition.newBuilder()
                .setStreamId(com.google.protobuf.ByteString.copyFrom(p.streamId()))
                .setTime(p.time().toString())
                .setBatchSeqNo(p.batchSeqNo())
                .build();
    }

    public static GenerationInfo toGeneration(Generation g) {
        List<GenerationInfo.VnodeStreams> vnodes = new ArrayList<>(g.getVnodesCount());
        for (VnodeStreams v : g.getVnodesList()) {
            List<ByteBuffer> streams = new ArrayList<>(v.getStreamsCount());
            for (com.google.protobuf.ByteString s : v.getStreamsList()) {
                streams.add(s.asReadOnlyByteBuffer());
            }
            vnodes.add(new GenerationInfo.VnodeStreams(v.getRangeEnd(), streams));
        }
        return new GenerationInfo(Instant.ofEpochMilli(g.getTimestampMillis()), vnodes);
    }

    private static String emptyToNull(String s) {
        return s.isEmpty() ? null : s;
    }
}
