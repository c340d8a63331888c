package dev.tributary.node.exec;

import dev.tributary.capture.StreamRouter;
import dev.tributary.capture.redo.ColumnValue;
import dev.tributary.capture.redo.RedoCodec;
import dev.tributary.capture.redo.RedoEntry;
import dev.tributary.capture.redo.RowChange;
import dev.tributary.capture.redo.RowOperation;
import dev.tributary.capture.redo.SessionInfo;
import dev.tributary.cql.ast.AddToColumn;
import dev.tributary.cql.ast.Assignment;
import dev.tributary.cql.ast.ColumnLhs;
import dev.tributary.cql.ast.Delete;
import dev.tributary.cql.ast.Insert;
import dev.tributary.cql.ast.ModificationStatement;
import dev.tributary.cql.ast.Operator;
import dev.tributary.cql.ast.PrependToColumn;
import dev.tributary.cql.ast.QualifiedName;
import dev.tributary.cql.ast.Relation;
import dev.tributary.cql.ast.Selection;
import dev.tributary.cql.ast.SetColumn;
import dev.tributary.cql.ast.SetElement;
import dev.tributary.cql.ast.SubtractFromColumn;
import dev.tributary.cql.ast.Term;
import dev.tributary.cql.ast.Update;
import dev.tributary.cql.ast.Using;
import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.dictionary.errors.UnknownColumnException;
import dev.tributary.dictionary.errors.UnknownTableException;
import dev.tributary.generations.ReplicaPlacement;
import dev.tributary.dictionary.schema.ColumnDef;
import dev.tributary.dictionary.schema.ColumnKind;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.dictionary.types.ValueCodec;
import dev.tributary.dictionary.types.Values;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.node.errors.TributaryException;
import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.node.storage.StoredRow;
import dev.tributary.node.time.HybridLogicalClock;
import dev.tributary.node.write.CommitPipeline;
import dev.tributary.node.write.IdempotencyKeys;
import dev.tributary.node.write.TxContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The write path: INSERT, UPDATE, DELETE and batches. Statements are resolved and typed on the
 * caller's thread; the committer then reads the rows they change, applies last-write-wins per
 * cell, and writes base rows plus one redo entry (object number, internal column numbers, new
 * and old values, transaction id, SCN) in one atomic WriteBatch.
 */
public final class WriteService {
    private final CommitPipeline pipeline;
    private final MultiversionDictionary dictionary;
    private final BaseTables tables;
    private final StreamRouter router;
    private final HybridLogicalClock clock;
    private final long maxSkewMillis;
    private final RoutingFence fence = new RoutingFence();
    private final int maxValueBytes;
    private final int threadNumber;
    private final boolean forceLogging;
    private final IdempotencyKeys idempotency;
    private final Cluster cluster;

    /** What a write needs to know of the cluster. */
    public interface Cluster {
        /** The members a keyspace's replicas can be placed on (live or down, not leaving). */
        int nodes();

        /** Null while this node may take writes, else why not (it lost its ZooKeeper session). */
        String refusesWritesBecause();
    }

    public WriteService(CommitPipeline pipeline, MultiversionDictionary dictionary, BaseTables tables, StreamRouter router,
            HybridLogicalClock clock, long maxSkewMillis, int maxValueBytes, int threadNumber, boolean forceLogging,
            IdempotencyKeys idempotency, Cluster cluster) {
        this.cluster = cluster;
        this.forceLogging = forceLogging;
        this.idempotency = idempotency;
        this.pipeline = pipeline;
        this.dictionary = dictionary;
        this.tables = tables;
        this.router = router;
        this.clock = clock;
        this.maxSkewMillis = maxSkewMillis;
        this.maxValueBytes = maxValueBytes;
        this.threadNumber = threadNumber;
    }

    /**
     * Runs modification statements as one transaction: one transaction id, one commit SCN.
     * {@code bound.get(i)} holds the bound values of statement i.
     *
     * @param placement where the partitions live: when another node owns them all, this throws
     *                  {@link Placement.NotOwnerException} before anything is written
     * @param idempotencyKey null, or the request's key: a write whose key was committed within
     *                  the window is not applied again, and answers with the first commit
     */
    public StatementResult execute(List<ModificationStatement> statements, Using batchUsing, SessionContext session,
            List<List<Object>> bound, Resolver resolver, Placement placement, String idempotencyKey) {
        if (idempotencyKey != null) {
            IdempotencyKeys.check(idempotencyKey);
        }
        String refused = cluster.refusesWritesBecause();
        if (refused != null) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, refused);
        }
        List<PlannedWrite> plan = new ArrayList<>();
        // one resolution per table name for the whole transaction, not one per statement
        Map<QualifiedName, TableDef> resolved = new HashMap<>();
        Resolver once = (name, s) -> resolved.computeIfAbsent(name, n -> {
            TableDef t = resolver.writableTable(n, s);
            checkReplication(t.keyspace());
            return t;
        });
        for (int i = 0; i < statements.size(); i++) {
            plan.addAll(plan(statements.get(i), batchUsing, session, bound.get(i), once));
        }
        CommitPipeline.Committed<IdempotencyKeys.Outcome> c = placement == Placement.LOCAL ? commit(plan, session, idempotencyKey)
                : fence.route(() -> {
                    java.util.Set<Placement.RoutingKey> keys = new java.util.HashSet<>();
                    for (PlannedWrite w : plan) {
                        keys.add(new Placement.RoutingKey(w.table().objectNumber(), w.encodedKey().token()));
                    }
                    String owner = placement.remoteOwner(keys);
                    if (owner != null) {
                        throw new Placement.NotOwnerException(owner);
                    }
                    return commit(plan, session, idempotencyKey);
                });
        return StatementResult.committed(session, c.result().scn(), c.result().transactionId());
    }

    /**
     * Refuses a write to a keyspace whose replication factor the cluster cannot meet, before
     * anything is queued: each replica needs a node of its own.
     */
    private void checkReplication(String keyspace) {
        dictionary.latest().keyspace(keyspace).ifPresent(k -> {
            try {
                ReplicaPlacement.checkAchievable("keyspace " + k.name(), k.replicationFactor(), cluster.nodes());
            } catch (ReplicaPlacement.ReplicationUnavailableException e) {
                throw new TributaryException(ErrorCode.UNAVAILABLE, e.getMessage(), e);
            }
        });
    }

    /** Applies the plan, or — for a key committed before — nothing; either way the outcome to answer with. */
    private CommitPipeline.Committed<IdempotencyKeys.Outcome> commit(List<PlannedWrite> plan, SessionContext session,
            String idempotencyKey) {
        return pipeline.commit(ctx -> {
            if (idempotencyKey != null) {
                java.util.Optional<IdempotencyKeys.Outcome> first = idempotency.lookup(ctx, idempotencyKey);
                if (first.isPresent()) {
                    return first.get();
                }
            }
            apply(ctx, plan, session);
            if (idempotencyKey != null) {
                idempotency.record(ctx, idempotencyKey);
            }
            return new IdempotencyKeys.Outcome(ctx.scn(), ctx.transactionId());
        });
    }

    /** The fence this node's routed writes pass, for range streaming to wait on. */
    public RoutingFence fence() {
        return fence;
    }

    /** Resolves a table name against the session (system and log tables are refused). */
    public interface Resolver {
        TableDef writableTable(dev.tributary.cql.ast.QualifiedName name, SessionContext session);
    }

    // ---------------------------------------------------------------- planning (caller thread)

    private List<PlannedWrite> plan(ModificationStatement st, Using batchUsing, SessionContext s, List<Object> bound,
            Resolver resolver) {
        if (st instanceof Insert ins) {
            TableDef t = resolver.writableTable(ins.table(), s);
            Map<String, Object> values = new LinkedHashMap<>();
            for (int i = 0; i < ins.columns().size(); i++) {
                ColumnDef c = column(t, ins.columns().get(i));
                values.put(c.name(), typed(c, ins.values().get(i), bound));
            }
            List<Object> pk = keyValues(t, t.partitionKey(), values, "partition key");
            List<Object> ck = keyValues(t, t.clusteringKey(), values, "clustering key");
            Map<String, CellOp> cells = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : values.entrySet()) {
                if (!column(t, e.getKey()).isPrimaryKey()) {
                    cells.put(e.getKey(), new CellOp.Set(e.getValue()));
                }
            }
            return List.of(new PlannedWrite(t, pk, ck, List.of(), cells, true, false, timestamp(ins.using(), batchUsing, bound),
                    ttl(ins.using(), bound)));
        }
        if (st instanceof Update up) {
            TableDef t = resolver.writableTable(up.table(), s);
            Map<String, CellOp> cells = new LinkedHashMap<>();
            for (Assignment a : up.assignments()) {
                assignment(t, a, bound, cells);
            }
            long ts = timestamp(up.using(), batchUsing, bound);
            int ttl = ttl(up.using(), bound);
            // an IN on key columns updates every combination of the listed keys, in one transaction
            List<PlannedWrite> out = new ArrayList<>();
            for (Map<String, Object> key : keyCombinations(t, keyRestrictions(t, up.where(), bound))) {
                out.add(new PlannedWrite(t, keyValues(t, t.partitionKey(), key, "partition key"),
                        keyValues(t, t.clusteringKey(), key, "clustering key"), List.of(), cells, false, false, ts, ttl));
            }
            return out;
        }
        Delete del = (Delete) st;
        TableDef t = resolver.writableTable(del.table(), s);
        long ts = timestamp(del.using(), batchUsing, bound);
        List<PlannedWrite.RangeBound> range = new ArrayList<>();
        Map<String, Object> key = deleteRestrictions(t, del.where(), bound, range);
        List<Object> pk = keyValues(t, t.partitionKey(), key, "partition key");
        List<Object> ck = new ArrayList<>();
        for (ColumnDef c : t.clusteringKey()) {
            if (!key.containsKey(c.name())) {
                break;
            }
            ck.add(key.get(c.name()));
        }
        if (del.columns().isEmpty()) {
            return List.of(new PlannedWrite(t, pk, ck, range, Map.of(), false, true, ts, 0));
        }
        if (ck.size() != t.clusteringKey().size() || !range.isEmpty()) {
            throw new InvalidRequestException("deleting columns of " + t.qualifiedName()
                    + " needs the full primary key in the WHERE clause");
        }
        Map<String, CellOp> cells = new LinkedHashMap<>();
        for (Selection sel : del.columns()) {
            ColumnDef c = column(t, sel.column());
            if (c.isPrimaryKey()) {
                throw new InvalidRequestException("cannot delete primary key column " + c.name() + " of " + t.qualifiedName());
            }
            if (sel.element() == null) {
                cells.put(c.name(), new CellOp.Set(null));
            } else {
                cells.put(c.name(), new CellOp.RemoveElement(Terms.TYPER.toValue(elementKeyType(c), sel.element(), c.name(), bound)));
            }
        }
        return List.of(new PlannedWrite(t, pk, ck, List.of(), cells, false, false, ts, 0));
    }

    private static ColumnDef column(TableDef t, String name) {
        return t.column(name).orElseThrow(() -> new UnknownColumnException(t.keyspace(), t.name(), name));
    }

    private Object typed(ColumnDef c, Term term, List<Object> bound) {
        Object v = Terms.TYPER.toValue(c.type(), term, c.name(), bound);
        if (v != null) {
            Values.check(c.type(), v, c.name());
            v = Values.normalize(c.type(), v);
            int size = Values.sizeInBytes(c.type(), v);
            if (size > maxValueBytes) {
                throw new InvalidRequestException(ErrorCode.VALUE_TOO_LARGE, "value of column " + c.name() + " is " + size
                        + " bytes; the largest allowed is " + maxValueBytes + " bytes (--max-value-bytes)");
            }
        }
        return v;
    }

    private static List<Object> keyValues(TableDef t, List<ColumnDef> keyCols, Map<String, Object> values, String what) {
        List<Object> out = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (ColumnDef c : keyCols) {
            if (!values.containsKey(c.name())) {
                missing.add(c.name());
            } else if (values.get(c.name()) == null) {
                throw new InvalidRequestException("invalid null value for " + what + " column " + c.name() + " of " + t.qualifiedName());
            } else {
                out.add(values.get(c.name()));
            }
        }
        if (!missing.isEmpty()) {
            throw new InvalidRequestException("some " + what + " parts of " + t.qualifiedName() + " are missing: "
                    + String.join(", ", missing));
        }
        return out;
    }

    /** Every combination of the values an UPDATE's WHERE gives its key columns. */
    private static List<Map<String, Object>> keyCombinations(TableDef t, Map<String, List<Object>> restrictions) {
        List<Map<String, Object>> out = new ArrayList<>();
        out.add(new LinkedHashMap<>());
        for (ColumnDef c : t.primaryKeyColumns()) {
            List<Object> values = restrictions.get(c.name());
            if (values == null) {
                continue; // reported as missing by keyValues
            }
            List<Map<String, Object>> next = new ArrayList<>();
            for (Map<String, Object> prefix : out) {
                for (Object v : values) {
                    Map<String, Object> k = new LinkedHashMap<>(prefix);
                    k.put(c.name(), v);
                    next.add(k);
                }
            }
            out = next;
        }
        return out;
    }

    /** An UPDATE's WHERE: '=' or IN on every primary-key column. */
    private Map<String, List<Object>> keyRestrictions(TableDef t, List<Relation> where, List<Object> bound) {
        Map<String, List<Object>> key = new LinkedHashMap<>();
        for (Relation r : where) {
            if (!(r.lhs() instanceof ColumnLhs cl)) {
                throw new InvalidRequestException("only column = value restrictions are allowed in the WHERE clause of an UPDATE on "
                        + t.qualifiedName());
            }
            ColumnDef c = column(t, cl.column());
            if (!c.isPrimaryKey()) {
                throw new InvalidRequestException("non PRIMARY KEY column " + c.name() + " found in the WHERE clause of an UPDATE on "
                        + t.qualifiedName());
            }
            if (r.op() == Operator.EQ) {
                List<Object> one = new ArrayList<>();
                one.add(Terms.TYPER.toValue(c.type(), r.rhs(), c.name(), bound));
                key.put(c.name(), one);
            } else if (r.op() == Operator.IN) {
                Object list = Terms.TYPER.toValue(new CqlType.ListType(c.type(), false), inList(r.rhs()), c.name(), bound);
                key.put(c.name(), list == null ? List.of() : new ArrayList<>((List<?>) list));
            } else {
                throw new InvalidRequestException("the WHERE clause of an UPDATE on " + t.qualifiedName()
                        + " needs '=' or IN on every primary key column; found " + r.op().symbol() + " on " + c.name());
            }
        }
        return key;
    }

    private static Term inList(Term t) {
        return t instanceof dev.tributary.cql.ast.TupleLit tl ? new dev.tributary.cql.ast.ListLit(tl.elements()) : t;
    }

    /** A DELETE's WHERE: the partition key, a clustering prefix, and at most a range on the next column. */
    private Map<String, Object> deleteRestrictions(TableDef t, List<Relation> where, List<Object> bound,
            List<PlannedWrite.RangeBound> range) {
        Map<String, Object> key = new LinkedHashMap<>();
        for (Relation r : where) {
            if (!(r.lhs() instanceof ColumnLhs cl)) {
                throw new InvalidRequestException("only column restrictions are allowed in the WHERE clause of a DELETE on "
                        + t.qualifiedName());
            }
            ColumnDef c = column(t, cl.column());
            if (!c.isPrimaryKey()) {
                throw new InvalidRequestException("non PRIMARY KEY column " + c.name() + " found in the WHERE clause of a DELETE on "
                        + t.qualifiedName());
            }
            Object v = Terms.TYPER.toValue(c.type(), r.rhs(), c.name(), bound);
            switch (r.op()) {
                case EQ -> key.put(c.name(), v);
                case LT, LTE, GT, GTE -> {
                    if (c.kind() != ColumnKind.CLUSTERING) {
                        throw new InvalidRequestException("range restriction on partition key column " + c.name()
                                + " in a DELETE on " + t.qualifiedName());
                    }
                    range.add(new PlannedWrite.RangeBound(c.keyPosition(), r.op(), v));
                }
                default -> throw new InvalidRequestException("operator " + r.op().symbol() + " is not supported in a DELETE on "
                        + t.qualifiedName());
            }
        }
        int prefix = 0;
        for (ColumnDef c : t.clusteringKey()) {
            if (!key.containsKey(c.name())) {
                break;
            }
            prefix++;
        }
        for (ColumnDef c : t.clusteringKey()) {
            if (key.containsKey(c.name()) && c.keyPosition() >= prefix) {
                throw new InvalidRequestException("clustering column " + c.name() + " of " + t.qualifiedName()
                        + " is restricted but a preceding clustering column is not");
            }
        }
        for (PlannedWrite.RangeBound b : range) {
            if (b.column() != prefix) {
                throw new InvalidRequestException("a range delete on " + t.qualifiedName()
                        + " may only restrict the first clustering column not restricted by '='");
            }
        }
        return key;
    }

    private void assignment(TableDef t, Assignment a, List<Object> bound, Map<String, CellOp> cells) {
        ColumnDef c = column(t, assignedColumn(a));
        if (c.isPrimaryKey()) {
            throw new InvalidRequestException("PRIMARY KEY part " + c.name() + " found in SET part of an UPDATE on " + t.qualifiedName());
        }
        CqlType type = c.type();
        CellOp op;
        if (a instanceof SetColumn sc) {
            op = new CellOp.Set(typed(c, sc.value(), bound));
        } else if (a instanceof SetElement se) {
            op = new CellOp.PutElement(Terms.TYPER.toValue(elementKeyType(c), se.key(), c.name(), bound),
                    Terms.TYPER.toValue(elementValueType(c), se.value(), c.name(), bound));
        } else if (a instanceof AddToColumn ac) {
            requireCollectionOrCounter(t, c);
            op = new CellOp.Add(typed(c, ac.value(), bound));
        } else if (a instanceof PrependToColumn pc) {
            if (!(type instanceof CqlType.ListType)) {
                throw new InvalidRequestException("cannot prepend to non-list column " + c.name() + " of type " + type.cql());
            }
            @SuppressWarnings("unchecked")
            List<Object> v = (List<Object>) typed(c, pc.value(), bound);
            op = new CellOp.Prepend(v);
        } else {
            requireCollectionOrCounter(t, c);
            SubtractFromColumn sc = (SubtractFromColumn) a;
            CqlType removeType = type instanceof CqlType.MapType m ? new CqlType.SetType(m.key(), false) : type;
            op = new CellOp.Remove(Terms.TYPER.toValue(removeType, sc.value(), c.name(), bound));
        }
        if (cells.containsKey(c.name()) && (op instanceof CellOp.Set || cells.get(c.name()) instanceof CellOp.Set)) {
            throw new InvalidRequestException("multiple assignments to column " + c.name());
        }
        cells.put(c.name(), op);
    }

    static String assignedColumn(Assignment a) {
        if (a instanceof SetColumn sc) {
            return sc.column();
        } else if (a instanceof SetElement se) {
            return se.column();
        } else if (a instanceof AddToColumn ac) {
            return ac.column();
        } else if (a instanceof PrependToColumn pc) {
            return pc.column();
        }
        return ((SubtractFromColumn) a).column();
    }

    private static void requireCollectionOrCounter(TableDef t, ColumnDef c) {
        boolean counter = c.type() instanceof CqlType.Native n && n.kind() == CqlType.Kind.COUNTER;
        if (!(c.type().isCollection() && !c.type().frozen()) && !counter) {
            throw new InvalidRequestException("invalid operation (" + c.name() + " = " + c.name()
                    + " + ...) for non-counter, non-collection column " + c.name() + " of " + t.qualifiedName());
        }
    }

    private static CqlType elementKeyType(ColumnDef c) {
        if (c.type() instanceof CqlType.MapType m) {
            return m.key();
        }
        if (c.type() instanceof CqlType.ListType) {
            return CqlType.of(CqlType.Kind.INT);
        }
        throw new InvalidRequestException("column " + c.name() + " of type " + c.type().cql() + " has no elements to address");
    }

    private static CqlType elementValueType(ColumnDef c) {
        if (c.type() instanceof CqlType.MapType m) {
            return m.value();
        }
        if (c.type() instanceof CqlType.ListType l) {
            return l.element();
        }
        throw new InvalidRequestException("column " + c.name() + " of type " + c.type().cql() + " has no elements to address");
    }

    private long timestamp(Using using, Using batchUsing, List<Object> bound) {
        Term ts = using != null && using.timestamp() != null ? using.timestamp()
                : batchUsing != null ? batchUsing.timestamp() : null;
        if (ts == null) {
            return Long.MIN_VALUE;
        }
        long micros = (Long) Terms.TYPER.toValue(CqlType.of(CqlType.Kind.BIGINT), ts, "USING TIMESTAMP", bound);
        long skew = micros / 1000 - clock.wallMillis();
        if (Math.abs(skew) > maxSkewMillis) {
            throw new InvalidRequestException(ErrorCode.WRITE_TIMESTAMP_OUT_OF_RANGE, "write timestamp " + micros
                    + " is " + Math.abs(skew) + " ms " + (skew > 0 ? "ahead of" : "behind") + " the node's clock; at most "
                    + maxSkewMillis + " ms is accepted (--max-write-skew)");
        }
        return micros;
    }

    private static int ttl(Using using, List<Object> bound) {
        if (using == null || using.ttl() == null) {
            return 0;
        }
        int ttl = (Integer) Terms.TYPER.toValue(CqlType.of(CqlType.Kind.INT), using.ttl(), "USING TTL", bound);
        if (ttl < 0 || ttl > 630_720_000) {
            throw new InvalidRequestException("TTL " + ttl + " is out of range (0 to 630720000 seconds)");
        }
        return ttl;
    }

    // ---------------------------------------------------------------- applying (committer thread)

    private void apply(TxContext ctx, List<PlannedWrite> plan, SessionContext session) {
        long commitMicros = HybridLogicalClock.microsOf(ctx.scn());
        long nowMillis = clock.wallMillis();
        // Checked again against the commit SCN, not only against the clock when the statement was
        // typed: a consumer's safe time relies on no LCR being more than the skew behind its
        // entry's SCN (docs/CONSUMERS.md), and time may pass in the commit queue.
        long oldestMicros = (HybridLogicalClock.millisOf(ctx.scn()) - maxSkewMillis) * 1000;
        for (PlannedWrite w : plan) {
            if (w.timestampMicros() != Long.MIN_VALUE && w.timestampMicros() < oldestMicros) {
                throw new InvalidRequestException(ErrorCode.WRITE_TIMESTAMP_OUT_OF_RANGE, "write timestamp "
                        + w.timestampMicros() + " is more than " + maxSkewMillis + " ms behind the commit time "
                        + HybridLogicalClock.millisOf(ctx.scn()) + " ms; at most " + maxSkewMillis
                        + " ms is accepted (--max-write-skew)");
            }
        }
        List<RowChange> changes = new ArrayList<>();
        for (PlannedWrite w : plan) {
            TableDef t = dictionary.latest().table(w.table().objectNumber()).orElseThrow(
                    () -> new UnknownTableException(w.table().keyspace(), w.table().name()));
            long ts = w.timestampMicros() == Long.MIN_VALUE ? commitMicros : w.timestampMicros();
            byte[] pk = w.encodedKey().bytes();
            long token = w.encodedKey().token();
            if (t.options().cdc().enabled()) {
                // fails the whole transaction, before anything is written, when no generation is in force
                router.streamFor(t, token, Math.floorDiv(ts, 1000));
            }
            // NOLOGGING (logging = false) keeps the change out of the redo, unless the node forces logging
            List<RowChange> redo = !forceLogging && "false".equals(t.options().other().get("logging")) ? new ArrayList<>() : changes;
            if (w.deleteRows()) {
                deleteRows(ctx, t, w, pk, token, ts, nowMillis, redo);
            } else {
                writeRow(ctx, t, w, pk, token, ts, nowMillis, redo);
            }
        }
        if (!changes.isEmpty()) {
            SessionInfo who = new SessionInfo(session.username(), session.sessionId(), 0, threadNumber);
            RedoEntry entry = new RedoEntry(ctx.scn(), ctx.transactionId(), session.tag(), who, changes, null);
            ctx.put(NodeStore.Family.REDO, Keys.scn(ctx.scn()), RedoCodec.encode(entry));
        }
    }

    private void writeRow(TxContext ctx, TableDef t, PlannedWrite w, byte[] pk, long token, long ts, long nowMillis,
            List<RowChange> changes) {
        List<byte[]> ck = BaseTables.clusteringBytes(t, w.clustering());
        byte[] key = Keys.rowKey(t.objectNumber(), token, pk, ck);
        byte[] oldBytes = ctx.get(NodeStore.Family.ROWS, key);
        StoredRow old = oldBytes == null ? StoredRow.empty() : StoredRow.decode(oldBytes);
        boolean existed = old.liveAt(nowMillis);
        long expiry = w.ttlSeconds() == 0 ? 0 : nowMillis + w.ttlSeconds() * 1000L;
        Map<Integer, StoredRow.Cell> cells = new LinkedHashMap<>();
        for (Map.Entry<Integer, StoredRow.Cell> e : old.cells().entrySet()) {
            if (e.getValue().liveAt(nowMillis)) {
                cells.put(e.getKey(), e.getValue());
            }
        }
        List<ColumnValue> newValues = new ArrayList<>();
        for (Map.Entry<String, CellOp> e : w.cells().entrySet()) {
            ColumnDef c = t.column(e.getKey()).orElseThrow(() -> new UnknownColumnException(t.keyspace(), t.name(), e.getKey()));
            StoredRow.Cell prev = cells.get(c.columnNumber());
            if (prev != null && prev.writeTime() > ts) {
                continue; // last write wins, per cell
            }
            Object current = prev == null || prev.value() == null ? null : ValueCodec.decode(c.type(), prev.value());
            Object next = CellOps.apply(c, e.getValue(), current);
            byte[] enc = next == null ? null : ValueCodec.encode(c.type(), next);
            if (enc == null) {
                cells.remove(c.columnNumber());
            } else {
                cells.put(c.columnNumber(), new StoredRow.Cell(enc, ts, expiry));
            }
            newValues.add(new ColumnValue(c.columnNumber(), enc));
        }
        long marker = old.markerWriteTime();
        long markerExpiry = old.markerExpiryMillis();
        if (w.rowMarker() && (marker == StoredRow.NO_MARKER || marker <= ts || !old.hasLiveMarker(nowMillis))) {
            marker = ts;
            markerExpiry = expiry;
        }
        StoredRow next = new StoredRow(marker, markerExpiry, cells);
        if (next.liveAt(nowMillis)) {
            ctx.put(NodeStore.Family.ROWS, key, next.encode());
        } else {
            ctx.delete(NodeStore.Family.ROWS, key);
        }
        if (newValues.isEmpty() && !(w.rowMarker() && !existed)) {
            return; // nothing changed (every cell lost to a newer write)
        }
        changes.add(new RowChange(t.objectNumber(), existed ? RowOperation.UPDATE : RowOperation.INSERT, pk,
                keyColumns(t, w.partitionKey(), w.clustering()), newValues, existed ? liveCells(old, nowMillis) : List.of(),
                ts, w.ttlSeconds()));
    }

    private void deleteRows(TxContext ctx, TableDef t, PlannedWrite w, byte[] pk, long token, long ts, long nowMillis,
            List<RowChange> changes) {
        Comparator<Object>[] cmps = comparators(t);
        for (BaseTables.KeyedRow r : tables.partition(t, pk)) {
            if (!matchesPrefix(r.clusteringValues(), w.clustering(), cmps) || !inRange(r.clusteringValues(), w.rangeBound(), cmps)) {
                continue;
            }
            byte[] key = Keys.rowKey(t.objectNumber(), token, pk, r.key().clustering());
            byte[] current = ctx.get(NodeStore.Family.ROWS, key);
            if (current == null) {
                continue;
            }
            StoredRow old = StoredRow.decode(current);
            ctx.delete(NodeStore.Family.ROWS, key);
            if (old.liveAt(nowMillis)) {
                changes.add(new RowChange(t.objectNumber(), RowOperation.DELETE, pk,
                        keyColumns(t, w.partitionKey(), r.clusteringValues()), List.of(), liveCells(old, nowMillis), ts, 0));
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Comparator<Object>[] comparators(TableDef t) {
        List<ColumnDef> ck = t.clusteringKey();
        Comparator<Object>[] out = new Comparator[ck.size()];
        for (int i = 0; i < ck.size(); i++) {
            out[i] = dev.tributary.dictionary.types.ValueComparator.of(ck.get(i).type());
        }
        return out;
    }

    private static boolean matchesPrefix(List<Object> row, List<Object> prefix, Comparator<Object>[] cmps) {
        for (int i = 0; i < prefix.size(); i++) {
            if (cmps[i].compare(row.get(i), prefix.get(i)) != 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean inRange(List<Object> row, List<PlannedWrite.RangeBound> bounds, Comparator<Object>[] cmps) {
        for (PlannedWrite.RangeBound b : bounds) {
            int c = cmps[b.column()].compare(row.get(b.column()), b.value());
            boolean ok = switch (b.op()) {
                case LT -> c < 0;
                case LTE -> c <= 0;
                case GT -> c > 0;
                case GTE -> c >= 0;
                default -> true;
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static List<ColumnValue> keyColumns(TableDef t, List<Object> pk, List<Object> ck) {
        List<ColumnValue> out = new ArrayList<>();
        List<ColumnDef> pkCols = t.partitionKey();
        for (int i = 0; i < pkCols.size(); i++) {
            out.add(new ColumnValue(pkCols.get(i).columnNumber(), ValueCodec.encode(pkCols.get(i).type(), pk.get(i))));
        }
        List<ColumnDef> ckCols = t.clusteringKey();
        for (int i = 0; i < ck.size(); i++) {
            out.add(new ColumnValue(ckCols.get(i).columnNumber(), ValueCodec.encode(ckCols.get(i).type(), ck.get(i))));
        }
        return out;
    }

    private static List<ColumnValue> liveCells(StoredRow row, long nowMillis) {
        List<ColumnValue> out = new ArrayList<>();
        for (Map.Entry<Integer, StoredRow.Cell> e : row.cells().entrySet()) {
            if (e.getValue().liveAt(nowMillis) && e.getValue().value() != null) {
                out.add(new ColumnValue(e.getKey(), e.getValue().value()));
            }
        }
        return out;
    }

    /** Collection and counter arithmetic for {@link CellOp}s. */
    static final class CellOps {
        private CellOps() {
        }

        @SuppressWarnings("unchecked")
        static Object apply(ColumnDef c, CellOp op, Object current) {
            CqlType type = c.type();
            if (op instanceof CellOp.Set s) {
                return s.value();
            }
            if (op instanceof CellOp.Add a) {
                if (type instanceof CqlType.Native) {
                    long base = current == null ? 0 : (Long) current;
                    return base + (Long) a.value();
                }
                if (type instanceof CqlType.ListType) {
                    List<Object> out = current == null ? new ArrayList<>() : new ArrayList<>((List<Object>) current);
                    out.addAll((List<Object>) a.value());
                    return Values.normalize(type, out);
                }
                if (type instanceof CqlType.SetType) {
                    Set<Object> out = current == null ? new LinkedHashSet<>() : new LinkedHashSet<>((Set<Object>) current);
                    out.addAll((Set<Object>) a.value());
                    return Values.normalize(type, out);
                }
                Map<Object, Object> out = current == null ? new LinkedHashMap<>() : new LinkedHashMap<>((Map<Object, Object>) current);
                out.putAll((Map<Object, Object>) a.value());
                return Values.normalize(type, out);
            }
            if (op instanceof CellOp.Prepend p) {
                List<Object> out = new ArrayList<>(p.value());
                if (current != null) {
                    out.addAll((List<Object>) current);
                }
                return Values.normalize(type, out);
            }
            if (op instanceof CellOp.Remove r) {
                if (type instanceof CqlType.Native) {
                    long base = current == null ? 0 : (Long) current;
                    return base - (Long) r.value();
                }
                if (current == null) {
                    return null;
                }
                if (type instanceof CqlType.ListType) {
                    List<Object> out = new ArrayList<>((List<Object>) current);
                    out.removeAll((List<Object>) r.value());
                    return out.isEmpty() ? null : Values.normalize(type, out);
                }
                if (type instanceof CqlType.SetType) {
                    Set<Object> out = new LinkedHashSet<>((Set<Object>) current);
                    out.removeAll((Set<Object>) r.value());
                    return out.isEmpty() ? null : Values.normalize(type, out);
                }
                Map<Object, Object> out = new LinkedHashMap<>((Map<Object, Object>) current);
                for (Object k : (Set<Object>) r.value()) {
                    out.remove(k);
                }
                return out.isEmpty() ? null : Values.normalize(type, out);
            }
            if (op instanceof CellOp.PutElement pe) {
                if (type instanceof CqlType.MapType) {
                    Map<Object, Object> out = current == null ? new LinkedHashMap<>() : new LinkedHashMap<>((Map<Object, Object>) current);
                    if (pe.value() == null) {
                        out.remove(pe.key());
                    } else {
                        out.put(pe.key(), pe.value());
                    }
                    return out.isEmpty() ? null : Values.normalize(type, out);
                }
                List<Object> out = current == null ? new ArrayList<>() : new ArrayList<>((List<Object>) current);
                int idx = (Integer) pe.key();
                if (idx < 0 || idx >= out.size()) {
                    throw new InvalidRequestException("list index " + idx + " out of bound, list has size " + out.size()
                            + " (column " + c.name() + ")");
                }
                out.set(idx, pe.value());
                return Values.normalize(type, out);
            }
            CellOp.RemoveElement re = (CellOp.RemoveElement) op;
            if (current == null) {
                return null;
            }
            if (type instanceof CqlType.MapType) {
                Map<Object, Object> out = new LinkedHashMap<>((Map<Object, Object>) current);
                out.remove(re.key());
                return out.isEmpty() ? null : Values.normalize(type, out);
            }
            List<Object> out = new ArrayList<>((List<Object>) current);
            int idx = (Integer) re.key();
            if (idx >= 0 && idx < out.size()) {
                out.remove(idx);
            }
            return out.isEmpty() ? null : Values.normalize(type, out);
        }
    }
}
