package dev.tributary.kafka.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Source partitions as the worker stores them: it looks a committed offset up by the partition's
 * serialized bytes, so those bytes must not depend on the JVM that built the map.
 */
@Timeout(30)
class OffsetsTest {
    private static final ByteBuffer STREAM = ByteBuffer.wrap(new byte[] {1, 2, 3, 4});

    @Test
    void aPartitionSerializesToTheSameBytesInEveryJvm() {
        // a worker's offset key: [connector name, partition], written by the worker's key converter
        JsonConverter keys = new JsonConverter();
        keys.configure(Map.of("schemas.enable", "false"), true);
        byte[] table = keys.fromConnectData("offsets", null, List.of("c", Offsets.partition(Offsets.TABLE, "ks.t", STREAM)));
        assertEquals("[\"c\",{\"table\":\"ks.t\",\"stream_id\":\"0x01020304\"}]", new String(table, StandardCharsets.UTF_8));
        byte[] queue = keys.fromConnectData("offsets", null, List.of("c", Offsets.partition(Offsets.QUEUE, "q1", STREAM)));
        assertEquals("[\"c\",{\"queue\":\"q1\",\"stream_id\":\"0x01020304\"}]", new String(queue, StandardCharsets.UTF_8));
        // the order is the map's own, not one a hash seed of this JVM picked
        assertEquals(List.of(Offsets.TABLE, Offsets.STREAM), List.copyOf(Offsets.partition("ks.t", STREAM).keySet()));
    }

    @Test
    void aQueueOffsetIsTheLastTransactionSentAndReadsBackAfterTheWorkersJson() {
        JsonConverter keys = new JsonConverter();
        keys.configure(Map.of("schemas.enable", "false"), true);
        byte[] queue = keys.fromConnectData("offsets", null, List.of("c", Offsets.queuePartition("q1")));
        assertEquals("[\"c\",{\"queue\":\"q1\"}]", new String(queue, StandardCharsets.UTF_8));

        TransactionBuffer.TxKey tx = new TransactionBuffer.TxKey(117736571054063616L, "1.1a248c99ec00000");
        JsonConverter values = new JsonConverter();
        values.configure(Map.of("schemas.enable", "false"), false);
        byte[] stored = values.fromConnectData("offsets", null, Offsets.queueOffset(tx));
        @SuppressWarnings("unchecked")
        Map<String, Object> read = (Map<String, Object>) values.toConnectData("offsets", stored).value();
        assertEquals(tx, Offsets.queueThrough(read));
        assertEquals(TransactionBuffer.TxKey.NONE, Offsets.queueThrough(null), "no offset: nothing sent");
        assertEquals(TransactionBuffer.TxKey.NONE, Offsets.queueThrough(
                (Map<String, Object>) values.toConnectData("offsets", values.fromConnectData("offsets", null,
                        Offsets.queueOffset(TransactionBuffer.TxKey.NONE))).value()));
    }
}
