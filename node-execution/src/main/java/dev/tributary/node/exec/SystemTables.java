package dev.tributary.node.exec;

import com.google.common.collect.Iterators;
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
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The tables every node serves (docs/REFERENCE.md): {@code system.local}/{@code peers},
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
    private static final CqlType DOUBLE = CqlType.of(CqlType.Kind.DOUBLE);
    private static final CqlType FROZEN_TEXT_MAP = new CqlType.MapType(TEXT, TEXT, true);
    private static final CqlType FROZEN_TEXT_SET = new CqlType.SetType(TEXT, true);
    private static final CqlType FROZEN_TEXT_LIST = new CqlType.ListType(TEXT, true);
    private static final CqlType FROZEN_BLOB_MAP = new CqlType.MapType(TEXT, BLOB, true);
    /** Tributary's own version, in {@code tributary version} and the {@code tributary_version} column. */
    public static final String TRIBUTARY_VERSION = "0.1.0";
    /**
     * The Cassandra release the drivers are told, as ScyllaDB reports it: drivers pick their
     * schema queries (system_schema, Cassandra 3.0's shape) and protocol handling from it.
     */
    public static final String RELEASE_VERSION = "3.0.8";
    /** The CQL version of Cassandra 3.0, the language level drivers assume with {@link #RELEASE_VERSION}. */
    public static final String CQL_VERSION = "3.4.4";
    private static final String PARTITIONER = "org.apache.cassandra.dht.Murmur3Partitioner";
    private static final String STRATEGY_PACKAGE = "org.apache.cassandra.locator.";

    /**
     * A member of the cluster as the system tables show it.
     *
     * @param state JOINING, NORMAL or DOWN
     * @param nativeEndpoint its CQL native protocol endpoint, empty when it serves none
     */
    public record Peer(UUID hostId, String endpoint, List<Long> tokens, boolean self, String state, String nativeEndpoint) {
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
            java.util.function.LongSupplier forwardedWrites, java.util.function.LongSupplier forwardedReads,
            Supplier<List<dev.tributary.node.transport.ReceivedLogs.Received>> receivedLogs,
            Supplier<List<dev.tributary.node.auth.Role>> roles, java.util.function.LongSupplier load,
            Supplier<java.util.Collection<dev.tributary.node.coord.TransportSettings.Link>> links) {
        this.tablets = tablets;
        this.tabletMaps = tabletMaps;
        this.captures = captures;
        this.dictionary = dictionary;
        this.cdcLog = cdcLog;
        this.generations = generations;
        this.peers = peers;
        this.clusterName = clusterName;
        // the columns the Java driver 4 and the Python driver read (their topology monitors), with
        // rpc_port the native port: the Python driver takes rpc_port first, the Java driver
        // native_port; gRPC clients (the SDK) read grpc_port
        register(new StaticTable("system", "local", cols("key", TEXT, "bootstrapped", TEXT, "broadcast_address", INET,
                "cluster_name", TEXT, "cql_version", TEXT, "data_center", TEXT, "host_id", UUID_T, "listen_address", INET,
                "native_protocol_version", TEXT, "partitioner", TEXT, "rack", TEXT, "release_version", TEXT,
                "rpc_address", INET, "rpc_port", INT, "native_port", INT, "grpc_port", INT, "schema_version", UUID_T,
                "state", TEXT, "tokens", TEXT_SET, "tributary_version", TEXT),
                List.of("key"), List.of(), () -> peerRows(true)));
        register(new StaticTable("system", "peers", cols("peer", INET, "data_center", TEXT, "host_id", UUID_T,
                "preferred_ip", INET, "rack", TEXT, "release_version", TEXT, "rpc_address", INET, "rpc_port", INT,
                "native_port", INT, "grpc_port", INT, "schema_version", UUID_T, "state", TEXT, "tokens", TEXT_SET,
                "cluster_name", TEXT, "tributary_version", TEXT), List.of("peer"), List.of(), () -> peerRows(false)));
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
        // the nine schema tables in Cassandra 3.0's shape, as drivers' schema parsers read them
        register(new StaticTable("system_schema", "keyspaces", cols("keyspace_name", TEXT, "durable_writes", BOOLEAN,
                "replication", FROZEN_TEXT_MAP), List.of("keyspace_name"), List.of(), this::keyspaceRows));
        register(new StaticTable("system_schema", "tables", cols("keyspace_name", TEXT, "table_name", TEXT,
                "bloom_filter_fp_chance", DOUBLE, "caching", FROZEN_TEXT_MAP, "cdc", BOOLEAN, "cdc_options", TEXT_MAP,
                "comment", TEXT,
                "compaction", FROZEN_TEXT_MAP, "compression", FROZEN_TEXT_MAP, "crc_check_chance", DOUBLE,
                "dclocal_read_repair_chance", DOUBLE, "default_time_to_live", INT, "extensions", FROZEN_BLOB_MAP,
                "flags", FROZEN_TEXT_SET, "gc_grace_seconds", INT, "id", UUID_T, "max_index_interval", INT,
                "memtable_flush_period_in_ms", INT, "min_index_interval", INT, "read_repair_chance", DOUBLE,
                "speculative_retry", TEXT), List.of("keyspace_name"), List.of("table_name"), this::tableRows));
        register(new StaticTable("system_schema", "columns", cols("keyspace_name", TEXT, "table_name", TEXT, "column_name", TEXT,
                "clustering_order", TEXT, "column_name_bytes", BLOB, "kind", TEXT, "position", INT, "type", TEXT),
                List.of("keyspace_name"), List.of("table_name", "column_name"), this::columnRows));
        // ScyllaDB's own keyspace table: drivers (and scylla-cdc-java) tell tablet keyspaces by a non-null initial_tablets
        register(new StaticTable("system_schema", "scylla_keyspaces", cols("keyspace_name", TEXT, "initial_tablets", INT,
                "storage_options", FROZEN_TEXT_MAP, "storage_type", TEXT), List.of("keyspace_name"), List.of(), () -> {
                    List<RowView> out = new ArrayList<>();
                    for (KeyspaceDef k : dictionary.latest().keyspaces()) {
                        Map<String, Object> v = new LinkedHashMap<>();
                        v.put("keyspace_name", k.name());
                        v.put("initial_tablets", k.tabletsEnabled() ? 0 : null);
                        v.put("storage_options", null);
                        v.put("storage_type", "LOCAL");
                        out.add(row(v, 0));
                    }
                    return out;
                }));
        register(new StaticTable("system_schema", "types", cols("keyspace_name", TEXT, "type_name", TEXT,
                "field_names", FROZEN_TEXT_LIST, "field_types", FROZEN_TEXT_LIST), List.of("keyspace_name"), List.of("type_name"),
                this::typeRows));
        // Tributary has no functions, aggregates, indexes, views or triggers: the tables exist, empty
        register(new StaticTable("system_schema", "functions", cols("keyspace_name", TEXT, "function_name", TEXT,
                "argument_types", FROZEN_TEXT_LIST, "argument_names", FROZEN_TEXT_LIST, "body", TEXT,
                "called_on_null_input", BOOLEAN, "language", TEXT, "return_type", TEXT), List.of("keyspace_name"),
                List.of("function_name", "argument_types"), List::of));
        register(new StaticTable("system_schema", "aggregates", cols("keyspace_name", TEXT, "aggregate_name", TEXT,
                "argument_types", FROZEN_TEXT_LIST, "final_func", TEXT, "initcond", TEXT, "return_type", TEXT,
                "state_func", TEXT, "state_type", TEXT), List.of("keyspace_name"), List.of("aggregate_name", "argument_types"),
                List::of));
        register(new StaticTable("system_schema", "indexes", cols("keyspace_name", TEXT, "table_name", TEXT, "index_name", TEXT,
                "kind", TEXT, "options", FROZEN_TEXT_MAP), List.of("keyspace_name"), List.of("table_name", "index_name"), List::of));
        register(new StaticTable("system_schema", "views", cols("keyspace_name", TEXT, "view_name", TEXT,
                "base_table_id", UUID_T, "base_table_name", TEXT, "id", UUID_T, "include_all_columns", BOOLEAN,
                "where_clause", TEXT), List.of("keyspace_name"), List.of("view_name"), List::of));
        register(new StaticTable("system_schema", "triggers", cols("keyspace_name", TEXT, "table_name", TEXT,
                "trigger_name", TEXT, "options", FROZEN_TEXT_MAP), List.of("keyspace_name"), List.of("table_name", "trigger_name"),
                List::of));
        // how often this node had to send a write or a point read on to its owner: what a token-aware client saves
        register(new StaticTable("system_views", "request_routing", cols("host_id", UUID_T, "forwarded_writes", BIGINT,
                "forwarded_reads", BIGINT), List.of("host_id"), List.of(), () -> {
                    Map<String, Object> v = new LinkedHashMap<>();
                    v.put("host_id", selfHostId());
                    v.put("forwarded_writes", forwardedWrites.getAsLong());
                    v.put("forwarded_reads", forwardedReads.getAsLong());
                    return List.of(row(v, 0));
                }));
        // this node's load as nodetool status shows it (read from every live node, one row each)
        register(new StaticTable("system_views", "disk_usage", cols("host_id", UUID_T, "load", BIGINT),
                List.of("host_id"), List.of(), () -> {
                    Map<String, Object> v = new LinkedHashMap<>();
                    v.put("host_id", selfHostId());
                    v.put("load", load.getAsLong());
                    return List.of(row(v, 0));
                }));
        // the database links, as DBA_DB_LINKS: the role a link connects as, never its password
        register(new StaticTable("system_views", "db_links", cols("db_link", TEXT, "username", TEXT, "host", TEXT,
                "link_type", TEXT), List.of("db_link"), List.of(), () -> {
                    List<RowView> out = new ArrayList<>();
                    for (dev.tributary.node.coord.TransportSettings.Link l : links.get()) {
                        Map<String, Object> v = new LinkedHashMap<>();
                        v.put("db_link", l.name());
                        v.put("username", l.user());
                        v.put("host", l.target());
                        v.put("link_type", l.jdbc() ? "JDBC" : "TRIBUTARY");
                        out.add(row(v, 0));
                    }
                    return out;
                }));
        // every member of the ring, DOWN ones too, as nodetool status lists them
        register(new StaticTable("system_views", "nodes", cols("host_id", UUID_T, "endpoint", TEXT, "native_endpoint", TEXT,
                "state", TEXT, "tokens", INT), List.of("host_id"), List.of(), () -> {
                    List<RowView> out = new ArrayList<>();
                    for (Peer p : peers.get()) {
                        Map<String, Object> v = new LinkedHashMap<>();
                        v.put("host_id", p.hostId());
                        v.put("endpoint", p.endpoint());
                        v.put("native_endpoint", p.nativeEndpoint());
                        v.put("state", p.state());
                        v.put("tokens", p.tokens().size());
                        out.add(row(v, 0));
                    }
                    return out;
                }));
        // the roles as Cassandra's system_auth shows them: hashes, never passwords (superusers only read it)
        register(new StaticTable("system_auth", "roles", cols("role", TEXT, "can_login", BOOLEAN, "is_superuser", BOOLEAN,
                "member_of", TEXT_SET, "salted_hash", TEXT), List.of("role"), List.of(), () -> {
                    List<RowView> out = new ArrayList<>();
                    for (dev.tributary.node.auth.Role r : roles.get()) {
                        Map<String, Object> v = new LinkedHashMap<>();
                        v.put("role", r.name());
                        v.put("can_login", r.login());
                        v.put("is_superuser", r.superuser());
                        // Cassandra's column: the roles granted to it directly (null for none)
                        v.put("member_of", r.memberOf().isEmpty() ? null : dev.tributary.dictionary.types.Values.normalize(
                                TEXT_SET, new LinkedHashSet<Object>(r.memberOf())));
                        v.put("salted_hash", r.saltedHash());
                        out.add(row(v, 0));
                    }
                    return out;
                }));
        register(new StaticTable("system_auth", "role_permissions", cols("role", TEXT, "resource", TEXT,
                "permissions", TEXT_SET), List.of("role"), List.of("resource"), () -> {
                    List<RowView> out = new ArrayList<>();
                    for (dev.tributary.node.auth.Role r : roles.get()) {
                        r.permissions().forEach((resource, perms) -> {
                            Map<String, Object> v = new LinkedHashMap<>();
                            v.put("role", r.name());
                            v.put("resource", resource);
                            v.put("permissions", dev.tributary.dictionary.types.Values.normalize(TEXT_SET,
                                    new LinkedHashSet<Object>(perms.stream().map(Enum::name).sorted().toList())));
                            out.add(row(v, 0));
                        });
                    }
                    return out;
                }));
        CaptureViews views = new CaptureViews(captures, segments, groups, receivedLogs,
                () -> peers.get().stream().filter(Peer::self).findFirst().map(Peer::endpoint).orElse("local"));
        for (TableSource v : views.tables()) {
            register(v);
        }
    }

    private void register(TableSource t) {
        fixed.put(t.keyspace() + "." + t.name(), t);
    }

    /** Adds views made after the system tables (the apply processes'). */
    public void register(java.util.Collection<? extends TableSource> views) {
        views.forEach(this::register);
    }

    /**
     * {@code system_views.operations}, as V$SESSION_LONGOPS: the long operations of this instance
     * (an instantiation's copy, a decommission's hand-over), running and last finished, gathered
     * from every live node, with how far each is: done of total (null while unknown), rate per
     * second since its start, ETA.
     */
    public void registerOperationsView(dev.tributary.node.progress.RunningOperations running) {
        register(new StaticTable("system_views", "operations", cols("host_id", UUID_T, "operation_id", BIGINT, "kind", TEXT,
                "target", TEXT, "state", TEXT, "unit", TEXT, "done", BIGINT, "total", BIGINT, "percent", DOUBLE, "rate_per_second", DOUBLE,
                "eta_seconds", BIGINT, "started", TIMESTAMP), List.of("host_id"), List.of("operation_id"), () -> {
                    List<RowView> out = new ArrayList<>();
                    UUID self = selfHostId();
                    for (dev.tributary.node.progress.RunningOperations.View op : running.list()) {
                        dev.tributary.node.progress.Progress p = op.progress();
                        Map<String, Object> v = new LinkedHashMap<>();
                        v.put("host_id", self);
                        v.put("operation_id", op.id());
                        v.put("kind", op.kind());
                        v.put("target", op.target());
                        v.put("state", op.state().name());
                        v.put("unit", op.unit());
                        v.put("done", p.done());
                        v.put("total", p.total() == dev.tributary.node.progress.Progress.UNKNOWN ? null : p.total());
                        v.put("percent", p.fraction().isPresent() ? Math.floor(p.fraction().getAsDouble() * 1000) / 10 : null);
                        v.put("rate_per_second", Math.round(p.ratePerSecond() * 10) / 10.0);
                        // a finished operation has nothing left to estimate
                        boolean ongoing = op.state() == dev.tributary.node.progress.RunningOperations.State.RUNNING;
                        v.put("eta_seconds", ongoing && p.etaSeconds().isPresent() ? p.etaSeconds().getAsLong() : null);
                        v.put("started", op.started());
                        out.add(row(v, out.size()));
                    }
                    return out;
                }));
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

    private UUID selfHostId() {
        return peers.get().stream().filter(Peer::self).findFirst().map(Peer::hostId).orElse(null);
    }

    /**
     * The views of what each instance holds of its own that a read gathers from every live node:
     * its disk figures, and its capture and apply processes, queues and rules, which live on the
     * instance they were made on (CAP-RAC-2: as Oracle's DBA_ views list every instance's
     * processes, any node answers for the cluster, and after a failover the moved instance's).
     */
    static boolean gathered(String keyspace, String name) {
        return keyspace.equals("system_queues") || keyspace.equals("system_views") && INSTANCE_VIEWS.contains(name);
    }

    private static final java.util.Set<String> INSTANCE_VIEWS = java.util.Set.of("disk_usage", "capture", "streams_capture",
            "capture_parameters", "capture_extra_attributes", "apply", "apply_parameters", "apply_error", "apply_ignored_ddl",
            "buffered_queues", "operations",
            "rule_sets", "rules", "streams_rules");

    public boolean isSystemKeyspace(String ks) {
        return SchemaService.SYSTEM_KEYSPACES.contains(ks);
    }

    public static List<ResultColumn> cols(Object... nameTypes) {
        List<ResultColumn> out = new ArrayList<>();
        for (int i = 0; i < nameTypes.length; i += 2) {
            out.add(new ResultColumn((String) nameTypes[i], (CqlType) nameTypes[i + 1]));
        }
        return out;
    }

    /** A view's row from its column names and values, in pairs as {@link #cols} takes names and types. */
    public static RowView row(Object... namesAndValues) {
        Map<String, Object> v = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            v.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return row(v, 0);
    }

    public static RowView row(Map<String, Object> values, long token) {
        return new RowView(values, Map.of(), Map.of(), token);
    }

    private List<RowView> peerRows(boolean local) {
        List<RowView> out = new ArrayList<>();
        for (Peer p : peers.get()) {
            if (p.self() != local || p.state().equals("DOWN")) {
                continue; // drivers are told of the live members only
            }
            Map<String, Object> v = new LinkedHashMap<>();
            InetAddress addr = address(p.endpoint());
            Integer nativePort = p.nativeEndpoint().isEmpty() ? null : port(p.nativeEndpoint());
            if (local) {
                v.put("key", "local");
                v.put("bootstrapped", "COMPLETED");
                v.put("broadcast_address", addr);
                v.put("listen_address", addr);
                v.put("cql_version", CQL_VERSION);
                v.put("native_protocol_version", "4");
                v.put("partitioner", PARTITIONER);
            } else {
                v.put("peer", addr);
                v.put("preferred_ip", addr);
            }
            v.put("host_id", p.hostId());
            v.put("rpc_address", p.nativeEndpoint().isEmpty() ? addr : address(p.nativeEndpoint()));
            v.put("rpc_port", nativePort);
            v.put("native_port", nativePort);
            v.put("grpc_port", port(p.endpoint()));
            // every node applies the one schema log, so this node's schema is the cluster's
            // once they caught up; a lagging peer's difference is not visible from here
            v.put("schema_version", schemaVersion());
            v.put("state", p.state());
            Set<Object> tokens = new LinkedHashSet<>();
            for (long t : p.tokens()) {
                tokens.add(Long.toString(t));
            }
            v.put("tokens", dev.tributary.dictionary.types.Values.normalize(TEXT_SET, tokens));
            v.put("cluster_name", clusterName);
            v.put("release_version", RELEASE_VERSION);
            v.put("tributary_version", TRIBUTARY_VERSION);
            v.put("data_center", "datacenter1");
            v.put("rack", "rack1");
            out.add(row(v, 0));
        }
        return out;
    }

    private static int port(String endpoint) {
        return Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1));
    }

    /**
     * A digest of the schema (keyspaces, tables with their object numbers, types): equal on
     * every node that applied the same schema log, as drivers' schema agreement expects.
     */
    public UUID schemaVersion() {
        dev.tributary.dictionary.DictionaryVersion d = dictionary.latest();
        StringBuilder b = new StringBuilder();
        for (KeyspaceDef k : d.keyspaces()) {
            b.append(k).append('\n');
        }
        for (TableDef t : d.tables()) {
            b.append(t.objectNumber()).append(' ').append(t).append('\n');
        }
        for (dev.tributary.dictionary.schema.UserTypeDef t : d.userTypes()) {
            b.append(t).append('\n');
        }
        return UUID.nameUUIDFromBytes(b.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
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
            out.add(row("key", "timestamps", "time", Instant.ofEpochMilli(g.timestampMillis()), "expired", null));
        }
        return out;
    }

    /** system.cdc_timestamps: each tablet table's stream set timestamps, newest first. */
    private List<RowView> tabletTimestamps() {
        List<RowView> out = new ArrayList<>();
        for (TableDef t : dictionary.latest().tables()) {
            tablets.apply(t.objectNumber()).ifPresent(h -> {
                for (long ts : h.timestampsNewestFirst()) {
                    out.add(row("keyspace_name", t.keyspace(), "table_name", t.name(), "timestamp", Instant.ofEpochMilli(ts)));
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
                    out.add(row("keyspace_name", t.keyspace(), "table_name", t.name(), "last_token", m.lastToken(i),
                            "tablet_count", m.tabletCount(), "replica", java.util.UUID.fromString(m.replica(i))));
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
                    out.add(row("keyspace_name", t.keyspace(), "table_name", t.name(),
                            "timestamp", Instant.ofEpochMilli(r.timestampMillis()), "stream_state", (byte) r.state().code(),
                            "stream_id", dev.tributary.dictionary.types.Blob.of(r.streamId().toBytes())));
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
        for (String ks : new java.util.TreeSet<>(describedSystemKeyspaces())) {
            out.add(row("keyspace_name", ks, "durable_writes", true, "replication", dev.tributary.dictionary.types.Values.normalize(
                    FROZEN_TEXT_MAP, new LinkedHashMap<Object, Object>(Map.of("class", STRATEGY_PACKAGE + "LocalStrategy")))));
        }
        for (KeyspaceDef k : dictionary.latest().keyspaces()) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("keyspace_name", k.name());
            v.put("durable_writes", true);
            Map<Object, Object> replication = new LinkedHashMap<>(k.replication());
            Object strategy = replication.get("class");
            if (strategy instanceof String c && !c.contains(".")) {
                replication.put("class", STRATEGY_PACKAGE + c); // drivers know strategies by their full class names
            }
            if (String.valueOf(replication.get("class")).endsWith("NetworkTopologyStrategy")
                    && replication.containsKey("replication_factor")) {
                // as Cassandra 4 and ScyllaDB store it: the factor per data center (Tributary's one, datacenter1)
                replication.put("datacenter1", replication.remove("replication_factor"));
            }
            v.put("replication", dev.tributary.dictionary.types.Values.normalize(FROZEN_TEXT_MAP, replication));
            out.add(row(v, 0));
        }
        return out;
    }

    /**
     * The virtual tables system_schema describes besides the dictionary's: the system tables
     * (drivers and scylla-cdc-java look tables such as system_distributed.cdc_generation_timestamps
     * up in their schema metadata) and each CDC table's log, which consumers read with the log
     * table's own metadata.
     */
    private List<TableSource> describedVirtualTables() {
        List<TableSource> out = new ArrayList<>();
        for (TableSource t : fixed.values()) {
            if (isSystemKeyspace(t.keyspace())) {
                out.add(t);
            }
        }
        out.sort(java.util.Comparator.comparing(TableSource::keyspace).thenComparing(TableSource::name));
        for (TableDef t : dictionary.latest().tables()) {
            if (t.options().cdc().enabled()) {
                out.add(cdcLogTable(t));
            }
        }
        return out;
    }

    private Set<String> describedSystemKeyspaces() {
        Set<String> out = new LinkedHashSet<>();
        for (TableSource t : fixed.values()) {
            if (isSystemKeyspace(t.keyspace())) {
                out.add(t.keyspace());
            }
        }
        return out;
    }

    private List<RowView> tableRows() {
        List<RowView> out = new ArrayList<>();
        for (TableSource t : describedVirtualTables()) {
            out.add(tableRow(t.keyspace(), t.name(), UUID.nameUUIDFromBytes(("tributary-virtual:" + t.keyspace() + "." + t.name())
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8)), null, ""));
        }
        for (TableDef t : dictionary.latest().tables()) {
            Map<Object, Object> cdc = t.options().cdc().enabled() ? new LinkedHashMap<>(t.options().cdc().toOptions()) : null;
            out.add(tableRow(t.keyspace(), t.name(), tableId(t), cdc, t.options().other().getOrDefault("comment", "")));
        }
        return out;
    }

    /** A row of system_schema.tables: Cassandra 3.0's options, which Tributary does not vary, at their defaults. */
    private static RowView tableRow(String keyspace, String name, UUID id, Map<Object, Object> cdc, String comment) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("keyspace_name", keyspace);
        v.put("table_name", name);
        v.put("id", id);
        // cdc is a boolean in Cassandra's own tables (drivers parse it so); the options are in cdc_options
        v.put("cdc", cdc != null);
        v.put("cdc_options", cdc == null ? null : dev.tributary.dictionary.types.Values.normalize(TEXT_MAP, cdc));
        Map<Object, Object> extensions = new LinkedHashMap<>();
        if (cdc != null) {
            extensions.put("cdc", Blob.of(scyllaMapExtension(cdc)));
        }
        v.put("extensions", dev.tributary.dictionary.types.Values.normalize(FROZEN_BLOB_MAP, extensions));
        v.put("flags", dev.tributary.dictionary.types.Values.normalize(FROZEN_TEXT_SET, new LinkedHashSet<Object>(List.of("compound"))));
        v.put("bloom_filter_fp_chance", 0.01);
        v.put("caching", dev.tributary.dictionary.types.Values.normalize(FROZEN_TEXT_MAP,
                new LinkedHashMap<Object, Object>(Map.of("keys", "ALL", "rows_per_partition", "NONE"))));
        v.put("comment", comment);
        v.put("compaction", dev.tributary.dictionary.types.Values.normalize(FROZEN_TEXT_MAP, new LinkedHashMap<Object, Object>(
                Map.of("class", "org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy"))));
        v.put("compression", dev.tributary.dictionary.types.Values.normalize(FROZEN_TEXT_MAP, new LinkedHashMap<Object, Object>()));
        v.put("crc_check_chance", 1.0);
        v.put("dclocal_read_repair_chance", 0.0);
        v.put("default_time_to_live", 0);
        v.put("gc_grace_seconds", 864000);
        v.put("max_index_interval", 2048);
        v.put("memtable_flush_period_in_ms", 0);
        v.put("min_index_interval", 128);
        v.put("read_repair_chance", 0.0);
        v.put("speculative_retry", "99PERCENTILE");
        return row(v, 0);
    }

    /**
     * A map as ScyllaDB serializes a table's map extensions ({@code extensions['cdc']}): little-endian
     * int32 count, then each key and value as a little-endian int32 length and UTF-8 bytes. Its
     * drivers read a table's cdc options from it.
     */
    static byte[] scyllaMapExtension(Map<Object, Object> map) {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        java.nio.ByteBuffer four = java.nio.ByteBuffer.allocate(4).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.writeBytes(four.putInt(0, map.size()).array());
        for (Map.Entry<Object, Object> e : map.entrySet()) {
            for (Object o : List.of(e.getKey(), e.getValue())) {
                byte[] s = o.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
                b.writeBytes(four.putInt(0, s.length).array());
                b.writeBytes(s);
            }
        }
        return b.toByteArray();
    }

    private List<RowView> columnRows() {
        List<RowView> out = new ArrayList<>();
        for (TableSource t : describedVirtualTables()) {
            for (ResultColumn c : t.columns()) {
                int pk = t.partitionKey().indexOf(c.name());
                int ck = t.clusteringKey().indexOf(c.name());
                String kind = pk >= 0 ? "partition_key" : ck >= 0 ? "clustering" : "regular";
                out.add(columnRow(t.keyspace(), t.name(), c.name(), ck >= 0 ? "asc" : "none", kind,
                        pk >= 0 ? pk : ck >= 0 ? ck : -1, c.type()));
            }
        }
        for (TableDef t : dictionary.latest().tables()) {
            for (ColumnDef c : t.columns()) {
                out.add(columnRow(t.keyspace(), t.name(), c.name(), c.kind() == dev.tributary.dictionary.schema.ColumnKind.CLUSTERING
                        ? c.order().name().toLowerCase() : "none", c.kind().name().toLowerCase(), c.keyPosition(), c.type()));
            }
        }
        return out;
    }

    private static RowView columnRow(String keyspace, String table, String column, String order, String kind, int position,
            CqlType type) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("keyspace_name", keyspace);
        v.put("table_name", table);
        v.put("column_name", column);
        v.put("clustering_order", order);
        v.put("column_name_bytes", Blob.of(column.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        v.put("kind", kind);
        v.put("position", position);
        v.put("type", schemaType(type));
        return row(v, 0);
    }

    private List<RowView> typeRows() {
        List<RowView> out = new ArrayList<>();
        for (dev.tributary.dictionary.schema.UserTypeDef t : dictionary.latest().userTypes()) {
            List<Object> names = new ArrayList<>();
            List<Object> types = new ArrayList<>();
            for (CqlType.Field f : t.fields()) {
                names.add(f.name());
                types.add(schemaType(f.type()));
            }
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("keyspace_name", t.keyspace());
            v.put("type_name", t.name());
            v.put("field_names", dev.tributary.dictionary.types.Values.normalize(FROZEN_TEXT_LIST, names));
            v.put("field_types", dev.tributary.dictionary.types.Values.normalize(FROZEN_TEXT_LIST, types));
            out.add(row(v, 0));
        }
        return out;
    }

    /** A table's id as drivers expect it (a uuid), derived from its object number, so every node gives the same. */
    public static UUID tableId(TableDef t) {
        return UUID.nameUUIDFromBytes(("tributary-table:" + t.objectNumber()).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /**
     * A type as Cassandra writes it in system_schema: user types by their name alone (they live in
     * the table's keyspace), text for varchar.
     */
    static String schemaType(CqlType t) {
        if (t instanceof CqlType.Native n) {
            return n.kind() == CqlType.Kind.VARCHAR ? "text" : n.cql();
        }
        String s;
        if (t instanceof CqlType.ListType l) {
            s = "list<" + schemaType(l.element()) + ">";
        } else if (t instanceof CqlType.SetType st) {
            s = "set<" + schemaType(st.element()) + ">";
        } else if (t instanceof CqlType.MapType m) {
            s = "map<" + schemaType(m.key()) + ", " + schemaType(m.value()) + ">";
        } else {
            s = ((CqlType.UserType) t).name();
        }
        return t.frozen() ? "frozen<" + s + ">" : s;
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
            // DDL LCRs are not rows of the ScyllaDB-format log table
            Iterator<LogRecord> rowChanges = Iterators.filter(cdcLog.iterate(logId, false), r -> r.operation() != null);
            return Iterators.transform(rowChanges, r -> logRow(base, r));
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
