package dev.tributary.node.exec;

import dev.tributary.capture.CdcLogFormatter;
import dev.tributary.capture.StreamRouter;
import dev.tributary.capture.redo.ColumnValue;
import dev.tributary.capture.redo.RedoCodec;
import dev.tributary.capture.redo.RedoEntry;
import dev.tributary.capture.redo.RowChange;
import dev.tributary.capture.redo.RowOperation;
import dev.tributary.capture.redo.SessionInfo;
import dev.tributary.cql.ast.ModificationStatement;
import dev.tributary.cql.ast.QualifiedName;
import dev.tributary.cql.ast.Using;
import dev.tributary.cql.plan.CellOp;
import dev.tributary.cql.plan.PlannedWrite;
import dev.tributary.cql.plan.WritePlanner;
import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.dictionary.errors.UnknownColumnException;
import dev.tributary.dictionary.errors.UnknownTableException;
import dev.tributary.generations.ReplicaPlacement;
import dev.tributary.dictionary.schema.ColumnDef;
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
    private final RoutingFence fence = new RoutingFence();
    private final int maxValueBytes;
    private final int threadNumber;
    private final boolean forceLogging;
    private final IdempotencyKeys idempotency;
    private final Cluster cluster;
    private final WritePlanner planner;

    /** What a write needs to know of the cluster. */
    public interface Cluster {
        /** The members a keyspace's replicas can be placed on (live or down, not leaving). */
        int nodes();

        /** How many copies of its data this node's instance keeps now (its replica group's members; 1 without replication). */
        int nodeCopies();

        /**
         * A keyspace asks more copies than {@link #nodeCopies()}: start growing the replica groups
         * if this node is replicated, and say why the write waits (or what to do).
         */
        String moreCopiesNeeded(String what, int factor);

        /** Null while this node may take writes, else why not (it is starting, or lost its ZooKeeper session). */
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
        this.maxValueBytes = maxValueBytes;
        this.threadNumber = threadNumber;
        this.planner = new WritePlanner(Terms.TYPER, clock::wallMillis, maxSkewMillis, maxValueBytes);
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
            throw TributaryException.beforeApplying(ErrorCode.UNAVAILABLE, refused);
        }
        List<KeyedWrite> plan = new ArrayList<>();
        // one resolution per table name for the whole transaction, not one per statement
        Map<QualifiedName, TableDef> resolved = new HashMap<>();
        Resolver once = (name, s) -> resolved.computeIfAbsent(name, n -> {
            TableDef t = resolver.writableTable(n, s);
            checkReplication(t.keyspace());
            return t;
        });
        for (int i = 0; i < statements.size(); i++) {
            for (PlannedWrite w : planner.plan(statements.get(i), batchUsing, bound.get(i), n -> once.writableTable(n, session))) {
                plan.add(KeyedWrite.of(w));
            }
        }
        CommitPipeline.Committed<IdempotencyKeys.Outcome> c = placement == Placement.LOCAL ? commit(plan, session, idempotencyKey)
                : fence.route(() -> {
                    java.util.Set<Placement.RoutingKey> keys = new java.util.HashSet<>();
                    for (KeyedWrite w : plan) {
                        keys.add(new Placement.RoutingKey(w.write().table().objectNumber(), w.token()));
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
                throw TributaryException.beforeApplying(ErrorCode.UNAVAILABLE, e.getMessage());
            }
            if (k.replicationFactor() > cluster.nodeCopies()) {
                // never fewer copies than asked: the write waits (UNAVAILABLE, retried) while the groups grow
                throw TributaryException.beforeApplying(ErrorCode.UNAVAILABLE,
                        cluster.moreCopiesNeeded("keyspace " + k.name(), k.replicationFactor()));
            }
        });
    }

    /** Applies the plan, or — for a key committed before — nothing; either way the outcome to answer with. */
    private CommitPipeline.Committed<IdempotencyKeys.Outcome> commit(List<KeyedWrite> plan, SessionContext session,
            String idempotencyKey) {
        return pipeline.commitInGroup(ctx -> {
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

    /**
     * A planned write with its partition key's bytes and token, encoded once when the write is
     * planned: routing and the committer both need them (a table's key columns never change).
     */
    private record KeyedWrite(PlannedWrite write, byte[] partitionKey, long token) {
        static KeyedWrite of(PlannedWrite w) {
            byte[] pk = BaseTables.partitionKeyBytes(w.table(), w.partitionKey());
            return new KeyedWrite(w, pk, BaseTables.token(pk));
        }
    }

    // ---------------------------------------------------------------- applying (committer thread)

    private void apply(TxContext ctx, List<KeyedWrite> plan, SessionContext session) {
        long commitMicros = HybridLogicalClock.microsOf(ctx.scn());
        long nowMillis = clock.wallMillis();
        List<RowChange> changes = new ArrayList<>();
        for (KeyedWrite k : plan) {
            PlannedWrite w = k.write();
            TableDef t = dictionary.latest().table(w.table().objectNumber()).orElseThrow(
                    () -> new UnknownTableException(w.table().keyspace(), w.table().name()));
            long ts = w.timestampMicros() == Long.MIN_VALUE ? commitMicros : w.timestampMicros();
            byte[] pk = k.partitionKey();
            long token = k.token();
            if (t.options().cdc().enabled()) {
                // fails the whole transaction, before anything is written, when no generation is in force
                router.streamFor(t, token, Math.floorDiv(CdcLogFormatter.logMicros(ts, ctx.scn()), 1000));
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
            // a plain set replaces the cell whatever it held: only the other operations read it
            Object current = prev == null || prev.value() == null || e.getValue() instanceof CellOp.Set ? null
                    : ValueCodec.decode(c.type(), prev.value());
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
        ctx.settle(); // the partition is read from the store: with the rows the group's earlier transactions wrote
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
