package dev.tributary.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tributary.client.RoutingKeys;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The SDK's own Murmur3 against the published Cassandra token values stream-generations'
 * Murmur3PartitionerTest pins (its comments name each source): the two copies must agree with
 * Cassandra, hence with each other.
 */
class Murmur3Test {
    private static byte[] intKey(int v) {
        return ByteBuffer.allocate(4).putInt(v).array();
    }

    private static byte[] bigintKey(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] bytes(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }

    @Test
    @DisplayName("int keys 1..20: the tokens cassandra-dtest pre-computed")
    void intKeys() {
        Map<Integer, Long> expected = new LinkedHashMap<>();
        expected.put(1, -4069959284402364209L);
        expected.put(2, -3248873570005575792L);
        expected.put(3, 9010454139840013625L);
        expected.put(4, -2729420104000364805L);
        expected.put(5, -7509452495886106294L);
        expected.put(6, 2705480034054113608L);
        expected.put(7, 1634052884888577606L);
        expected.put(8, -3799847372828181882L);
        expected.put(9, 3728482343045213994L);
        expected.put(10, -6715243485458697746L);
        expected.put(11, -4156302194539278891L);
        expected.put(12, 8582886034424406875L);
        expected.put(13, -5034495173465742853L);
        expected.put(14, 4279681877540623768L);
        expected.put(15, -1191135763843456182L);
        expected.put(16, -5477287129830487822L);
        expected.put(17, 5467144456125416399L);
        expected.put(18, -2695747960476065067L);
        expected.put(19, -3974532302236993209L);
        expected.put(20, 1388667306199997068L);
        expected.forEach((k, token) -> assertEquals(token, Murmur3.token(intKey(k)), "token of int " + k));
        assertEquals(-8827056344306985898L, Murmur3.token(intKey(0x12345678)));
    }

    @Test
    @DisplayName("bigint, text and uuid keys")
    void otherKeys() {
        assertEquals(2945182322382062539L, Murmur3.token(bigintKey(0)));
        assertEquals(6292367497774912474L, Murmur3.token(bigintKey(1)));
        assertEquals(-8218881827949364593L, Murmur3.token(bigintKey(2)));
        assertEquals(-8048510690352527683L, Murmur3.token(bigintKey(3)));
        assertEquals(-8839064797231613815L, Murmur3.token(text("a")));
        assertEquals(-3758069500696749310L, Murmur3.token(text("hello")));
        UUID u = UUID.fromString("550e8400-e29b-41d4-a716-446655440000");
        assertEquals(4277286421682315655L, Murmur3.token(ByteBuffer.allocate(16).putLong(u.getMostSignificantBits())
                .putLong(u.getLeastSignificantBits()).array()));
        assertEquals(5457549051747178710L, Murmur3.token(new byte[16]));
    }

    @Test
    @DisplayName("tail bytes >= 0x80 are sign-extended as in Cassandra; 16-byte keys have no tail")
    void signExtendedTail() {
        assertEquals(-8582699461035929883L, Murmur3.token(bytes(226, 231)));
        assertEquals(2222373981930033306L, Murmur3.token(bytes(226, 231, 226, 231, 226, 231, 1)));
        assertEquals(-2839127690952877842L, Murmur3.token(bytes(255, 1, 2, 3)));
        assertEquals(4566408979886474012L, Murmur3.token(bytes(254, 254, 254, 254)));
        assertEquals(123573637386978882L, Murmur3.token(bytes(0, 255, 255, 255)));
        assertEquals(-1672437813826982685L, Murmur3.token(bytes(
                254, 254, 254, 254, 254, 254, 254, 254, 254, 254, 254, 254, 254, 254, 254, 254, 254)));
        assertEquals(-5563837382979743776L, Murmur3.token(bytes(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)));
        assertEquals(-2824192546314762522L, Murmur3.token(bytes(
                255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)));
        assertEquals(6463632673159404390L, Murmur3.token(bytes(
                0, 1, 2, 3, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)));
    }

    @Test
    @DisplayName("compound keys hash their CompositeType encoding")
    void compoundKeys() {
        assertEquals(-9026262514124674157L, Murmur3.token(RoutingKeys.composite(new byte[][] {intKey(10), text("20")})));
        assertEquals(4093852821103061060L, Murmur3.token(RoutingKeys.composite(new byte[][] {intKey(1), text("2")})));
        assertEquals(470466698873626083L,
                Murmur3.token(RoutingKeys.composite(new byte[][] {intKey(1), intKey(1), intKey(200301)})));
        assertEquals(7666157718303755816L, Murmur3.token(RoutingKeys.composite(new byte[][] {text("hello"), intKey(42)})));
    }

    @Test
    @DisplayName("the empty key has the minimum token")
    void emptyKey() {
        assertEquals(Long.MIN_VALUE, Murmur3.token(new byte[0]));
    }
}
