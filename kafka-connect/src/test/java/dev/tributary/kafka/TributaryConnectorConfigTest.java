package dev.tributary.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Settings: defaults, and a clear message on the setting a bad configuration gets wrong. */
@Timeout(30)
class TributaryConnectorConfigTest {
    private static Map<String, String> good() {
        Map<String, String> m = new HashMap<>();
        m.put("connector.class", TributarySourceConnector.class.getName());
        m.put("tributary.endpoints", "127.0.0.1:9160, [::1]:9161");
        m.put("tributary.tables", "shop.orders,shop.items");
        m.put("topic.prefix", "tributary");
        return m;
    }

    /** The validation errors Connect's REST API would show, by setting. */
    private static Map<String, List<String>> errors(Map<String, String> props) {
        return new TributarySourceConnector().validate(props).configValues().stream()
                .filter(v -> !v.errorMessages().isEmpty())
                .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
    }

    @Test
    void defaults() {
        TributaryConnectorConfig c = new TributaryConnectorConfig(good());
        assertEquals(List.of("127.0.0.1:9160", "[::1]:9161"), c.endpoints());
        assertEquals(List.of("shop.orders", "shop.items"), c.tables());
        assertNull(c.start(), "earliest");
        assertEquals("never", c.getString(TributaryConnectorConfig.SNAPSHOT_MODE));
        assertTrue(c.tombstonesOnDelete());
        assertEquals(TributaryConnectorConfig.DEFAULT_MAX_QUEUE_SIZE, c.maxQueueSize());
        assertEquals(Map.of(), errors(good()));
    }

    @Test
    void badSettingsAreNamedWithTheReason() {
        Map<String, String> p = good();
        p.put("tributary.endpoints", "localhost");
        assertTrue(errors(p).get("tributary.endpoints").get(0).contains("HOST:PORT"), errors(p)::toString);

        p = good();
        p.put("tributary.tables", "orders");
        assertTrue(errors(p).get("tributary.tables").get(0).contains("KEYSPACE.TABLE"), errors(p)::toString);

        p = good();
        p.put("topic.prefix", "a/b");
        assertTrue(errors(p).containsKey("topic.prefix"), errors(p)::toString);

        p = good();
        p.remove("topic.prefix");
        assertTrue(errors(p).containsKey("topic.prefix"), "required");

        p = good();
        p.put("snapshot.mode", "always");
        assertTrue(errors(p).containsKey("snapshot.mode"), errors(p)::toString);

        p = good();
        p.put("snapshot.mode", "initial");
        assertTrue(errors(p).isEmpty(), errors(p)::toString);
        assertTrue(new TributaryConnectorConfig(p).snapshotInitial());

        p = good();
        p.remove("tributary.tables");
        p.put("tributary.queue", "q1");
        p.put("snapshot.mode", "initial");
        assertTrue(errors(p).get("snapshot.mode").get(0).contains("a queue"), errors(p)::toString);

        p = good();
        p.put("snapshot.fetch.size", "0");
        assertTrue(errors(p).containsKey("snapshot.fetch.size"), errors(p)::toString);

        p = good();
        p.put("tributary.start", "yesterday");
        assertTrue(errors(p).get("tributary.start").get(0).contains("ISO-8601"), errors(p)::toString);

        p = good();
        p.put("tributary.queue", "q1");
        assertTrue(errors(p).get("tributary.queue").get(0).contains("not both"), errors(p)::toString);

        p = good();
        p.remove("tributary.tables");
        p.put("tributary.queue", "q/1");
        assertTrue(errors(p).get("tributary.queue").get(0).contains("topic name"), errors(p)::toString);

        p = good();
        p.put("tributary.tables", "");
        assertTrue(errors(p).get("tributary.tables").get(0).contains("at least one table"), errors(p)::toString);

        p = good();
        p.put("tributary.tls.cert", "/c.pem");
        assertTrue(errors(p).get("tributary.tls.cert").get(0).contains("tributary.tls.key"), errors(p)::toString);

        p = good();
        p.put("max.queue.size", "0");
        assertTrue(errors(p).containsKey("max.queue.size"), errors(p)::toString);
    }

    @Test
    void aQueueInsteadOfTables() {
        Map<String, String> p = good();
        p.remove("tributary.tables");
        p.put("tributary.queue", "streams_queue");
        TributaryConnectorConfig c = new TributaryConnectorConfig(p);
        assertEquals("streams_queue", c.queue());
        assertEquals(List.of("streams_queue"), c.logs());
        assertEquals(Map.of(), errors(p));
    }

    @Test
    void aFixedStartInstant() {
        Map<String, String> p = good();
        p.put("tributary.start", "2026-12-06T00:00:00Z");
        assertEquals(Instant.parse("2026-12-06T00:00:00Z"), new TributaryConnectorConfig(p).start());
        p.put("tributary.password", "secret");
        assertThrows(ConfigException.class, () -> new TributaryConnectorConfig(p), "a password without a user");
    }
}
