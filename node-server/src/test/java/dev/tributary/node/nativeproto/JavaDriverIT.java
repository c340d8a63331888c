package dev.tributary.node.nativeproto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.SyntaxError;
import dev.tributary.generations.Murmur3Partitioner;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Apache Cassandra Java driver 4, unchanged, against one real node's CQL native port: it
 * negotiates v4, reads the topology and the schema, runs statements, prepared statements, batches
 * and pages, and sees the errors with their CQL codes and the gRPC API's messages.
 */
@Timeout(180)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JavaDriverIT {
    @TempDir
    static Path dir;
    private TributaryNode node;
    private CqlSession session;

    static CqlSession connect(String nativeEndpoint) {
        int colon = nativeEndpoint.lastIndexOf(':');
        return CqlSession.builder()
                .addContactPoint(new InetSocketAddress(nativeEndpoint.substring(0, colon),
                        Integer.parseInt(nativeEndpoint.substring(colon + 1))))
                .withLocalDatacenter("datacenter1")
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(30))
                        .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                        .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(10))
                        .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(30))
                        .build())
                .build();
    }

    @BeforeAll
    void start() {
        node = TestNodes.startOperating(dir.resolve("n1"));
        session = connect(node.nativeEndpoint());
    }

    @AfterAll
    void stop() {
        if (session != null) {
            session.close();
        }
        if (node != null) {
            node.close();
        }
    }

    @Test
    @DisplayName("the driver connects (falling back from v5 to v4) and reads system.local as Cassandra 3.0.8")
    void connects() {
        assertEquals(4, session.getContext().getProtocolVersion().getCode());
        Row local = session.execute("SELECT release_version, cql_version, partitioner, host_id, tributary_version "
                + "FROM system.local").one();
        assertNotNull(local);
        assertEquals("3.0.8", local.getString("release_version"));
        assertEquals("3.4.4", local.getString("cql_version"));
        assertTrue(local.getString("partitioner").endsWith("Murmur3Partitioner"));
        assertEquals(node.hostId(), local.getUuid("host_id"));
        assertEquals(dev.tributary.node.exec.SystemTables.TRIBUTARY_VERSION, local.getString("tributary_version"));
        assertEquals(1, session.getMetadata().getNodes().size());
        assertEquals(node.hostId(), session.getMetadata().getNodes().values().iterator().next().getHostId());
        assertTrue(session.getMetadata().getTokenMap().isPresent(), "the driver built a token map from tokens and partitioner");
    }

    @Test
    @DisplayName("DDL returns schema changes, the driver's schema metadata shows the table, its key and its cdc extension")
    void schemaMetadata() {
        session.execute("CREATE KEYSPACE meta WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE meta.t (pk int, ck text, v bigint, s set<text>, PRIMARY KEY (pk, ck)) "
                + "WITH cdc = {'enabled': true}");
        assertTrue(session.checkSchemaAgreement(), "one node, one schema version");
        TableMetadata t = session.getMetadata().getKeyspace("meta").orElseThrow().getTable("t").orElseThrow();
        assertEquals(List.of("pk"), t.getPartitionKey().stream().map(c -> c.getName().asInternal()).toList());
        assertEquals(List.of("ck"), t.getClusteringColumns().keySet().stream().map(c -> c.getName().asInternal()).toList());
        assertEquals("SET<TEXT>", t.getColumn("s").orElseThrow().getType().asCql(true, true).toUpperCase());
        Row table = session.execute("SELECT id, flags, extensions FROM system_schema.tables WHERE keyspace_name = 'meta' "
                + "AND table_name = 't'").one();
        assertEquals(t.getId().orElseThrow(), table.getUuid("id"));
        ByteBuffer cdc = table.getMap("extensions", String.class, ByteBuffer.class).get("cdc");
        assertNotNull(cdc, "the cdc options in extensions, as ScyllaDB keeps them");
        // ScyllaDB's encoding: little-endian count, then length-prefixed keys and values
        ByteBuffer le = cdc.duplicate().order(java.nio.ByteOrder.LITTLE_ENDIAN);
        java.util.Map<String, String> cdcOptions = new java.util.HashMap<>();
        for (int n = le.getInt(), i = 0; i < n; i++) {
            byte[] k = new byte[le.getInt()];
            le.get(k);
            byte[] v = new byte[le.getInt()];
            le.get(v);
            cdcOptions.put(new String(k, java.nio.charset.StandardCharsets.UTF_8), new String(v, java.nio.charset.StandardCharsets.UTF_8));
        }
        assertEquals("true", cdcOptions.get("enabled"));
        // the log table is in the schema too, as consumers read it with its own metadata
        TableMetadata log = session.getMetadata().getKeyspace("meta").orElseThrow().getTable("t_scylla_cdc_log").orElseThrow();
        assertEquals("cdc$stream_id", log.getPartitionKey().get(0).getName().asInternal());
        // (the driver leaves system keyspaces out of its metadata by default; scylla-cdc-java's driver does not)
        assertNotNull(session.execute("SELECT id FROM system_schema.tables WHERE keyspace_name = 'system_distributed' "
                + "AND table_name = 'cdc_generation_timestamps'").one(), "system tables are described too");
        session.execute("ALTER TABLE meta.t ADD w text");
        assertTrue(session.getMetadata().getKeyspace("meta").orElseThrow().getTable("t").orElseThrow().getColumn("w")
                .isPresent(), "the ALTER's schema change refreshed the metadata");
    }

    @Test
    @DisplayName("statements with positional and named values, prepared statements, USE, every consistency level")
    void statements() {
        session.execute("CREATE KEYSPACE IF NOT EXISTS st WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE st.kv (k text PRIMARY KEY, v int, at timestamp, tags list<text>)");
        session.execute(SimpleStatement.newInstance("INSERT INTO st.kv (k, v) VALUES (?, ?)", "a", 1));
        // named values: each names the column its marker binds, in any order
        session.execute(SimpleStatement.builder("INSERT INTO st.kv (k, v) VALUES (?, ?)").addNamedValue("v", 2)
                .addNamedValue("k", "b").build());
        PreparedStatement insert = session.prepare("INSERT INTO st.kv (k, v, at, tags) VALUES (?, ?, ?, ?)");
        assertEquals(List.of(0), insert.getPartitionKeyIndices(), "the key's marker, for token-aware routing");
        Instant at = Instant.parse("2026-12-03T10:15:30.123Z");
        for (ConsistencyLevel cl : List.of(ConsistencyLevel.ONE, ConsistencyLevel.QUORUM, ConsistencyLevel.ALL,
                ConsistencyLevel.LOCAL_QUORUM, ConsistencyLevel.EACH_QUORUM, ConsistencyLevel.ANY, ConsistencyLevel.LOCAL_ONE)) {
            session.execute(insert.bind("cl-" + cl.name(), 3, at, List.of("x", "y")).setConsistencyLevel(cl));
        }
        PreparedStatement select = session.prepare("SELECT k, v, at, tags FROM st.kv WHERE k = ?");
        Row r = session.execute(select.bind("cl-QUORUM")).one();
        assertNotNull(r);
        assertEquals(3, r.getInt("v"));
        assertEquals(at, r.getInstant("at"));
        assertEquals(List.of("x", "y"), r.getList("tags", String.class));
        assertEquals("st", r.getColumnDefinitions().get(0).getKeyspace().asInternal(), "rows metadata names the keyspace");
        assertEquals("kv", r.getColumnDefinitions().get(0).getTable().asInternal(), "and the table");
        assertEquals(2, session.execute("SELECT v FROM st.kv WHERE k = 'b'").one().getInt(0));
        try (CqlSession ks = CqlSession.builder().addContactPoint(contact()).withLocalDatacenter("datacenter1")
                .withKeyspace("st").build()) {
            assertEquals(1, ks.execute("SELECT v FROM kv WHERE k = 'a'").one().getInt(0), "USE through withKeyspace");
        }
    }

    @Test
    @DisplayName("paging over thousands of rows: every row once, in pages of the requested size")
    void paging() {
        session.execute("CREATE KEYSPACE IF NOT EXISTS pg WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE pg.t (pk int, ck int, v text, PRIMARY KEY (pk, ck))");
        PreparedStatement insert = session.prepare("INSERT INTO pg.t (pk, ck, v) VALUES (?, ?, ?)");
        int rows = 3000;
        for (int first = 0; first < rows; first += 100) {
            BatchStatement b = BatchStatement.newInstance(DefaultBatchType.UNLOGGED);
            for (int i = first; i < first + 100; i++) {
                b = b.add(insert.bind(i % 37, i, "v" + i));
            }
            session.execute(b);
        }
        ResultSet rs = session.execute(SimpleStatement.newInstance("SELECT ck FROM pg.t").setPageSize(250));
        assertEquals(250, rs.getAvailableWithoutFetching(), "the first page");
        Set<Integer> seen = new HashSet<>();
        int count = 0;
        for (Row r : rs) {
            seen.add(r.getInt(0));
            count++;
        }
        assertEquals(rows, count, "every row once");
        assertEquals(rows, seen.size());
        assertTrue(rs.isFullyFetched());
    }

    @Test
    @DisplayName("a batch of prepared and simple statements is one transaction")
    void batches() {
        session.execute("CREATE KEYSPACE IF NOT EXISTS bt WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE bt.t (k int PRIMARY KEY, v text)");
        PreparedStatement insert = session.prepare("INSERT INTO bt.t (k, v) VALUES (?, ?)");
        BatchStatement b = BatchStatement.newInstance(DefaultBatchType.LOGGED, insert.bind(1, "one"), insert.bind(2, "two"),
                SimpleStatement.newInstance("INSERT INTO bt.t (k, v) VALUES (3, 'three')"));
        session.execute(b);
        List<String> values = new ArrayList<>();
        session.execute("SELECT v FROM bt.t").forEach(r -> values.add(r.getString(0)));
        assertEquals(Set.of("one", "two", "three"), new HashSet<>(values));
    }

    @Test
    @DisplayName("errors: syntax -> SyntaxError, unknown table and bad values -> InvalidQueryException, with the gRPC API's messages; the node stays up")
    void errors() {
        SyntaxError syntax = assertThrows(SyntaxError.class, () -> session.execute("SELEKT * FROM system.local"));
        assertFalse(syntax.getMessage().isEmpty());
        InvalidQueryException unknown = assertThrows(InvalidQueryException.class,
                () -> session.execute("SELECT * FROM nosuchks.nosuchtable"));
        assertTrue(unknown.getMessage().contains("nosuchks"), unknown.getMessage());
        try (TestNodes.Wire w = new TestNodes.Wire(node)) {
            io.grpc.StatusRuntimeException grpc = assertThrows(io.grpc.StatusRuntimeException.class,
                    () -> w.exec("SELECT * FROM nosuchks.nosuchtable"));
            assertEquals(grpc.getStatus().getDescription(), unknown.getMessage(), "the same message on both fronts");
        }
        assertEquals("3.0.8", session.execute("SELECT release_version FROM system.local").one().getString(0));
    }

    @Test
    @DisplayName("CDC-GEN-3 CDC-GEN-5: the Scylla walkthrough through the driver: generation timestamps, a CDC table, its log row in the stream of token(pk)'s vnode")
    void scyllaCdcWalkthrough() {
        session.execute("CREATE KEYSPACE IF NOT EXISTS cdcks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE cdcks.t (pk int, ck int, v text, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");
        Instant generation = session.execute("SELECT time FROM system_distributed.cdc_generation_timestamps "
                + "WHERE key = 'timestamps'").one().getInstant(0);
        assertNotNull(generation);
        session.execute(SimpleStatement.newInstance("INSERT INTO cdcks.t (pk, ck, v) VALUES (?, ?, ?)", 42, 1, "hello"));
        long token = Murmur3Partitioner.token(ByteBuffer.allocate(4).putInt(42).array());
        TestNodes.await(() -> session.execute("SELECT * FROM cdcks.t_scylla_cdc_log").one() != null, Duration.ofSeconds(20),
                "the CDC log row");
        Row log = session.execute("SELECT \"cdc$stream_id\", \"cdc$operation\", pk, ck, v FROM cdcks.t_scylla_cdc_log").one();
        assertEquals(42, log.getInt("pk"));
        assertEquals("hello", log.getString("v"));
        assertEquals(2, log.getByte("cdc$operation"), "an INSERT delta");
        ByteBuffer stream = log.getByteBuffer("cdc$stream_id");
        // the stream is the one of the vnode holding token(pk) in the generation's streams
        long rangeEnd = Long.MAX_VALUE;
        ByteBuffer expected = null;
        long smallest = Long.MAX_VALUE;
        ByteBuffer first = null;
        for (Row r : session.execute(SimpleStatement.newInstance("SELECT range_end, streams FROM "
                + "system_distributed.cdc_streams_descriptions_v2 WHERE time = ?", generation))) {
            long end = r.getLong(0);
            ByteBuffer s = r.getSet(1, ByteBuffer.class).iterator().next();
            if (end >= token && end <= rangeEnd) {
                rangeEnd = end;
                expected = s;
            }
            if (end < smallest) {
                smallest = end;
                first = s;
            }
        }
        assertEquals(expected == null ? first : expected, stream, "the stream of token(pk)'s vnode");
    }

    private InetSocketAddress contact() {
        String ep = node.nativeEndpoint();
        return new InetSocketAddress("127.0.0.1", Integer.parseInt(ep.substring(ep.lastIndexOf(':') + 1)));
    }
}
