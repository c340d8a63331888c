package dev.tributary.node.exec;

import dev.tributary.cql.CqlParser;
import dev.tributary.cql.ast.ParsedStatement;
import dev.tributary.cql.ast.Argument;
import dev.tributary.cql.ast.Batch;
import dev.tributary.cql.ast.BlobLit;
import dev.tributary.cql.ast.Call;
import dev.tributary.cql.ast.ModificationStatement;
import dev.tributary.cql.ast.NullLit;
import dev.tributary.cql.ast.QualifiedName;
import dev.tributary.cql.ast.Select;
import dev.tributary.cql.ast.Statement;
import dev.tributary.cql.ast.StringLit;
import dev.tributary.cql.ast.Use;
import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.dictionary.errors.UnknownKeyspaceException;
import dev.tributary.dictionary.errors.UnknownTableException;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.dictionary.types.Blob;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.InvalidRequestException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Runs statements of the statement language: parses (with a small cache of prepared
 * statements), works out bind-marker types, and dispatches to DDL, the write path, SELECT or
 * CALL. Thread-safe.
 */
public final class StatementExecutor {
    /** A parsed statement with the types of its bind markers. */
    public record Prepared(String text, Statement statement, List<ResultColumn> markers) {
    }

    private static final int CACHE_SIZE = 1024;
    /** About 20 MB of syntax trees (ParsedStatements). */
    private static final long CACHE_CHARS = 1 << 20;

    private final MultiversionDictionary dictionary;
    private final SchemaService schema;
    private final WriteService writes;
    private final SelectService selects;
    private final SystemTables systemTables;
    private final BaseTables baseTables;
    private final AdminProcedures admin;
    private final Procedures applyAdmin;
    private final ClusterOperations cluster;
    private final SystemAdmin system;
    private final Placement placement;
    private final StatementAccess access;
    private final RoleAdmin roleAdmin;
    private final ParsedStatements parsed = new ParsedStatements(CACHE_SIZE, CACHE_CHARS);

    public StatementExecutor(MultiversionDictionary dictionary, SchemaService schema, WriteService writes,
            SelectService selects, SystemTables systemTables, BaseTables baseTables,
            dev.tributary.node.capture.CaptureProcesses captures, dev.tributary.node.write.CommitPipeline pipeline,
            ClusterOperations cluster, Placement placement, SystemAdmin system, StatementAccess access,
            Procedures applyProcedures) {
        this.access = access;
        this.roleAdmin = new RoleAdmin(access.control(), dictionary);
        this.system = system;
        this.placement = placement;
        this.cluster = cluster;
        this.admin = new AdminProcedures(captures, pipeline, this.access);
        this.applyAdmin = applyProcedures;
        this.dictionary = dictionary;
        this.schema = schema;
        this.writes = writes;
        this.selects = selects;
        this.systemTables = systemTables;
        this.baseTables = baseTables;
    }

    /**
     * A statement naming a table, keyspace or column this node has not heard of is tried once more
     * after catching up with the cluster's schema: a DDL run on another node a moment ago reaches
     * this node through a ZooKeeper watch, and a client sent on to here must not be told the table
     * does not exist. The first try failed while resolving names, before anything was written.
     */
    private <T> T withClusterSchema(java.util.function.Supplier<T> body) {
        // taken before the first try: the watch may apply the missing change between the failure
        // and the catch-up, which then finds nothing new, and the statement still deserves its retry
        long seen = schema.appliedSequence();
        try {
            return body.get();
        } catch (UnknownTableException | UnknownKeyspaceException
                | dev.tributary.dictionary.errors.UnknownColumnException e) {
            if (e instanceof UnknownTableException t && t.keyspace() != null && systemTables.isSystemKeyspace(t.keyspace())) {
                // a system table or queue is not in the schema log: catching up cannot make it appear, and a
                // gathered read of an instance's queue asks every node, most of which do not have it
                throw e;
            }
            if (schema.catchUpWithCluster() == seen) {
                throw e;
            }
            return body.get();
        }
    }

    /** Parses one statement (or one batch) and the types of its bind markers. */
    public Prepared prepare(String text, SessionContext s) {
        return withClusterSchema(() -> parse(text, s));
    }

    private Prepared parse(String text, SessionContext s) {
        Statement st = parsed.get(text);
        if (st == null) {
            st = CqlParser.parse(text);
            parsed.put(text, st);
        }
        int count = CqlParser.countBindMarkers(st);
        if (count > 0) {
            // typing the markers looks the tables up: ask first, so a missing table answers as a forbidden one
            access.authorize(st, s);
        }
        List<ResultColumn> markers = count == 0 ? List.of() : BindMarkers.of(st, count, (name, write) ->
                write ? baseTables.source(writableTable(name, s)) : source(name, s));
        return new Prepared(text, st, markers);
    }

    /**
     * Where a prepared statement's partition lives, for token-aware clients: empty unless it is a
     * single-table statement of a base table.
     */
    public Optional<StatementRouting> routing(Prepared p, SessionContext s) {
        return StatementRouting.of(p.statement(), s, dictionary.latest(), systemTables);
    }

    /** Splits a script into statements (the CLI sends one at a time, but a request may hold several). */
    public List<ParsedStatement> script(String text) {
        return CqlParser.parseScript(text);
    }

    /**
     * Runs a statement. A write whose partitions another node owns throws
     * {@link Placement.NotOwnerException} before anything is written.
     */
    public StatementResult execute(Prepared p, SessionContext s, List<Object> bound) {
        return execute(p, s, bound, null);
    }

    /**
     * Runs a statement; a write (or BEGIN BATCH block) with an idempotency key applies once within
     * the node's idempotency window, a repeat answering with the first commit. Other statements
     * ignore the key.
     */
    public StatementResult execute(Prepared p, SessionContext s, List<Object> bound, String idempotencyKey) {
        return withClusterSchema(() -> run(p, s, bound, idempotencyKey));
    }

    private StatementResult run(Prepared p, SessionContext s, List<Object> bound, String idempotencyKey) {
        if (bound.size() != p.markers().size()) {
            throw new InvalidRequestException("statement has " + p.markers().size() + " bind markers but " + bound.size()
                    + " values were bound");
        }
        Statement st = p.statement();
        access.authorize(st, s);
        if (st instanceof dev.tributary.cql.ast.RoleStatement r) {
            return roleAdmin.execute(r, s);
        }
        if (st instanceof Use u) {
            dictionary.latest().keyspace(u.keyspace()).orElseThrow(
                    () -> new UnknownKeyspaceException(u.keyspace()));
            return StatementResult.of(s.withKeyspace(u.keyspace()));
        }
        if (st instanceof Select sel) {
            return selects.execute(sel, source(sel.from(), s), s, bound);
        }
        if (st instanceof ModificationStatement m) {
            return writes.execute(List.of(m), null, s, List.of(bound), this::writableTable, placement,
                    idempotencyKey);
        }
        if (st instanceof Batch b) {
            List<List<Object>> per = new ArrayList<>();
            for (int i = 0; i < b.statements().size(); i++) {
                per.add(bound);
            }
            return writes.execute(b.statements(), b.using(), s, per, this::writableTable, placement, idempotencyKey);
        }
        if (st instanceof Call c) {
            return runCall(c, s);
        }
        if (st instanceof dev.tributary.cql.ast.CreateDatabaseLink l) {
            system.createLink(l.name(), l.using(), l.user(), l.password());
            return StatementResult.of(s);
        }
        if (st instanceof dev.tributary.cql.ast.DropDatabaseLink l) {
            system.dropLink(l.name(), l.ifExists());
            return StatementResult.of(s);
        }
        if (st instanceof dev.tributary.cql.ast.AlterSystem.Set set) {
            system.setSystemParameter(set.parameter(), set.value());
            return StatementResult.of(s);
        }
        if (st instanceof dev.tributary.cql.ast.AlterSystem.SwitchLogfile) {
            system.switchLogfile();
            return StatementResult.of(s);
        }
        if (st instanceof dev.tributary.cql.ast.AlterSystem.ArchiveLogCurrent) {
            system.archiveLogCurrent();
            return StatementResult.of(s);
        }
        StatementResult done = schema.execute(st, p.text(), s);
        if (st instanceof dev.tributary.cql.ast.DropKeyspace dk) {
            roleAdmin.forget(dev.tributary.node.auth.AuthResource.keyspace(dk.name()));
        } else if (st instanceof dev.tributary.cql.ast.DropTable dt) {
            roleAdmin.forget(dev.tributary.node.auth.AuthResource.table(SchemaService.keyspace(dt.name(), s), dt.name().name()));
        }
        return done;
    }

    /** Who may read what: the change-stream and consumer-group services ask it too. */
    public StatementAccess access() {
        return access;
    }

    /** Several prepared modification statements as one transaction. */
    public StatementResult executeBatch(List<Prepared> items, List<List<Object>> bound, SessionContext s, String idempotencyKey) {
        return withClusterSchema(() -> runBatch(items, bound, s, idempotencyKey));
    }

    private StatementResult runBatch(List<Prepared> items, List<List<Object>> bound, SessionContext s, String idempotencyKey) {
        List<ModificationStatement> mods = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            Statement st = items.get(i).statement();
            if (!(st instanceof ModificationStatement m)) {
                throw new InvalidRequestException("a batch may hold only INSERT, UPDATE and DELETE statements; statement "
                        + (i + 1) + " is not one");
            }
            if (bound.get(i).size() != items.get(i).markers().size()) {
                throw new InvalidRequestException("batch statement " + (i + 1) + " has " + items.get(i).markers().size()
                        + " bind markers but " + bound.get(i).size() + " values were bound");
            }
            access.authorize(st, s);
            mods.add(m);
        }
        return writes.execute(mods, null, s, bound, this::writableTable, placement, idempotencyKey);
    }

    /** How the rows of a SELECT are found in a cluster. */
    public enum Spread {
        /** Not table data (system tables, views, queues, schema, writes): answered here. */
        HERE,
        /** A view of each node's own figures: every live node's rows. */
        EVERY_NODE,
        /**
         * A base table or a CDC log: every node that may hold some of its rows must answer, or the
         * read is UNAVAILABLE — never a silently short result.
         */
        EVERY_OWNER
    }

    /** Whether a statement reads data spread over the nodes. */
    public Spread spread(Prepared p, SessionContext s) {
        if (!(p.statement() instanceof Select sel)) {
            return Spread.HERE;
        }
        String ks = SchemaService.keyspace(sel.from(), s);
        if (systemTables.isSystemKeyspace(ks)) {
            return SystemTables.gathered(ks, sel.from().name()) ? Spread.EVERY_NODE : Spread.HERE;
        }
        return Spread.EVERY_OWNER;
    }

    /**
     * The partitions of a base table a SELECT names in full by its WHERE clause, which their
     * owner can answer alone; null for any other statement, a range or a scan, a CDC log or a
     * view, and for a statement that will fail (it fails where it runs, after its authorization).
     */
    public List<Placement.RoutingKey> pointPartitions(Prepared p, SessionContext s, List<Object> bound) {
        if (!(p.statement() instanceof Select sel)) {
            return null;
        }
        String ks = SchemaService.keyspace(sel.from(), s);
        if (systemTables.isSystemKeyspace(ks) || systemTables.find(ks, sel.from().name()).isPresent()) {
            return null;
        }
        Optional<TableDef> table = dictionary.latest().table(ks, sel.from().name());
        if (table.isEmpty()) {
            return null;
        }
        TableDef t = table.get();
        Optional<List<List<Object>>> partitions;
        try {
            partitions = selects.partitions(sel, baseTables.source(t), bound);
        } catch (RuntimeException refused) {
            return null;
        }
        if (partitions.isEmpty()) {
            return null;
        }
        List<Placement.RoutingKey> keys = new ArrayList<>(partitions.get().size());
        for (List<Object> key : partitions.get()) {
            if (key.contains(null)) {
                // a null key (a bound value with no kind) names no partition: no route; the
                // statement runs here and is refused there with the column named
                return null;
            }
            keys.add(new Placement.RoutingKey(t.objectNumber(), BaseTables.token(BaseTables.partitionKeyBytes(t, key))));
        }
        return keys;
    }

    /** How the per-node values of one selector of a SELECT combine into the cluster's. */
    public enum Aggregate {
        /** Not an aggregate: rows are concatenated. */
        NONE,
        /** count(...): the nodes' counts add up. */
        COUNT,
        /** min(...): the least of the nodes' values. */
        MIN,
        /** max(...): the greatest of the nodes' values. */
        MAX
    }

    /** The aggregate of each selector of a SELECT (empty for SELECT * and other statements). */
    public List<Aggregate> aggregates(Prepared p) {
        List<Aggregate> out = new ArrayList<>();
        if (p.statement() instanceof Select sel) {
            for (dev.tributary.cql.ast.Selector sc : sel.selectors()) {
                String fn = sc instanceof dev.tributary.cql.ast.FunctionSelector f ? f.function().toLowerCase(Locale.ROOT) : "";
                out.add(switch (fn.startsWith("system.") ? fn.substring(7) : fn) {
                    case "count" -> Aggregate.COUNT;
                    case "min" -> Aggregate.MIN;
                    case "max" -> Aggregate.MAX;
                    default -> Aggregate.NONE;
                });
            }
        }
        return out;
    }

    /** The LIMIT of a SELECT, or null. */
    public Integer limit(Prepared p, List<Object> bound) {
        if (p.statement() instanceof Select sel && sel.limit() != null) {
            return (Integer) Terms.TYPER.toValue(CqlType.of(CqlType.Kind.INT), sel.limit(), "LIMIT", bound);
        }
        return null;
    }

    /** What SELECT reads for a name: a system table, a CDC log, or a base table. */
    public TableSource source(QualifiedName name, SessionContext s) {
        String ks = SchemaService.keyspace(name, s);
        Optional<TableSource> virtual = systemTables.find(ks, name.name());
        if (virtual.isPresent()) {
            return virtual.get();
        }
        if (systemTables.isSystemKeyspace(ks)) {
            throw new UnknownTableException(ks, name.name());
        }
        return baseTables.source(dictionary.latest().requireTable(ks, name.name()));
    }

    TableDef writableTable(QualifiedName name, SessionContext s) {
        String ks = SchemaService.keyspace(name, s);
        if (systemTables.isSystemKeyspace(ks) || systemTables.find(ks, name.name()).isPresent()) {
            throw new InvalidRequestException("table " + ks + "." + name.name() + " is maintained by Tributary and cannot be written");
        }
        return dictionary.latest().requireTable(ks, name.name());
    }

    /** Runs an administration procedure for the gRPC Admin service. */
    public StatementResult call(Call c, SessionContext s) {
        access.authorize(c, s);
        return runCall(c, s);
    }

    private StatementResult runCall(Call c, SessionContext s) {
        String proc = (c.procedure().keyspace() == null ? "" : c.procedure().keyspace() + ".")
                + c.procedure().name().toLowerCase(Locale.ROOT);
        StatementResult administered = admin.call(proc, c, s);
        if (administered == null) {
            administered = applyAdmin.call(proc, c, s);
        }
        if (administered != null) {
            return administered;
        }
        switch (proc) {
            case "dbms_streams.set_tag" -> {
                if (c.arguments().size() != 1) {
                    throw new InvalidRequestException("dbms_streams.set_tag takes one argument: tag => 0x..");
                }
                Argument a = c.arguments().get(0);
                if (a.name() != null && !a.name().equals("tag")) {
                    throw new InvalidRequestException("dbms_streams.set_tag has no parameter '" + a.name() + "'; it takes tag");
                }
                byte[] tag;
                if (a.value() instanceof BlobLit b) {
                    tag = b.value().toByteArray();
                } else if (a.value() instanceof NullLit) {
                    tag = null;
                } else {
                    throw new InvalidRequestException("dbms_streams.set_tag: tag must be a blob literal such as 0x1d, got "
                            + a.value().cql());
                }
                return StatementResult.of(s.withTag(tag));
            }
            case "system.check_and_repair_cdc_streams" -> {
                if (!c.arguments().isEmpty()) {
                    throw new InvalidRequestException("system.check_and_repair_cdc_streams takes no arguments");
                }
                List<Object> row = new ArrayList<>();
                row.add(java.time.Instant.ofEpochMilli(cluster.checkAndRepairCdcStreams()));
                return StatementResult.rows(List.of(new ResultColumn("generation", CqlType.of(CqlType.Kind.TIMESTAMP))),
                        List.of(row), s, List.of());
            }
            case "system.decommission" -> {
                if (!c.arguments().isEmpty()) {
                    throw new InvalidRequestException("system.decommission takes no arguments");
                }
                ClusterOperations.Decommissioned d = cluster.decommission();
                List<Object> row = new ArrayList<>(List.of(d.hostId(), java.time.Instant.ofEpochMilli(d.generationMillis()),
                        d.movedEntries()));
                return StatementResult.rows(List.of(new ResultColumn("host_id", CqlType.of(CqlType.Kind.UUID)),
                        new ResultColumn("generation", CqlType.of(CqlType.Kind.TIMESTAMP)),
                        new ResultColumn("moved", CqlType.of(CqlType.Kind.BIGINT))), List.of(row), s, List.of());
            }
            case "system.removenode" -> {
                Argument a = c.arguments().size() == 1 ? c.arguments().get(0) : null;
                if (a == null || (a.name() != null && !a.name().equals("host_id")) || !(a.value() instanceof StringLit id)) {
                    throw new InvalidRequestException("system.removenode takes one argument: host_id => '<host id>'");
                }
                String node = id.value();
                List<List<Object>> rows = new ArrayList<>();
                for (String g : cluster.removenode(node)) {
                    rows.add(new ArrayList<>(List.of(g)));
                }
                return StatementResult.rows(List.of(new ResultColumn("group", CqlType.of(CqlType.Kind.TEXT))), rows, s,
                        List.of());
            }
            case "dbms_streams.get_tag" -> {
                List<List<Object>> rows = new ArrayList<>();
                List<Object> row = new ArrayList<>();
                row.add(s.tag() == null ? null : Blob.of(s.tag()));
                rows.add(row);
                return StatementResult.rows(List.of(new ResultColumn("tag", CqlType.of(CqlType.Kind.BLOB))), rows, s, List.of());
            }
            default -> throw new InvalidRequestException(ErrorCode.NOT_FOUND, "unknown procedure " + proc);
        }
    }
}
