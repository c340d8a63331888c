package dev.tributary.dictionary.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.dictionary.errors.InvalidSchemaException;
import dev.tributary.dictionary.types.CqlType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UserTypeDefTest {

    @Test
    void becomesAUserType() {
        UserTypeDef d = new UserTypeDef("ks", "address", List.of(new CqlType.Field("street", CqlType.parse("text")),
                new CqlType.Field("phones", CqlType.parse("list<text>"))));
        CqlType.UserType t = d.toType();
        assertEquals("ks", t.keyspace());
        assertEquals("address", t.name());
        assertEquals(d.fields(), t.fields());
        assertFalse(t.frozen());
        assertEquals("frozen<ks.address>", t.withFrozen(true).cql());
        assertEquals("ks.address", d.qualifiedName());
    }

    @Test
    void refusesBadFields() {
        assertTrue(assertThrows(InvalidSchemaException.class, () -> new UserTypeDef("ks", "u", List.of()))
                .getMessage().contains("type ks.u has no field"));
        assertTrue(assertThrows(InvalidSchemaException.class, () -> new UserTypeDef("ks", "u",
                List.of(new CqlType.Field("a", CqlType.parse("int")), new CqlType.Field("a", CqlType.parse("text")))))
                .getMessage().contains("duplicate field 'a'"));
        assertThrows(InvalidSchemaException.class, () -> new UserTypeDef("ks", "u",
                List.of(new CqlType.Field("c", CqlType.parse("counter")))));
        CqlType.UserType inner = new UserTypeDef("ks", "inner", List.of(new CqlType.Field("x", CqlType.parse("int")))).toType();
        assertThrows(InvalidSchemaException.class, () -> new UserTypeDef("ks", "u", List.of(new CqlType.Field("i", inner))));
        new UserTypeDef("ks", "u", List.of(new CqlType.Field("i", inner.withFrozen(true))));
    }

    @Test
    void keyspaceKeepsItsReplicationOptions() {
        Map<String, String> r = new LinkedHashMap<>();
        r.put("class", "NetworkTopologyStrategy");
        r.put("dc1", "3");
        KeyspaceDef k = new KeyspaceDef("ks", r, true);
        r.put("dc2", "1");
        assertEquals(List.of("class", "dc1"), List.copyOf(k.replication().keySet()));
        assertThrows(UnsupportedOperationException.class, () -> k.replication().put("x", "y"));
        assertThrows(IllegalArgumentException.class, () -> new KeyspaceDef("", Map.of(), false));
    }
}
