package dev.tributary.node.exec;

import dev.tributary.cql.ast.ColumnLhs;
import dev.tributary.cql.ast.ColumnSelector;
import dev.tributary.cql.ast.FunctionSelector;
import dev.tributary.cql.ast.ListLit;
import dev.tributary.cql.ast.Operator;
import dev.tributary.cql.ast.Order;
import dev.tributary.cql.ast.Ordering;
import dev.tributary.cql.ast.Relation;
import dev.tributary.cql.ast.Select;
import dev.tributary.cql.ast.Selector;
import dev.tributary.cql.ast.Term;
import dev.tributary.cql.ast.TokenLhs;
import dev.tributary.cql.ast.TupleLhs;
import dev.tributary.cql.ast.TupleLit;
import dev.tributary.dictionary.errors.UnknownColumnException;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.dictionary.types.ValueComparator;
import dev.tributary.dictionary.types.TimeUuids;
import dev.tributary.node.errors.InvalidRequestException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * SELECT over any {@link TableSource}: key restrictions pick the partitions or the token range
 * to scan; every other restriction filters rows (and needs ALLOW FILTERING on base tables, as
 * in Cassandra); selectors are columns and the functions token, writetime, ttl, now,
 * totimestamp, todate, tounixtimestamp, uuid, and the aggregates count, min and max.
 */
public final class SelectService {
    private static final CqlType BIGINT = CqlType.of(CqlType.Kind.BIGINT);
    private static final int MAX_ROWS = 100_000;

    public StatementResult execute(Select st, TableSource source, SessionContext s, List<Object> bound) {
        List<Relation> where = st.where();
        Plan plan = plan(source, where, bound, st.allowFiltering());
        List<Output> outputs = outputs(st, source);
        boolean aggregate = outputs.stream().anyMatch(o -> o.aggregate);
        Integer limit = st.limit() == null ? null
                : (Integer) Terms.TYPER.toValue(CqlType.of(CqlType.Kind.INT), st.limit(), "LIMIT", bound);
        if (limit != null && limit <= 0) {
            throw new InvalidRequestException("LIMIT must be strictly positive, got " + limit);
        }
        List<RowView> matched = new ArrayList<>();
        Set<List<Object>> distinctKeys = new HashSet<>();
        Iterator<RowView> it = source.scan(plan.range);
        try {
            boolean canStopEarly = st.orderBy().isEmpty() && !aggregate;
            while (it.hasNext()) {
                RowView r = it.next();
                if (!plan.filter.test(r)) {
                    continue;
                }
                if (st.distinct()) {
                    List<Object> k = new ArrayList<>();
                    for (String p : source.partitionKey()) {
                        k.add(r.get(p));
                    }
                    if (!distinctKeys.add(k)) {
                        continue;
                    }
                }
                matched.add(r);
                if (canStopEarly && limit != null && matched.size() >= limit) {
                    break;
                }
                if (matched.size() > MAX_ROWS && !aggregate) {
                    throw new InvalidRequestException("query on " + source.keyspace() + "." + source.name() + " returns more than "
                            + MAX_ROWS + " rows; add a LIMIT or restrict it");
                }
            }
        } finally {
            if (it instanceof AutoCloseable c) {
                try {
                    c.close();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        if (!st.orderBy().isEmpty()) {
            matched.sort(ordering(source, st.orderBy()));
        }
        List<ResultColumn> columns = new ArrayList<>();
        for (Output o : outputs) {
            columns.add(new ResultColumn(o.name, o.type));
        }
        List<List<Object>> rows = new ArrayList<>();
        if (aggregate) {
            List<Object> row = new ArrayList<>();
            for (Output o : outputs) {
                row.add(o.aggregate ? o.reduce.apply(matched) : matched.isEmpty() ? null : o.eval.apply(matched.get(0)));
            }
            rows.add(row);
        } else {
            for (RowView r : matched) {
                if (limit != null && rows.size() >= limit) {
                    break;
                }
                List<Object> row = new ArrayList<>(outputs.size());
                for (Output o : outputs) {
                    row.add(o.eval.apply(r));
                }
                rows.add(row);
            }
        }
        List<String> warnings = plan.filtering ? List.of("query used ALLOW FILTERING over " + source.keyspace() + "." + source.name())
                : List.of();
        return StatementResult.rows(columns, rows, s, warnings);
    }

    /**
     * The partitions a SELECT names in full by its WHERE clause (equality or IN on every partition
     * key column), as key values in partition-key order; empty when it reads a token range or the
     * whole table. Fails as {@link #execute} would on a WHERE clause it cannot run.
     */
    public java.util.Optional<List<List<Object>>> partitions(Select st, TableSource source, List<Object> bound) {
        ScanRange range = plan(source, st.where(), bound, st.allowFiltering()).range;
        return range.byPartition() ? java.util.Optional.of(range.partitions()) : java.util.Optional.empty();
    }

    private record Plan(ScanRange range, java.util.function.Predicate<RowView> filter, boolean filtering) {
    }

    private Plan plan(TableSource source, List<Relation> where, List<Object> bound, boolean allowFiltering) {
        Map<String, List<Object>> pkValues = new LinkedHashMap<>();
        long minToken = Long.MIN_VALUE;
        long maxToken = Long.MAX_VALUE;
        List<java.util.function.Predicate<RowView>> filters = new ArrayList<>();
        boolean needsFiltering = false;
        for (Relation r : where) {
            if (r.lhs() instanceof TokenLhs tl) {
                if (!tl.columns().equals(source.partitionKey())) {
                    throw new InvalidRequestException("the token function of " + source.keyspace() + "." + source.name()
                            + " must be given its partition key columns in order: token(" + String.join(", ", source.partitionKey()) + ")");
                }
                long v = (Long) Terms.TYPER.toValue(BIGINT, r.rhs(), "token", bound);
                switch (r.op()) {
                    case GT -> minToken = Math.max(minToken, v == Long.MAX_VALUE ? v : v + 1);
                    case GTE -> minToken = Math.max(minToken, v);
                    case LT -> maxToken = Math.min(maxToken, v == Long.MIN_VALUE ? v : v - 1);
                    case LTE -> maxToken = Math.min(maxToken, v);
                    case EQ -> {
                        minToken = Math.max(minToken, v);
                        maxToken = Math.min(maxToken, v);
                    }
                    default -> throw new InvalidRequestException("operator " + r.op().symbol() + " is not allowed on token()");
                }
                if (r.op() == Operator.GT && v == Long.MAX_VALUE) {
                    filters.add(row -> false);
                }
                continue;
            }
            if (r.lhs() instanceof TupleLhs tu) {
                filters.add(tupleFilter(source, tu, r, bound));
                needsFiltering |= !isClusteringPrefix(source, tu.columns());
                continue;
            }
            String col = ((ColumnLhs) r.lhs()).column();
            ResultColumn rc = requireColumn(source, col);
            boolean isPk = source.partitionKey().contains(col);
            boolean isCk = source.clusteringKey().contains(col);
            if (isPk && (r.op() == Operator.EQ || r.op() == Operator.IN)) {
                pkValues.put(col, values(rc, r, bound));
            } else if (!isCk) {
                needsFiltering = true;
            }
            filters.add(columnFilter(rc, r, bound));
        }
        boolean pkComplete = pkValues.keySet().containsAll(source.partitionKey()) && !source.partitionKey().isEmpty();
        if (!pkValues.isEmpty() && !pkComplete) {
            needsFiltering = true;
        }
        boolean clusteringRestricted = where.stream().anyMatch(r -> r.lhs() instanceof ColumnLhs cl
                && source.clusteringKey().contains(cl.column()));
        if (clusteringRestricted && !pkComplete) {
            needsFiltering = true;
        }
        if (needsFiltering && !allowFiltering && !source.filteringAllowed()) {
            throw new InvalidRequestException("Cannot execute this query as it might involve data filtering and thus may have "
                    + "unpredictable performance. If you want to execute this query despite the performance unpredictability, "
                    + "use ALLOW FILTERING");
        }
        ScanRange range;
        if (pkComplete) {
            List<List<Object>> partitions = new ArrayList<>();
            partitions.add(new ArrayList<>());
            for (String p : source.partitionKey()) {
                List<List<Object>> next = new ArrayList<>();
                for (List<Object> prefix : partitions) {
                    for (Object v : pkValues.get(p)) {
                        if (v == null) {
                            // Cassandra's answer; a null reaching the key encoder was an internal error
                            throw new InvalidRequestException("Invalid null value in condition for column " + p);
                        }
                        List<Object> k = new ArrayList<>(prefix);
                        k.add(v);
                        next.add(k);
                    }
                }
                partitions = next;
            }
            range = new ScanRange(partitions, minToken, maxToken);
        } else {
            range = new ScanRange(null, minToken, maxToken);
        }
        long lo = minToken;
        long hi = maxToken;
        filters.add(row -> row.token() >= lo && row.token() <= hi);
        return new Plan(range, row -> {
            for (java.util.function.Predicate<RowView> f : filters) {
                if (!f.test(row)) {
                    return false;
                }
            }
            return true;
        }, needsFiltering);
    }

    private static boolean isClusteringPrefix(TableSource source, List<String> cols) {
        return source.clusteringKey().size() >= cols.size() && source.clusteringKey().subList(0, cols.size()).equals(cols);
    }

    private static ResultColumn requireColumn(TableSource source, String col) {
        ResultColumn rc = source.column(col);
        if (rc == null) {
            throw new UnknownColumnException(source.keyspace(), source.name(), col);
        }
        return rc;
    }

    private static List<Object> values(ResultColumn rc, Relation r, List<Object> bound) {
        if (r.op() == Operator.IN) {
            Object v = Terms.TYPER.toValue(new CqlType.ListType(rc.type(), false), asList(r.rhs()), rc.name(), bound);
            return v == null ? List.of() : new ArrayList<>((Collection<?>) v);
        }
        List<Object> one = new ArrayList<>();
        one.add(Terms.TYPER.toValue(rc.type(), r.rhs(), rc.name(), bound));
        return one;
    }

    private static Term asList(Term t) {
        return t instanceof TupleLit tl ? new ListLit(tl.elements()) : t;
    }

    private static java.util.function.Predicate<RowView> columnFilter(ResultColumn rc, Relation r, List<Object> bound) {
        Comparator<Object> cmp = orderable(rc.type()) ? ValueComparator.of(rc.type()) : null;
        String col = rc.name();
        switch (r.op()) {
            case IN -> {
                List<Object> vs = values(rc, r, bound);
                return row -> {
                    Object v = row.get(col);
                    for (Object x : vs) {
                        if (ValueComparator.equal(rc.type(), v, x)) {
                            return true;
                        }
                    }
                    return false;
                };
            }
            case CONTAINS -> {
                CqlType elem = rc.type() instanceof CqlType.ListType l ? l.element()
                        : rc.type() instanceof CqlType.SetType st ? st.element()
                        : rc.type() instanceof CqlType.MapType m ? m.value() : null;
                if (elem == null) {
                    throw new InvalidRequestException("CONTAINS needs a collection column; " + col + " is " + rc.type().cql());
                }
                Object x = Terms.TYPER.toValue(elem, r.rhs(), col, bound);
                return row -> {
                    Object v = row.get(col);
                    Collection<?> c = v instanceof Map<?, ?> m ? m.values() : (Collection<?>) v;
                    return c != null && c.contains(x);
                };
            }
            case CONTAINS_KEY -> {
                if (!(rc.type() instanceof CqlType.MapType m)) {
                    throw new InvalidRequestException("CONTAINS KEY needs a map column; " + col + " is " + rc.type().cql());
                }
                Object x = Terms.TYPER.toValue(m.key(), r.rhs(), col, bound);
                return row -> row.get(col) instanceof Map<?, ?> mv && mv.containsKey(x);
            }
            default -> {
                Object x = Terms.TYPER.toValue(rc.type(), r.rhs(), col, bound);
                Operator op = r.op();
                if (op != Operator.EQ && op != Operator.NEQ && cmp == null) {
                    throw new InvalidRequestException("column " + col + " of type " + rc.type().cql() + " cannot be compared with "
                            + op.symbol());
                }
                return row -> {
                    Object v = row.get(col);
                    if (v == null || x == null) {
                        return op == Operator.NEQ ? (v == null) != (x == null) : op == Operator.EQ && v == x;
                    }
                    if (op == Operator.EQ) {
                        return ValueComparator.equal(rc.type(), v, x);
                    }
                    if (op == Operator.NEQ) {
                        return !ValueComparator.equal(rc.type(), v, x);
                    }
                    int c = cmp.compare(v, x);
                    return switch (op) {
                        case LT -> c < 0;
                        case LTE -> c <= 0;
                        case GT -> c > 0;
                        case GTE -> c >= 0;
                        default -> false;
                    };
                };
            }
        }
    }

    private static boolean orderable(CqlType t) {
        return ValueComparator.isOrderable(t);
    }

    private static java.util.function.Predicate<RowView> tupleFilter(TableSource source, TupleLhs tu, Relation r,
            List<Object> bound) {
        if (!(r.rhs() instanceof TupleLit tl) || tl.elements().size() != tu.columns().size()) {
            throw new InvalidRequestException("a tuple restriction on (" + String.join(", ", tu.columns())
                    + ") needs a tuple of " + tu.columns().size() + " values");
        }
        List<ResultColumn> cols = new ArrayList<>();
        List<Object> vals = new ArrayList<>();
        for (int i = 0; i < tu.columns().size(); i++) {
            ResultColumn rc = requireColumn(source, tu.columns().get(i));
            cols.add(rc);
            vals.add(Terms.TYPER.toValue(rc.type(), tl.elements().get(i), rc.name(), bound));
        }
        Operator op = r.op();
        return row -> {
            int c = 0;
            for (int i = 0; i < cols.size() && c == 0; i++) {
                c = ValueComparator.of(cols.get(i).type()).compare(row.get(cols.get(i).name()), vals.get(i));
            }
            return switch (op) {
                case EQ -> c == 0;
                case LT -> c < 0;
                case LTE -> c <= 0;
                case GT -> c > 0;
                case GTE -> c >= 0;
                default -> throw new InvalidRequestException("operator " + op.symbol() + " is not allowed on a column tuple");
            };
        };
    }

    private static Comparator<RowView> ordering(TableSource source, List<Ordering> orderBy) {
        Comparator<RowView> out = null;
        for (Ordering o : orderBy) {
            ResultColumn rc = requireColumn(source, o.column());
            if (!source.clusteringKey().contains(o.column())) {
                throw new InvalidRequestException("ORDER BY is only supported on clustering columns; " + o.column() + " of "
                        + source.keyspace() + "." + source.name() + " is not one");
            }
            Comparator<Object> vc = ValueComparator.of(rc.type());
            Comparator<RowView> c = (a, b) -> vc.compare(a.get(rc.name()), b.get(rc.name()));
            if (o.order() == Order.DESC) {
                c = c.reversed();
            }
            out = out == null ? c : out.thenComparing(c);
        }
        return out;
    }

    /** One output column: its name, type and how to compute it from a row. */
    private static final class Output {
        final String name;
        final CqlType type;
        final Function<RowView, Object> eval;
        final boolean aggregate;

        /** An aggregate's value over the matched rows (null for a plain selector). */
        private final Function<List<RowView>, Object> reduce;

        Output(String name, CqlType type, Function<RowView, Object> eval, boolean aggregate) {
            this(name, type, eval, aggregate ? List::size : null);
        }

        Output(String name, CqlType type, Function<RowView, Object> eval, Function<List<RowView>, Object> reduce) {
            this.name = name;
            this.type = type;
            this.eval = eval;
            this.aggregate = reduce != null;
            this.reduce = reduce;
        }
    }

    private List<Output> outputs(Select st, TableSource source) {
        List<Output> out = new ArrayList<>();
        if (st.selectsAll()) {
            for (ResultColumn c : source.columns()) {
                out.add(new Output(c.name(), c.type(), r -> r.get(c.name()), false));
            }
            return out;
        }
        for (Selector sel : st.selectors()) {
            Output o = output(sel, source);
            out.add(new Output(sel.displayName(), o.type, o.eval, o.reduce));
        }
        return out;
    }

    private Output output(Selector sel, TableSource source) {
        if (sel instanceof ColumnSelector cs) {
            ResultColumn rc = requireColumn(source, cs.name());
            return new Output(rc.name(), rc.type(), r -> r.get(rc.name()), false);
        }
        FunctionSelector f = (FunctionSelector) sel;
        String fn = f.function().startsWith("system.") ? f.function().substring(7) : f.function();
        switch (fn) {
            case "count" -> {
                return new Output("count", BIGINT, r -> null, rows -> (long) rows.size());
            }
            case "min", "max" -> {
                // scylla-cdc-java asks for min(time) over cdc_generation_timestamps
                if (f.args().size() != 1) {
                    throw new InvalidRequestException(fn + "() takes one argument");
                }
                Output arg = output(f.args().get(0), source);
                if (!dev.tributary.dictionary.types.ValueComparator.isOrderable(arg.type)) {
                    throw new InvalidRequestException(fn + "() needs a value of an orderable type, not " + arg.type.cql());
                }
                java.util.Comparator<Object> order = dev.tributary.dictionary.types.ValueComparator.of(arg.type);
                return new Output(fn, arg.type, arg.eval, rows -> {
                    Object best = null;
                    for (RowView r : rows) {
                        Object v = arg.eval.apply(r);
                        if (v != null && (best == null || (fn.equals("min") ? order.compare(v, best) < 0 : order.compare(v, best) > 0))) {
                            best = v;
                        }
                    }
                    return best;
                });
            }
            case "token" -> {
                List<String> cols = new ArrayList<>();
                for (Selector a : f.args()) {
                    if (!(a instanceof ColumnSelector cs)) {
                        throw new InvalidRequestException("token() takes the partition key columns");
                    }
                    cols.add(cs.name());
                }
                if (!cols.equals(source.partitionKey())) {
                    throw new InvalidRequestException("token() of " + source.keyspace() + "." + source.name()
                            + " must be given its partition key columns in order: token(" + String.join(", ", source.partitionKey()) + ")");
                }
                return new Output("token", BIGINT, RowView::token, false);
            }
            case "writetime", "ttl" -> {
                String col = ((ColumnSelector) f.args().get(0)).name();
                requireColumn(source, col);
                if (source.partitionKey().contains(col) || source.clusteringKey().contains(col)) {
                    throw new InvalidRequestException("cannot use selection function " + fn + " on PRIMARY KEY part " + col);
                }
                return fn.equals("writetime")
                        ? new Output(fn, BIGINT, r -> r.writeTimes().get(col), false)
                        : new Output(fn, CqlType.of(CqlType.Kind.INT), r -> r.ttls().get(col), false);
            }
            case "now" -> {
                return new Output(fn, CqlType.of(CqlType.Kind.TIMEUUID), r -> TimeUuids.of(System.currentTimeMillis() * 1000,
                        java.util.concurrent.ThreadLocalRandom.current().nextLong()), false);
            }
            case "uuid" -> {
                return new Output(fn, CqlType.of(CqlType.Kind.UUID), r -> UUID.randomUUID(), false);
            }
            case "totimestamp", "todate", "tounixtimestamp" -> {
                if (f.args().size() != 1) {
                    throw new InvalidRequestException(fn + "() takes one argument");
                }
                Output arg = output(f.args().get(0), source);
                CqlType resultType = switch (fn) {
                    case "totimestamp" -> CqlType.of(CqlType.Kind.TIMESTAMP);
                    case "todate" -> CqlType.of(CqlType.Kind.DATE);
                    default -> BIGINT;
                };
                return new Output(fn, resultType, r -> convertTime(fn, arg.eval.apply(r)), false);
            }
            default -> throw new InvalidRequestException("unknown function '" + f.function() + "'");
        }
    }

    private static Object convertTime(String fn, Object v) {
        if (v == null) {
            return null;
        }
        long millis;
        if (v instanceof UUID u) {
            millis = TimeUuids.millis(u);
        } else if (v instanceof Instant i) {
            millis = i.toEpochMilli();
        } else if (v instanceof LocalDate d) {
            millis = d.toEpochDay() * 86_400_000L;
        } else {
            throw new InvalidRequestException(fn + "() takes a timeuuid, timestamp or date");
        }
        return switch (fn) {
            case "totimestamp" -> Instant.ofEpochMilli(millis);
            case "todate" -> LocalDate.ofEpochDay(Math.floorDiv(millis, 86_400_000L));
            default -> millis;
        };
    }
}
