package dev.tributary.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.errors.ValueConversionException;
import dev.tributary.protocol.v1.Lcr;
import dev.tributary.protocol.v1.NamedValue;
import dev.tributary.protocol.v1.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Issue 28 item 3: an LCR's values are decoded when the handler reads them, and read as the eager map did. */
@Timeout(30)
class LazyFieldsTest {
    private static NamedValue bigint(String name, long v) {
        return NamedValue.newBuilder().setName(name).setType("bigint").setValue(Value.newBuilder().setInteger(v)).build();
    }

    private static final NamedValue BAD = NamedValue.newBuilder().setName("d").setType("decimal")
            .setValue(Value.newBuilder().setDecimal("1.x")).build();

    @Test
    @DisplayName("a record with a value the SDK cannot decode is received; reading that value throws, naming the LCR and "
            + "the column, and the other values read")
    void aBadValueThrowsWhereItIsRead() {
        Lcr wire = Lcr.newBuilder().setLcr("ROW").setObjectOwner("ks").setObjectName("t").setCommandType("INSERT")
                .setHasNewValues(true).addNewValues(bigint("k", 1)).addNewValues(BAD).build();
        ChangeRecord r = Lcrs.toRecord(wire);
        assertEquals(1L, r.newValues().get("k"));
        ValueConversionException e = assertThrows(ValueConversionException.class, () -> r.newValues().get("d"));
        assertTrue(e.getMessage().contains("LCR of ks.t new value field d of type decimal"), e.getMessage());
        assertThrows(ValueConversionException.class, () -> ValueCodec.decodeFields(wire.getNewValuesList(), "x"),
                "the eager decode refuses the same value");
    }

    @Test
    @DisplayName("reads as the eager map: wire order, a repeated name keeps its first place and its last value, "
            + "equal to it, read-only; a value is decoded once")
    void readsAsTheEagerMap() {
        List<NamedValue> fields = List.of(bigint("a", 1), bigint("b", 2), bigint("a", 3),
                NamedValue.newBuilder().setName("l").setType("list<bigint>").setValue(Value.newBuilder()
                        .setCollection(dev.tributary.protocol.v1.CollectionValue.newBuilder()
                                .addElements(Value.newBuilder().setInteger(7)))).build());
        Map<String, Object> eager = ValueCodec.decodeFields(fields, "x");
        LazyFields lazy = new LazyFields(fields, () -> "x");
        assertEquals(new ArrayList<>(eager.keySet()), new ArrayList<>(lazy.keySet()));
        assertEquals(eager, lazy);
        assertEquals(lazy, eager);
        assertEquals(eager.hashCode(), lazy.hashCode());
        assertEquals(3L, lazy.get("a"));
        assertEquals(3, lazy.size());
        assertNull(lazy.get("missing"));
        assertSame(lazy.get("l"), lazy.get("l"), "decoded once and kept");
        assertThrows(UnsupportedOperationException.class, () -> lazy.put("z", 1L));
        assertThrows(UnsupportedOperationException.class, () -> lazy.remove("a"));
        assertThrows(UnsupportedOperationException.class, lazy::clear);
        assertThrows(UnsupportedOperationException.class, () -> lazy.entrySet().iterator().next().setValue(0L));
    }

    @Test
    @DisplayName("a record built from wire values keeps them as they came; one built from a caller's map copies it")
    void aCallersMapIsCopied() {
        java.util.HashMap<String, Object> mine = new java.util.HashMap<>(Map.of("k", 1L));
        ChangeRecord r = new ChangeRecord("ROW", null, "INSERT", "ks", "t", null, null, 1, 1, null, mine, null, false,
                null, null, null, null, null, null, null);
        mine.put("k", 2L);
        assertEquals(1L, r.newValues().get("k"));
    }
}
