package dev.tributary.node.exec;

import dev.tributary.capture.lcr.LcrColumn;
import dev.tributary.capture.lcr.RowLcr;
import dev.tributary.capture.log.LogRecord;
import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.dictionary.schema.ColumnDef;
import dev.tributary.dictionary.schema.KeyspaceDef;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.dictionary.types.Blob;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.generations.Generation;
import dev.tributary.generations.GenerationHistory;
import dev.tributary.generations.StreamId;
import dev.tributary.generations.VnodeStreams;
import dev.tributary.node.capture.RocksDbCdcLog;
import java.net.InetAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The tables every node serves (INTERFACE.md section 4): {@code system.local}/{@code peers},
 * {@code system_distributed.cdc_generation_timestamps}/{@code cdc_streams_descriptions_v2},
 * {@code system_schema.keyspaces}/{@code tables}/{@code columns}, and each CDC table's
 * {@code <table>_scylla_cdc_log}.
 */
public final class SystemTables {
    public static final String CDC_LOG_SUFFIX = "_scylla_cdc_log";
    private static final CqlType TEXT = CqlType.of(CqlType.Kind.TEXT);
    private static final CqlType UUID_T = CqlType.of(CqlType.Kind.UUID);
    private static final CqlType INET = CqlType.of(CqlType.Kind.INET);
    private static final CqlType TIMESTAMP = CqlType.of(CqlType.Kind.TIMESTAMP);
    private static final CqlType BIGINT = CqlType.of(CqlType.Kind.BIGINT);
    private static final CqlType INT = CqlType.of(CqlType.Kind.INT);
    private static final CqlType BLOB = CqlType.of(CqlType.Kind.BLOB);
    private static final CqlType BOOLEAN = CqlType.of(CqlType.Kind.BOOLEAN);
    private static final CqlType TINYINT = CqlType.of(CqlType.Kind.TINYINT);
    private static final CqlType TIMEUUID = CqlType.of(CqlType.Kind.TIMEUUID);
    private static final CqlType TEXT_SET = new CqlType.SetType(TEXT, false);
    private static final CqlType TEXT_MAP = new CqlType.MapType(TEXT, TEXT, false);
    public static final String RELEASE_VERSION = "0.1.0";

    /** A member of the cluster as the system tables show it. */
    /** @param state JOINING, NORMAL or DOWN */
    public record Peer(UUID hostId, String endpoint, List<Long> tokens, boolean self, String state) {
    }

    private final MultiversionDictionary dictionary;
    private final RocksDbCdcLog cdcLog;
    private final Supplier<GenerationHistory> generations;
    private final Supplier<List<Peer>> peers;
    private final String clusterName;
    private final Map<String, TableSource> fixed = new HashMap<>();
    private final dev.tributary.node.capture.CaptureProcesses captures;
    private final java.util.function.LongFunction<java.util.Optional<dev.tributary.generations.TabletStreamHistory>> tablets;
    private final java.util.function.LongFunction<java.util.Optional<dev.tributary.generations.TabletMap>> tabletMaps;

    public SystemTables(MultiversionDictionary dictionary, RocksDbCdcLog cdcLog, Supplier<GenerationHistory> generations,
            Supplier<List<Peer>> peers, String clusterName, dev.tributary.node.capture.CaptureProcesses captures,
            dev.tributary.node.capture.RedoSegments segments,
            java.util.function.LongFunction<java.util.Optional<dev.tributary.generations.TabletStreamHistory>> tablets,
            java.util.function.LongFunction<java.util.Optional<dev.tributary.generations.TabletMap>> tabletMaps,
            Supplier<List<dev.tributary.node.coord.ConsumerGroups.GroupState>> groups,
            java.util.function.LongSupplier forwardedWrites) {
        this.tablets = tablets;
        this.tabletMaps = tabletMaps;
        this.captures = captures;
        this.dictionary = dictionary;
        this.cdcLog = cdcLog;
        this.generations = generations;
        this.peers = peers;
        this.clusterName = clusterName;
        register(new StaticTable("system", "local", cols("key", TEXT, "host_id", UUID_T, "rpc_address", INET, "rpc_port", INT,
                "state", TEXT, "tokens", TEXT_SET,
                "cluster_name", TEXT, "release_version", TEXT, "data_center", TEXT, "rack", TEXT, "partitioner", TEXT),
                List.of("key"), List.of(), () -> peerRows(true)));
        register(new StaticTable("system", "peers", cols("peer", INET, "host_id", UUID_T, "rpc_address", INET, "rpc_port", INT,
                "state", TEXT, "tokens", TEXT_SET,
                "cluster_name", TEXT, "release_version", TEXT, "data_center", TEXT, "rack", TEXT), List.of("peer"), List.of(),
                () -> peerRows(false)));
        register(new StaticTable("system_distributed", "cdc_generation_timestamps", cols("key", TEXT, "time", TIMESTAMP,
                "expired", TIMESTAMP), List.of("key"), List.of("time"), this::generationTimestamps));
        register(new StaticTable("system_distributed", "cdc_streams_descriptions_v2", cols("time", TIMESTAMP, "range_end", BIGINT,
                "streams", new CqlType.SetType(BLOB, true)), List.of("time"), List.of("range_end"), this::streamDescriptions));
        register(new StaticTable("system", "cdc_timestamps", cols("keyspace_name", TEXT, "table_name", TEXT, "timestamp", TIMESTAMP),
                List.of("keyspace_name", "table_name"), List.of("timestamp"), this::tabletTimestamps));
        register(new StaticTable("system", "cdc_streams", cols("keyspace_name", TEXT, "table_name", TEXT, "timestamp", TIMESTAMP,
                "stream_state", CqlType.of(CqlType.Kind.TINYINT), "stream_id", BLOB), List.of("keyspace_name", "table_name"),
                List.of("timestamp", "stream_state", "stream_id"), this::tabletStreams));
        register(new StaticTable("system", "tablets", cols("keyspace_name", TEXT, "table_name", TEXT, "last_token", BIGINT,
                "tablet_count", INT, "replica", UUID_T), List.of("keyspace_name", "table_name"), List.of("last_token"),
                this::tabletRows));
        register(new StaticTable("system_schema", "keyspaces", cols("keyspace_name", TEXT, "durable_writes", BOOLEAN,
                "replication", TEXT_MAP), List.of("keyspace_name"), List.of(), this::keyspaceRows));
        register(new StaticTable("system_schema", "tables", cols("keyspace_name", TEXT, "table_name", TEXT, "id", BIGINT,
                "cdc", TEXT_MAP), List.of("keyspace_name"), List.of("table_name"), this::tableRows));
        register(new StaticTable("system_schema", "columns", cols("keyspace_name", TEXT, "table_name", TEXT, "column_name", TEXT,
                "clustering_order", TEXT, "column_name_bytes", BLOB, "kind", TEXT, "position", INT, "type", TEXT),
                List.of("keyspace_name"), List.of("table_name", "column_name"), this::columnRows));
        // how often this node had to send a write on to its owner: what a token-aware client saves
        register(new StaticTable("system_views", "request_routing", cols("host_id", UUID_T, "forwarded_writes", BIGINT),
                List.of("host_id"), List.of(), () -> {
                    Map<String, Object> v = new LinkedHashMap<>();
                    v.put("host_id", peers.get().stream().filter(Peer::self).findFirst().map(Peer::hostId).orElse(null));
                    v.put("forwarded_writes", forwardedWrites.getAsLong());
                    return List.of(row(v, 0));
                }));
        CaptureViews views = new CaptureViews(captures, segments, groups);
        for (TableSource v : views.tables()) {
            register(v);
        }
    }

    private void register(TableSource t) {
        fixed.put(t.keyspace() + "." + t.name(), t);
    }

    /** A virtual table by name, if there is one: a fixed system table or a CDC log. */
    public Optional<TableSource> find(String keyspace, String name) {
        TableSource t = fixed.get(keyspace + "." + name);
        if (t != null) {
            return Optional.of(t);
        }
        if (keyspace.equals("system_queues")) {
            Long id = captures.queueId(name);
            if (id != null) {
                return Optional.of(CaptureViews.queueTable(captures.queueName(name).orElse(name), id, cdcLog));
            }
        }
        if (name.endsWith(CDC_LOG_SUFFIX)) {
            String base = name.substring(0, name.length() - CDC_LOG_SUFFIX.length());
            Optional<TableDef> def = dictionary.latest().table(keyspace, base);
            if (def.isPresent() && def.get().options().cdc().enabled()) {
                return Optional.of(cdcLogTable(def.get()));
            }
        }
        return Optional.empty();
    }

    public boolean isSystemKeyspace(String ks) {
        return SchemaService.SYSTEM_KEYSPACES.contains(ks);
    }

    static List<ResultColumn> cols(Object... nameTypes) {
        List<ResultColumn> out = new ArrayList<>();
        for (int i = 0; i < nameTypes.length; i += 2) {
            out.add(new ResultColumn((String) nameTypes[i], (CqlType) nameTypes[i + 1]));
        }
        return out;
    }

    static RowView row(Map<String, Object> values, long token) {
        return new RowView(values, Map.of(), Map.of(), token);
    }

    private List<RowView> peerRows(boolean local) {
        List<RowView> out = new ArrayList<>();
        for (Peer p : peers.get()) {
            if (p.self() != local) {
                continue;
            }
            Map<String, Object> v = new LinkedHashMap<>();
            InetAddress addr = address(p.endpoint());
            if (local) {
                v.put("key", "local");
            } else {
                v.put("peer", addr);
            }
            v.put("host_id", p.hostId());
            v.put("rpc_address", addr);
            v.put("rpc_port", Integer.parseInt(p.endpoint().substring(p.endpoint().lastIndexOf(':') + 1)));
            v.put("state", p.state());
            Set<Object> tokens = new LinkedHashSet<>();
            for (long t : p.tokens()) {
                tokens.add(Long.toString(t));
            }
            v.put("tokens", dev.tributary.dictionary.types.Values.normalize(TEXT_SET, tokens));
            v.put("cluster_name", clusterName);
            v.put("release_version", RELEASE_VERSION);
            v.put("data_center", "datacenter1");
            v.put("rack", "rack1");
            if (local) {
                v.put("partitioner", "org.apache.cassandra.dht.Murmur3Partitioner");
            }
            out.add(row(v, 0));
        }
        return out;
    }

    private static InetAddress address(String endpoint) {
        String host = endpoint.isEmpty() ? "127.0.0.1" : endpoint.substring(0, endpoint.lastIndexOf(':'));
        try {
            return InetAddress.getByName(host);
        } catch (java.net.UnknownHostException e) {
            return InetAddress.getLoopbackAddress();
        }
    }

    private List<RowView> generationTimestamps() {
        List<RowView> out = new ArrayList<>();
        for (Generation g : generations.get().newestFirst()) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("key", "timestamps");
            v.put("time", Instant.ofEpochMilli(g.timestampMillis()));
            v.put("expired", null);
            out.add(row(v, 0));
        }
        return out;
    }

    /** system.cdc_timestamps: each tablet table's stream set timestamps, newest first. */
    private List<RowView> tabletTimestamps() {
        List<RowView> out = new ArrayList<>();
        for (TableDef t : dictionary.latest().tables()) {
            tablets.apply(t.objectNumber()).ifPresent(h -> {
                for (long ts : h.timestampsNewestFirst()) {
                    Map<String, Object> v = new LinkedHashMap<>();
                    v.put("keyspace_name", t.keyspace());
                    v.put("table_name", t.name());
                    v.put("timestamp", Instant.ofEpochMilli(ts));
                    out.add(row(v, 0));
                }
            });
        }
        return out;
    }

    /** system.tablets: each tablet of each tablet table, by its last token, with its replica node. */
    private List<RowView> tabletRows() {
        List<RowView> out = new ArrayList<>();
        for (TableDef t : dictionary.latest().tables()) {
            tabletMaps.apply(t.objectNumber()).ifPresent(m -> {
                for (int i = 0; i < m.tabletCount(); i++) {
                    Map<String, Object> v = new LinkedHashMap<>();
                    v.put("keyspace_name", t.keyspace());
                    v.put("table_name", t.name());
                    v.put("last_token", m.lastToken(i));
                    v.put("tablet_count", m.tabletCount());
                    v.put("replica", java.util.UUID.fromString(m.replica(i)));
                    out.add(row(v, 0));
                }
            });
        }
        return out;
    }

    /** system.cdc_streams: per stream set, its current (0), closed (1) and opened (2) streams. */
    private List<RowView> tabletStreams() {
        List<RowView> out = new ArrayList<>();
        for (TableDef t : dictionary.latest().tables()) {
            tablets.apply(t.objectNumber()).ifPresent(h -> {
                for (dev.tributary.generations.StreamStateRow r : h.rows()) {
                    Map<String, Object> v = new LinkedHashMap<>();
                    v.put("keyspace_name", t.keyspace());
                    v.put("table_name", t.name());
                    v.put("timestamp", Instant.ofEpochMilli(r.timestampMillis()));
                    v.put("stream_state", (byte) r.state().code());
                    v.put("stream_id", dev.tributary.dictionary.types.Blob.of(r.streamId().toBytes()));
                    out.add(row(v, 0));
                }
            });
        }
        return out;
    }

    private List<RowView> streamDescriptions() {
        List<RowView> out = new ArrayList<>();
        for (Generation g : generations.get().newestFirst()) {
            for (VnodeStreams vs : g.vnodes()) {
                Map<String, Object> v = new LinkedHashMap<>();
                v.put("time", Instant.ofEpochMilli(g.timestampMillis()));
                v.put("range_end", vs.rangeEnd());
                Set<Object> streams = new LinkedHashSet<>();
                for (StreamId s : vs.streams()) {
                    streams.add(Blob.of(s.toBytes()));
                }
                v.put("streams", dev.tributary.dictionary.types.Values.normalize(new CqlType.SetType(BLOB, true), streams));
                out.add(row(v, 0));
            }
        }
        return out;
    }

    private List<RowView> keyspaceRows() {
        List<RowView> out = new ArrayList<>();
        for (KeyspaceDef k : dictionary.latest().keyspaces()) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("keyspace_name", k.name());
            v.put("durable_writes", true);
            v.put("replication", dev.tributary.dictionary.types.Values.normalize(TEXT_MAP, new LinkedHashMap<Object, Object>(k.replication())));
            out.add(row(v, 0));
        }
        return out;
    }

    private List<RowView> tableRows() {
        List<RowView> out = new ArrayList<>();
        for (TableDef t : dictionary.latest().tables()) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("keyspace_name", t.keyspace());
            v.put("table_name", t.name());
            v.put("id", t.objectNumber());
            v.put("cdc", t.options().cdc().enabled()
                    ? dev.tributary.dictionary.types.Values.normalize(TEXT_MAP, new LinkedHashMap<Object, Object>(t.options().cdc().toOptions()))
                    : null);
            out.add(row(v, 0));
        }
        return out;
    }

    private List<RowView> columnRows() {
        List<RowView> out = new ArrayList<>();
        for (TableDef t : dictionary.latest().tables()) {
            for (ColumnDef c : t.columns()) {
                Map<String, Object> v = new LinkedHashMap<>();
                v.put("keyspace_name", t.keyspace());
                v.put("table_name", t.name());
                v.put("column_name", c.name());
                v.put("clustering_order", c.kind() == dev.tributary.dictionary.schema.ColumnKind.CLUSTERING
                        ? c.order().name().toLowerCase() : "none");
                v.put("column_name_bytes", Blob.of(c.name().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
                v.put("kind", c.kind().name().toLowerCase());
                v.put("position", c.keyPosition());
                v.put("type", c.type().cql());
                out.add(row(v, 0));
            }
        }
        return out;
    }

    /** The ScyllaDB-format view of a table's CDC log: row LCRs as preimage, delta and postimage rows. */
    TableSource cdcLogTable(TableDef base) {
        List<ResultColumn> columns = new ArrayList<>(cols("cdc$stream_id", BLOB, "cdc$time", TIMEUUID, "cdc$batch_seq_no", INT,
                "cdc$end_of_batch", BOOLEAN, "cdc$operation", TINYINT, "cdc$ttl", BIGINT));
        for (ColumnDef c : base.columns()) {
            columns.add(new ResultColumn(c.name(), c.type()));
        }
        columns.addAll(cols("lcr$scn", BIGINT, "lcr$command_type", TEXT, "lcr$transaction_id", TEXT, "lcr$tag", BLOB));
        long logId = base.objectNumber();
        return new LogTable(base.keyspace(), base.name() + CDC_LOG_SUFFIX, columns, () -> {
            Iterator<LogRecord> records = cdcLog.iterate(logId, false);
            return new Iterator<>() {
                private LogRecord next;

                @Override
                public boolean hasNext() {
                    while (next == null && records.hasNext()) {
                        LogRecord r = records.next();
                        if (r.operation() != null) {
                            next = r; // DDL LCRs are not rows of the ScyllaDB-format log table
                        }
                    }
                    return next != null;
                }

                @Override
                public RowView next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    LogRecord r = next;
                    next = null;
                    return logRow(base, r);
                }
            };
        });
    }

    private static RowView logRow(TableDef base, LogRecord r) {
        Map<String, Object> v = new LinkedHashMap<>();
        StreamId stream = r.position().stream();
        v.put("cdc$stream_id", Blob.of(stream.toBytes()));
        v.put("cdc$time", r.position().time());
        v.put("cdc$batch_seq_no", r.position().batchSeqNo());
        v.put("cdc$end_of_batch", r.endOfBatch());
        v.put("cdc$operation", (byte) r.operation().code());
        v.put("cdc$ttl", r.ttlSeconds() == 0 ? null : r.ttlSeconds());
        RowLcr lcr = (RowLcr) r.lcr();
        List<LcrColumn> values;
        if (r.image() != null) {
            values = r.image();
        } else if (lcr.newValues() != null) {
            values = lcr.newValues();
        } else {
            values = new ArrayList<>();
            for (ColumnDef k : base.primaryKeyColumns()) {
                LcrColumn c = RowLcr.find(lcr.oldValues(), k.name());
                if (c != null) {
                    values.add(c);
                }
            }
        }
        for (ColumnDef c : base.columns()) {
            LcrColumn lc = RowLcr.find(values, c.name());
            if (lc != null && lc.type().equals(c.type())) {
                v.put(c.name(), lc.value());
            }
        }
        v.put("lcr$scn", lcr.scn());
        v.put("lcr$command_type", lcr.commandType());
        v.put("lcr$transaction_id", lcr.transactionId());
        v.put("lcr$tag", lcr.tag() == null ? null : Blob.of(lcr.tag()));
        return new RowView(v, Map.of(), Map.of(), stream.token());
    }

}
