package dev.tributary.node.exec;

import dev.tributary.capture.redo.DdlChange;
import dev.tributary.capture.redo.RedoCodec;
import dev.tributary.capture.redo.RedoEntry;
import dev.tributary.capture.redo.SessionInfo;
import dev.tributary.cql.ast.AddColumns;
import dev.tributary.cql.ast.AlterTable;
import dev.tributary.cql.ast.BooleanLit;
import dev.tributary.cql.ast.ColumnSpec;
import dev.tributary.cql.ast.CreateKeyspace;
import dev.tributary.cql.ast.CreateTable;
import dev.tributary.cql.ast.CreateType;
import dev.tributary.cql.ast.DecimalLit;
import dev.tributary.cql.ast.DropColumns;
import dev.tributary.cql.ast.DropKeyspace;
import dev.tributary.cql.ast.DropTable;
import dev.tributary.cql.ast.DropType;
import dev.tributary.cql.ast.FieldSpec;
import dev.tributary.cql.ast.IntegerLit;
import dev.tributary.cql.ast.MapLit;
import dev.tributary.cql.ast.Order;
import dev.tributary.cql.ast.QualifiedName;
import dev.tributary.cql.ast.Statement;
import dev.tributary.cql.ast.StringLit;
import dev.tributary.cql.ast.Term;
import dev.tributary.cql.ast.Truncate;
import dev.tributary.cql.ast.WithProperties;
import dev.tributary.dictionary.DictionaryChange;
import dev.tributary.dictionary.DictionaryCodec;
import dev.tributary.dictionary.DictionaryVersion;
import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.dictionary.errors.AlreadyExistsException;
import dev.tributary.dictionary.schema.CdcOptions;
import dev.tributary.dictionary.schema.ClusteringOrder;
import dev.tributary.dictionary.schema.KeyspaceDef;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.dictionary.schema.TableOptions;
import dev.tributary.dictionary.schema.UserTypeDef;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.node.write.CommitPipeline;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import dev.tributary.node.storage.StoreIterator;

/**
 * DDL. Each statement is one transaction on the committer: its dictionary change is stored in
 * {@code meta} (to rebuild the live dictionary at start) and, as a DDL redo entry, in the redo
 * thread (so captures rebuild their own dictionary from redo and emit DDL LCRs), then applied
 * to the in-memory multiversioned dictionary at the same SCN before the next transaction runs.
 */
public final class SchemaService implements AutoCloseable {
    public static final String DICT_PREFIX = "dict/";
    /** Keyspaces users cannot create, change or write: they are the node's own. */
    public static final Set<String> SYSTEM_KEYSPACES = Set.of("system", "system_schema", "system_distributed",
            "system_views", "system_queues", "system_auth", "system_traces");

    private static final byte[] APPLIED_KEY = Keys.meta("schema/applied");
    private static final System.Logger LOG = System.getLogger(SchemaService.class.getName());

    private final CommitPipeline pipeline;
    private final MultiversionDictionary dictionary;
    private final NodeStore store;
    private final int threadNumber;
    private final dev.tributary.node.coord.SchemaLog schemaLog;
    private final String hostId;
    private final Object applyLock = new Object();
    /** What applying this node's own schema changes gave: a commit or the exception, by sequence. */
    private final Map<Long, Object> outcomes = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.ExecutorService applier = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "tributary-schema-applier");
        t.setDaemon(true);
        return t;
    });
    private long applied;
    private final java.util.function.Consumer<TableDef> tableChanged;

    /**
     * @param schemaLog the cluster's schema log: every DDL goes through it, so all nodes apply the
     *                  same changes in the same order
     * @param hostId    this node, to recognise its own changes in the log
     * @param tableChanged called on the node that ran a CREATE or ALTER TABLE, once it applied it
     *                  (tablet tables get their stream sets there)
     */
    public SchemaService(CommitPipeline pipeline, MultiversionDictionary dictionary, NodeStore store, int threadNumber,
            dev.tributary.node.coord.SchemaLog schemaLog, String hostId, java.util.function.Consumer<TableDef> tableChanged) {
        this.tableChanged = tableChanged;
        this.pipeline = pipeline;
        this.dictionary = dictionary;
        this.store = store;
        this.threadNumber = threadNumber;
        this.schemaLog = schemaLog;
        this.hostId = hostId;
        byte[] a = store.get(NodeStore.Family.META, APPLIED_KEY);
        this.applied = a == null ? -1 : java.nio.ByteBuffer.wrap(a).getLong(); // ZooKeeper numbers from 0
    }

    /**
     * Applies the schema changes this node has not applied yet, then follows the log: a node that
     * was down or has just joined catches up before it serves.
     */
    public void start() {
        catchUp();
        schemaLog.watch(() -> applier.execute(this::catchUpQuietly));
    }

    /**
     * A fault hook: this node applies no change from its watch until the returned action runs, as
     * when ZooKeeper's notification is slow to arrive. Statements still catch up on their own.
     */
    public Runnable pauseFollowing() {
        java.util.concurrent.CountDownLatch resume = new java.util.concurrent.CountDownLatch(1);
        applier.execute(() -> {
            try {
                resume.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        return resume::countDown;
    }

    /** Stops following the schema log. */
    @Override
    public void close() {
        applier.shutdownNow();
    }

    private void catchUpQuietly() {
        try {
            catchUp();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "could not apply the cluster's schema changes; retrying on the next one", e);
        }
    }

    /**
     * Catches up with what the cluster has now, not with what this node's watch has delivered: a
     * statement naming a table another node created a moment ago finds it here.
     *
     * @return the sequence of the last change applied, as {@link #appliedSequence()}
     */
    public long catchUpWithCluster() {
        schemaLog.sync();
        catchUp();
        return appliedSequence();
    }

    /** The sequence of the last schema change applied here (by the watch or by a catch-up). */
    public long appliedSequence() {
        synchronized (applyLock) {
            return applied;
        }
    }

    /** Applies every change of the schema log after the last one applied, in order. */
    public void catchUp() {
        synchronized (applyLock) {
            for (dev.tributary.node.coord.SchemaLog.Entry e : schemaLog.after(applied)) {
                applyReplicated(e);
            }
        }
    }

    /**
     * Applies one change of the log to this node: the dictionary, the DDL's redo record (so
     * captures see it) and the applied sequence in one transaction. A change that does not fit
     * (a concurrent DDL got there first) fails the same way on every node and is skipped.
     */
    private void applyReplicated(dev.tributary.node.coord.SchemaLog.Entry e) {
        RedoEntry rec = RedoCodec.decode(e.data());
        DdlChange ddl = rec.ddl();
        boolean mine = hostId.equals(rec.transactionId());
        byte[] seq = java.nio.ByteBuffer.allocate(8).putLong(e.sequence()).array();
        Long droppedTable = null;
        if (ddl.change() instanceof DictionaryChange.DropTable d) {
            droppedTable = dictionary.latest().table(d.keyspace(), d.name()).map(TableDef::objectNumber).orElse(null);
        }
        Long truncated = ddl.change() instanceof DictionaryChange.TruncateTable t
                ? dictionary.latest().table(t.keyspace(), t.name()).map(TableDef::objectNumber).orElse(null) : null;
        try {
            CommitPipeline.Committed<Void> c = pipeline.commit(ctx -> {
                dictionary.latest().apply(ctx.scn(), ddl.change()); // validates before anything is written
                ctx.put(NodeStore.Family.META, Keys.meta(DICT_PREFIX, ctx.scn()), DictionaryCodec.encode(ddl.change()));
                RedoEntry entry = new RedoEntry(ctx.scn(), ctx.transactionId(), rec.tag(), rec.session(), List.of(),
                        mine ? ddl : ddl.asReplicated());
                ctx.put(NodeStore.Family.REDO, Keys.scn(ctx.scn()), RedoCodec.encode(entry));
                ctx.put(NodeStore.Family.META, APPLIED_KEY, seq);
                if (truncated != null) {
                    // in the DDL's own batch: rows written before its SCN go, rows written after it stay
                    byte[] prefix = Keys.tablePrefix(truncated);
                    ctx.deleteRange(NodeStore.Family.ROWS, prefix, Keys.prefixEnd(prefix));
                }
                ctx.afterWrite(() -> dictionary.apply(ctx.scn(), ddl.change()));
                return null;
            });
            if (droppedTable != null) {
                truncateRows(droppedTable);
            }
            if (mine) {
                outcomes.put(e.sequence(), c);
            }
        } catch (RuntimeException ex) {
            store.put(NodeStore.Family.META, APPLIED_KEY, seq, true);
            if (mine) {
                outcomes.put(e.sequence(), ex);
            } else {
                LOG.log(System.Logger.Level.INFO, "schema change " + e.sequence() + " (" + ddl.ddlText() + ") does not apply: "
                        + ex.getMessage());
            }
        }
        applied = e.sequence();
    }

    /** Rebuilds the live dictionary from {@code meta} at node start. */
    public static MultiversionDictionary load(NodeStore store) {
        List<Map.Entry<Long, DictionaryChange>> changes = new ArrayList<>();
        byte[] prefix = Keys.meta(DICT_PREFIX);
        try (StoreIterator it = store.iterator(NodeStore.Family.META)) {
            for (it.seek(prefix); it.isValid() && Keys.hasPrefix(it.key(), prefix); it.next()) {
                changes.add(Map.entry(Keys.metaSuffix(it.key(), prefix.length), DictionaryCodec.decodeChange(it.value())));
            }
        }
        return MultiversionDictionary.replay(changes);
    }

    public StatementResult execute(Statement st, String text, SessionContext s) {
        if (st instanceof CreateKeyspace ck) {
            return createKeyspace(ck, text, s);
        }
        if (st instanceof DropKeyspace dk) {
            if (dictionary.latest().keyspace(dk.name()).isEmpty() && dk.ifExists()) {
                return StatementResult.of(s);
            }
            guardSystem(dk.name());
            return commit(v -> new DictionaryChange.DropKeyspace(v.requireKeyspace(dk.name()).name()), "DROP KEYSPACE",
                    dk.name(), null, "KEYSPACE", text, s, null);
        }
        if (st instanceof CreateType ct) {
            return createType(ct, text, s);
        }
        if (st instanceof DropType dt) {
            String ks = keyspace(dt.name(), s);
            if (dictionary.latest().userType(ks, dt.name().name()).isEmpty() && dt.ifExists()) {
                return StatementResult.of(s);
            }
            return commit(v -> new DictionaryChange.DropType(ks, dt.name().name()), "DROP TYPE", ks, dt.name().name(),
                    "TYPE", text, s, null);
        }
        if (st instanceof CreateTable ct) {
            return createTable(ct, text, s);
        }
        if (st instanceof AlterTable at) {
            return alterTable(at, text, s);
        }
        if (st instanceof DropTable dt) {
            String ks = keyspace(dt.name(), s);
            if (dictionary.latest().table(ks, dt.name().name()).isEmpty() && dt.ifExists()) {
                return StatementResult.of(s);
            }
            guardSystem(ks);
            // every node removes its rows of the table when it applies the drop
            return commit(v -> new DictionaryChange.DropTable(ks, dt.name().name()), "DROP TABLE", ks,
                    dt.name().name(), "TABLE", text, s, null);
        }
        if (st instanceof Truncate tr) {
            String ks = keyspace(tr.name(), s);
            guardSystem(ks);
            String name = dictionary.latest().requireTable(ks, tr.name().name()).name();
            // through the schema log like any DDL: every node empties its rows of the table, and the
            // redo carries it, so captures make it a DDL LCR (TRUNCATE TABLE) that applies replay
            return commit(v -> new DictionaryChange.TruncateTable(ks, name), "TRUNCATE TABLE", ks, name, "TABLE", text, s,
                    name);
        }
        throw new IllegalArgumentException("not a DDL statement: " + st.getClass().getSimpleName());
    }

    public static String keyspace(QualifiedName n, SessionContext s) {
        if (n.keyspace() != null) {
            return n.keyspace();
        }
        if (s.keyspace() == null) {
            throw new InvalidRequestException("no keyspace has been specified for " + n.name()
                    + ": USE a keyspace, or qualify the name as keyspace." + n.name());
        }
        return s.keyspace();
    }

    private static void guardSystem(String ks) {
        if (SYSTEM_KEYSPACES.contains(ks)) {
            throw new InvalidRequestException("keyspace " + ks + " is a system keyspace and cannot be changed");
        }
    }

    private StatementResult createKeyspace(CreateKeyspace ck, String text, SessionContext s) {
        guardSystem(ck.name());
        if (dictionary.latest().keyspace(ck.name()).isPresent()) {
            if (ck.ifNotExists()) {
                return StatementResult.of(s);
            }
            throw AlreadyExistsException.keyspace(ck.name());
        }
        Map<String, String> replication = new LinkedHashMap<>();
        boolean tablets = false;
        for (Map.Entry<String, Term> p : ck.properties().entrySet()) {
            switch (p.getKey()) {
                case "replication" -> {
                    for (Map.Entry<String, Object> e : options("replication", p.getValue()).entrySet()) {
                        replication.put(e.getKey(), String.valueOf(e.getValue()));
                    }
                }
                case "tablets" -> {
                    Object enabled = options("tablets", p.getValue()).get("enabled");
                    tablets = enabled != null && Boolean.parseBoolean(String.valueOf(enabled));
                }
                case "durable_writes" -> {
                    // accepted for compatibility: every Tributary write goes through the WAL
                }
                default -> throw new InvalidRequestException("unknown keyspace property '" + p.getKey() + "' in CREATE KEYSPACE "
                        + ck.name());
            }
        }
        if (!replication.containsKey("class")) {
            throw new InvalidRequestException("CREATE KEYSPACE " + ck.name() + " needs replication = {'class': ...}");
        }
        KeyspaceDef def = new KeyspaceDef(ck.name(), replication, tablets);
        try {
            def.replicationFactor();
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(e.getMessage());
        }
        return commit(v -> new DictionaryChange.CreateKeyspace(def), "CREATE KEYSPACE", ck.name(), null, "KEYSPACE", text, s,
                null);
    }

    private StatementResult createType(CreateType ct, String text, SessionContext s) {
        String ks = keyspace(ct.name(), s);
        guardSystem(ks);
        DictionaryVersion v0 = dictionary.latest();
        v0.requireKeyspace(ks);
        if (v0.userType(ks, ct.name().name()).isPresent()) {
            if (ct.ifNotExists()) {
                return StatementResult.of(s);
            }
            throw AlreadyExistsException.type(ks, ct.name().name());
        }
        List<CqlType.Field> fields = new ArrayList<>();
        for (FieldSpec f : ct.fields()) {
            fields.add(new CqlType.Field(f.name(), CqlType.parse(f.typeText(), v0.userTypeResolver(ks))));
        }
        UserTypeDef def = new UserTypeDef(ks, ct.name().name(), fields);
        return commit(v -> new DictionaryChange.CreateType(def), "CREATE TYPE", ks, ct.name().name(), "TYPE", text, s, null);
    }

    private StatementResult createTable(CreateTable ct, String text, SessionContext s) {
        String ks = keyspace(ct.name(), s);
        guardSystem(ks);
        DictionaryVersion v0 = dictionary.latest();
        v0.requireKeyspace(ks);
        if (v0.table(ks, ct.name().name()).isPresent()) {
            if (ct.ifNotExists()) {
                return StatementResult.of(s);
            }
            throw AlreadyExistsException.table(ks, ct.name().name());
        }
        if (ct.name().name().endsWith("_scylla_cdc_log")) {
            throw new InvalidRequestException("table names ending in _scylla_cdc_log are reserved for CDC logs: " + ct.name().name());
        }
        List<dev.tributary.dictionary.schema.ColumnSpec> cols = new ArrayList<>();
        for (ColumnSpec c : ct.columns()) {
            if (c.isStatic()) {
                throw new InvalidRequestException("static column " + c.name() + " in " + ks + "." + ct.name().name()
                        + ": static columns are not supported");
            }
            cols.add(new dev.tributary.dictionary.schema.ColumnSpec(c.name(), CqlType.parse(c.typeText(), v0.userTypeResolver(ks))));
        }
        Map<String, ClusteringOrder> orders = new LinkedHashMap<>();
        for (Map.Entry<String, Order> e : ct.clusteringOrder().entrySet()) {
            orders.put(e.getKey(), e.getValue() == Order.DESC ? ClusteringOrder.DESC : ClusteringOrder.ASC);
        }
        TableOptions options = tableOptions(TableOptions.DEFAULT, ct.properties(), ks + "." + ct.name().name());
        return commit(v -> new DictionaryChange.CreateTable(TableDef.create(ks, ct.name().name(), v.nextObjectNumber(), cols,
                ct.partitionKey(), ct.clusteringKey(), orders, options)), "CREATE TABLE", ks, ct.name().name(), "TABLE", text, s,
                ct.name().name());
    }

    private StatementResult alterTable(AlterTable at, String text, SessionContext s) {
        String ks = keyspace(at.name(), s);
        guardSystem(ks);
        String name = at.name().name();
        dictionary.latest().requireTable(ks, name);
        return commit(v -> {
            TableDef t = v.requireTable(ks, name);
            TableDef next = t;
            if (at.action() instanceof AddColumns add) {
                for (ColumnSpec c : add.columns()) {
                    next = next.withColumnAdded(c.name(), CqlType.parse(c.typeText(), v.userTypeResolver(ks)));
                }
            } else if (at.action() instanceof DropColumns drop) {
                for (String c : drop.columns()) {
                    next = next.withColumnDropped(c);
                }
            } else {
                WithProperties wp = (WithProperties) at.action();
                next = t.withOptions(tableOptions(t.options(), wp.properties(), t.qualifiedName()));
            }
            return new DictionaryChange.AlterTable(next);
        }, "ALTER TABLE", ks, name, "TABLE", text, s, name);
    }

    private static TableOptions tableOptions(TableOptions base, Map<String, Term> props, String table) {
        TableOptions out = base;
        for (Map.Entry<String, Term> p : props.entrySet()) {
            switch (p.getKey()) {
                case "cdc" -> {
                    Map<String, Object> opts = options("cdc", p.getValue());
                    // ALTER ... WITH cdc = {...} replaces the options, as in ScyllaDB
                    out = out.withCdc(CdcOptions.fromOptions(opts));
                }
                case "tablets" -> {
                    Object n = options("tablets", p.getValue()).get("min_tablet_count");
                    if (n == null) {
                        throw new InvalidRequestException("tablets option of " + table + " needs 'min_tablet_count'");
                    }
                    int count;
                    try {
                        count = Integer.parseInt(String.valueOf(n));
                    } catch (NumberFormatException e) {
                        throw new InvalidRequestException("min_tablet_count of " + table + " must be a number, got " + n);
                    }
                    if (count < 1) {
                        throw new InvalidRequestException("min_tablet_count of " + table + " must be positive, got " + count);
                    }
                    out = out.withMinTabletCount(count);
                }
                case "logging" -> {
                    // logging = false is NOLOGGING: the table's changes skip the redo thread, so no capture sees them
                    String v = p.getValue() instanceof BooleanLit b ? Boolean.toString(b.value())
                            : p.getValue() instanceof StringLit sl ? sl.value().toLowerCase(Locale.ROOT) : "";
                    if (!v.equals("true") && !v.equals("false")) {
                        throw new InvalidRequestException("logging of " + table + " must be true or false, got " + p.getValue().cql());
                    }
                    Map<String, String> other = new LinkedHashMap<>(out.other());
                    other.put("logging", v);
                    out = new TableOptions(out.cdc(), out.minTabletCount(), other);
                }
                case "comment", "default_time_to_live", "gc_grace_seconds", "compaction", "compression", "caching" -> {
                    Map<String, String> other = new LinkedHashMap<>(out.other());
                    other.put(p.getKey(), p.getValue().cql());
                    out = new TableOptions(out.cdc(), out.minTabletCount(), other);
                }
                default -> throw new InvalidRequestException("unknown table property '" + p.getKey() + "' for " + table);
            }
        }
        return out;
    }

    /** A map-literal property ({'k': v, ...}) as plain values. */
    static Map<String, Object> options(String property, Term t) {
        if (!(t instanceof MapLit m)) {
            throw new InvalidRequestException("property " + property + " must be a map such as {'key': value}, got " + t.cql());
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (MapLit.Entry e : m.entries()) {
            if (!(e.key() instanceof StringLit k)) {
                throw new InvalidRequestException("keys of property " + property + " must be strings, got " + e.key().cql());
            }
            Object v;
            if (e.value() instanceof StringLit sl) {
                v = sl.value();
            } else if (e.value() instanceof BooleanLit b) {
                v = b.value();
            } else if (e.value() instanceof IntegerLit i) {
                v = i.value();
            } else if (e.value() instanceof DecimalLit d) {
                v = d.text();
            } else {
                throw new InvalidRequestException("value of " + property + "." + k.value() + " must be a constant, got "
                        + e.value().cql());
            }
            out.put(k.value().toLowerCase(Locale.ROOT), v);
        }
        return out;
    }

    private interface ChangeMaker {
        DictionaryChange make(DictionaryVersion current);
    }

    /**
     * Runs a DDL change through the cluster's schema log: made and checked against the newest
     * dictionary, appended, then applied here like on every other node. The result is this node's
     * commit of it; if a concurrent change made it not fit, its error.
     */
    private StatementResult commit(ChangeMaker maker, String command, String owner, String name, String objectType,
            String text, SessionContext s, String baseTable) {
        catchUp();
        DictionaryVersion current = dictionary.latest();
        DictionaryChange change = maker.make(current);
        current.apply(current.scn(), change); // validates before anything is published
        DdlChange ddl = new DdlChange(change, command, owner, name == null ? owner : name, objectType, text,
                s.keyspace() == null ? "" : s.keyspace(), baseTable == null ? null : owner, baseTable);
        RedoEntry record = new RedoEntry(0, hostId, s.tag(), new SessionInfo(s.username(), s.sessionId(), 0, threadNumber),
                List.of(), ddl);
        long sequence = schemaLog.append(RedoCodec.encode(record));
        catchUp();
        Object outcome = outcomes.remove(sequence);
        if (outcome instanceof RuntimeException e) {
            throw e;
        }
        if (!(outcome instanceof CommitPipeline.Committed<?> c)) {
            throw new IllegalStateException("schema change " + sequence + " was appended but not applied");
        }
        if (change instanceof DictionaryChange.CreateTable ct) {
            tableChanged.accept(ct.table());
        } else if (change instanceof DictionaryChange.AlterTable at) {
            tableChanged.accept(at.newDef());
        }
        return StatementResult.committed(s, c.scn(), c.transactionId());
    }

    private void truncateRows(long objectNumber) {
        byte[] prefix = Keys.tablePrefix(objectNumber);
        try (org.rocksdb.WriteBatch b = new org.rocksdb.WriteBatch()) {
            b.deleteRange(store.handle(NodeStore.Family.ROWS), prefix, Keys.prefixEnd(prefix));
            store.write(b, pipeline.mode() == CommitPipeline.SyncMode.BATCH);
        } catch (org.rocksdb.RocksDBException e) {
            throw dev.tributary.node.errors.StorageException.from("truncate", e);
        }
    }
}
