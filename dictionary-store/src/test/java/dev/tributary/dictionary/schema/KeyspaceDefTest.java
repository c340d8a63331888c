package dev.tributary.dictionary.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class KeyspaceDefTest {
    private static int rf(Map<String, String> replication) {
        return new KeyspaceDef("ks", replication, false).replicationFactor();
    }

    @Test
    void replicationFactorFromEitherStrategy() {
        assertEquals(3, rf(Map.of("class", "SimpleStrategy", "replication_factor", "3")));
        assertEquals(3, rf(Map.of("class", "NetworkTopologyStrategy", "replication_factor", "3")));
        assertEquals(2, rf(Map.of("class", "NetworkTopologyStrategy", "datacenter1", "2")));
        assertEquals(1, rf(Map.of("class", "LocalStrategy")));
    }

    @Test
    void aFactorThatIsNotAWholeNumberFromOneUpIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> rf(Map.of("class", "SimpleStrategy", "replication_factor", "0")));
        assertEquals("keyspace ks: replication option 'replication_factor' must be a whole number from 1 up, got '0'",
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> rf(Map.of("class", "NetworkTopologyStrategy", "dc1", "x")));
    }
}
