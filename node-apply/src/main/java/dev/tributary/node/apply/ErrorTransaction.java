package dev.tributary.node.apply;

import dev.tributary.capture.log.LogCodec;
import dev.tributary.capture.log.LogRecord;
import dev.tributary.dictionary.io.BinaryReader;
import dev.tributary.dictionary.io.BinaryWriter;
import dev.tributary.node.capture.RocksDbCdcLog;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** A transaction in an apply's error queue (a row of DBA_APPLY_ERROR). */
public record ErrorTransaction(String applyName, String localTransactionId, String sourceDatabase,
        String sourceTransactionId, long sourceCommitScn, int messageCount, int errorNumber, String errorMessage,
        Instant errorCreationTime) {

    /** The records of an error transaction as stored: each as its log id, position and LogCodec body. */
    static byte[] encode(List<LogRecord> records) {
        BinaryWriter w = new BinaryWriter(256 * records.size());
        w.varint(records.size());
        BinaryWriter scratch = new BinaryWriter(512);
        for (LogRecord r : records) {
            w.bytes(RocksDbCdcLog.key(r.logId(), r.position())).bytes(LogCodec.encodeBody(r, scratch));
        }
        return w.toByteArray();
    }

    static List<LogRecord> decode(byte[] bytes) {
        BinaryReader r = new BinaryReader(bytes);
        int n = r.count();
        List<LogRecord> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte[] key = r.bytes();
            out.add(LogCodec.decodeBody(java.nio.ByteBuffer.wrap(key).getLong(), RocksDbCdcLog.position(key), r.bytes()));
        }
        r.expectEnd();
        return out;
    }
}
