package dev.tributary.cql.plan;

import dev.tributary.cql.TermTyper;
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
import dev.tributary.cql.errors.CqlInvalidException;
import dev.tributary.cql.errors.CqlLimitException;
import dev.tributary.dictionary.errors.UnknownColumnException;
import dev.tributary.dictionary.schema.ColumnDef;
import dev.tributary.dictionary.schema.ColumnKind;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.dictionary.types.Values;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Write planning, apart from applying: resolves INSERT, UPDATE and DELETE against the schema and
 * types their values, checking what can be checked before anything is read or written — key
 * parts present and not null, assignments that fit their columns, value sizes, USING TIMESTAMP
 * within the allowed skew of the clock, TTL range, the shapes of a DELETE's WHERE. Pure: the
 * clock and the term typer are given; the node's applier takes the planned writes from here.
 */
public final class WritePlanner {
    /** Resolves a table a statement writes to (refusing system and log tables). */
    @FunctionalInterface
    public interface TableResolver {
        TableDef writableTable(QualifiedName name);
    }

    private final TermTyper typer;
    private final LongSupplier wallMillis;
    private final long maxSkewMillis;
    private final int maxValueBytes;

    /**
     * @param typer         turns terms into values (its clock and randomness serve now() and uuid())
     * @param wallMillis    the node's wall clock, for the skew check of USING TIMESTAMP
     * @param maxSkewMillis how far USING TIMESTAMP may be from the clock
     * @param maxValueBytes the largest value a column may hold
     */
    public WritePlanner(TermTyper typer, LongSupplier wallMillis, long maxSkewMillis, int maxValueBytes) {
        this.typer = typer;
        this.wallMillis = wallMillis;
        this.maxSkewMillis = maxSkewMillis;
        this.maxValueBytes = maxValueBytes;
    }

    /**
     * Resolves and types one modification statement: one write per row it changes (an IN on key
     * columns changes several), in statement order. {@code bound} holds its bound values.
     */
    public List<PlannedWrite> plan(ModificationStatement st, Using batchUsing, List<Object> bound, TableResolver tables) {
        if (st instanceof Insert ins) {
            TableDef t = tables.writableTable(ins.table());
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
            TableDef t = tables.writableTable(up.table());
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
        TableDef t = tables.writableTable(del.table());
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
            throw new CqlInvalidException("deleting columns of " + t.qualifiedName()
                    + " needs the full primary key in the WHERE clause");
        }
        Map<String, CellOp> cells = new LinkedHashMap<>();
        for (Selection sel : del.columns()) {
            ColumnDef c = column(t, sel.column());
            if (c.isPrimaryKey()) {
                throw new CqlInvalidException("cannot delete primary key column " + c.name() + " of " + t.qualifiedName());
            }
            if (sel.element() == null) {
                cells.put(c.name(), new CellOp.Set(null));
            } else {
                cells.put(c.name(), new CellOp.RemoveElement(typer.toValue(elementKeyType(c), sel.element(), c.name(), bound)));
            }
        }
        return List.of(new PlannedWrite(t, pk, ck, List.of(), cells, false, false, ts, 0));
    }

    private static ColumnDef column(TableDef t, String name) {
        return t.column(name).orElseThrow(() -> new UnknownColumnException(t.keyspace(), t.name(), name));
    }

    private Object typed(ColumnDef c, Term term, List<Object> bound) {
        Object v = typer.toValue(c.type(), term, c.name(), bound);
        if (v != null) {
            Values.check(c.type(), v, c.name());
            v = Values.normalize(c.type(), v);
            int size = Values.sizeInBytes(c.type(), v);
            if (size > maxValueBytes) {
                throw new CqlLimitException(CqlLimitException.Limit.VALUE_SIZE, "value of column " + c.name() + " is " + size
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
                throw new CqlInvalidException("invalid null value for " + what + " column " + c.name() + " of " + t.qualifiedName());
            } else {
                out.add(values.get(c.name()));
            }
        }
        if (!missing.isEmpty()) {
            throw new CqlInvalidException("some " + what + " parts of " + t.qualifiedName() + " are missing: "
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
            ColumnDef c = keyColumn(t, r, "an UPDATE", "column = value");
            if (r.op() == Operator.EQ) {
                List<Object> one = new ArrayList<>();
                one.add(typer.toValue(c.type(), r.rhs(), c.name(), bound));
                key.put(c.name(), one);
            } else if (r.op() == Operator.IN) {
                Object list = typer.toValue(new CqlType.ListType(c.type(), false), inList(r.rhs()), c.name(), bound);
                key.put(c.name(), list == null ? List.of() : new ArrayList<>((List<?>) list));
            } else {
                throw new CqlInvalidException("the WHERE clause of an UPDATE on " + t.qualifiedName()
                        + " needs '=' or IN on every primary key column; found " + r.op().symbol() + " on " + c.name());
            }
        }
        return key;
    }

    /**
     * The primary-key column a relation of an UPDATE's or DELETE's WHERE restricts.
     *
     * @param statement    "an UPDATE" or "a DELETE", as the errors name it
     * @param restrictions the restrictions the statement allows, as the errors name them
     */
    private static ColumnDef keyColumn(TableDef t, Relation r, String statement, String restrictions) {
        if (!(r.lhs() instanceof ColumnLhs cl)) {
            throw new CqlInvalidException("only " + restrictions + " restrictions are allowed in the WHERE clause of " + statement
                    + " on " + t.qualifiedName());
        }
        ColumnDef c = column(t, cl.column());
        if (!c.isPrimaryKey()) {
            throw new CqlInvalidException("non PRIMARY KEY column " + c.name() + " found in the WHERE clause of " + statement
                    + " on " + t.qualifiedName());
        }
        return c;
    }

    private static Term inList(Term t) {
        return t instanceof dev.tributary.cql.ast.TupleLit tl ? new dev.tributary.cql.ast.ListLit(tl.elements()) : t;
    }

    /** A DELETE's WHERE: the partition key, a clustering prefix, and at most a range on the next column. */
    private Map<String, Object> deleteRestrictions(TableDef t, List<Relation> where, List<Object> bound,
            List<PlannedWrite.RangeBound> range) {
        Map<String, Object> key = new LinkedHashMap<>();
        for (Relation r : where) {
            ColumnDef c = keyColumn(t, r, "a DELETE", "column");
            Object v = typer.toValue(c.type(), r.rhs(), c.name(), bound);
            switch (r.op()) {
                case EQ -> key.put(c.name(), v);
                case LT, LTE, GT, GTE -> {
                    if (c.kind() != ColumnKind.CLUSTERING) {
                        throw new CqlInvalidException("range restriction on partition key column " + c.name()
                                + " in a DELETE on " + t.qualifiedName());
                    }
                    range.add(new PlannedWrite.RangeBound(c.keyPosition(), r.op(), v));
                }
                default -> throw new CqlInvalidException("operator " + r.op().symbol() + " is not supported in a DELETE on "
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
                throw new CqlInvalidException("clustering column " + c.name() + " of " + t.qualifiedName()
                        + " is restricted but a preceding clustering column is not");
            }
        }
        for (PlannedWrite.RangeBound b : range) {
            if (b.column() != prefix) {
                throw new CqlInvalidException("a range delete on " + t.qualifiedName()
                        + " may only restrict the first clustering column not restricted by '='");
            }
        }
        return key;
    }

    private void assignment(TableDef t, Assignment a, List<Object> bound, Map<String, CellOp> cells) {
        ColumnDef c = column(t, assignedColumn(a));
        if (c.isPrimaryKey()) {
            throw new CqlInvalidException("PRIMARY KEY part " + c.name() + " found in SET part of an UPDATE on " + t.qualifiedName());
        }
        CqlType type = c.type();
        CellOp op;
        if (a instanceof SetColumn sc) {
            op = new CellOp.Set(typed(c, sc.value(), bound));
        } else if (a instanceof SetElement se) {
            op = new CellOp.PutElement(typer.toValue(elementKeyType(c), se.key(), c.name(), bound),
                    typer.toValue(elementValueType(c), se.value(), c.name(), bound));
        } else if (a instanceof AddToColumn ac) {
            requireCollectionOrCounter(t, c);
            op = new CellOp.Add(typed(c, ac.value(), bound));
        } else if (a instanceof PrependToColumn pc) {
            if (!(type instanceof CqlType.ListType)) {
                throw new CqlInvalidException("cannot prepend to non-list column " + c.name() + " of type " + type.cql());
            }
            @SuppressWarnings("unchecked")
            List<Object> v = (List<Object>) typed(c, pc.value(), bound);
            op = new CellOp.Prepend(v);
        } else {
            requireCollectionOrCounter(t, c);
            SubtractFromColumn sc = (SubtractFromColumn) a;
            CqlType removeType = type instanceof CqlType.MapType m ? new CqlType.SetType(m.key(), false) : type;
            op = new CellOp.Remove(typer.toValue(removeType, sc.value(), c.name(), bound));
        }
        if (cells.containsKey(c.name()) && (op instanceof CellOp.Set || cells.get(c.name()) instanceof CellOp.Set)) {
            throw new CqlInvalidException("multiple assignments to column " + c.name());
        }
        cells.put(c.name(), op);
    }

    /** The column an assignment of an UPDATE's SET changes. */
    public static String assignedColumn(Assignment a) {
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
            throw new CqlInvalidException("invalid operation (" + c.name() + " = " + c.name()
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
        throw new CqlInvalidException("column " + c.name() + " of type " + c.type().cql() + " has no elements to address");
    }

    private static CqlType elementValueType(ColumnDef c) {
        if (c.type() instanceof CqlType.MapType m) {
            return m.value();
        }
        if (c.type() instanceof CqlType.ListType l) {
            return l.element();
        }
        throw new CqlInvalidException("column " + c.name() + " of type " + c.type().cql() + " has no elements to address");
    }

    private long timestamp(Using using, Using batchUsing, List<Object> bound) {
        Term ts = using != null && using.timestamp() != null ? using.timestamp()
                : batchUsing != null ? batchUsing.timestamp() : null;
        if (ts == null) {
            return Long.MIN_VALUE;
        }
        long micros = (Long) typer.toValue(CqlType.of(CqlType.Kind.BIGINT), ts, "USING TIMESTAMP", bound);
        long skew = micros / 1000 - wallMillis.getAsLong();
        if (Math.abs(skew) > maxSkewMillis) {
            throw new CqlLimitException(CqlLimitException.Limit.WRITE_TIMESTAMP_SKEW, "write timestamp " + micros
                    + " is " + Math.abs(skew) + " ms " + (skew > 0 ? "ahead of" : "behind") + " the node's clock; at most "
                    + maxSkewMillis + " ms is accepted (--max-write-skew)");
        }
        return micros;
    }

    private int ttl(Using using, List<Object> bound) {
        if (using == null || using.ttl() == null) {
            return 0;
        }
        int ttl = (Integer) typer.toValue(CqlType.of(CqlType.Kind.INT), using.ttl(), "USING TTL", bound);
        if (ttl < 0 || ttl > 630_720_000) {
            throw new CqlInvalidException("TTL " + ttl + " is out of range (0 to 630720000 seconds)");
        }
        return ttl;
    }
}
