package dev.tributary.cql.internal;

import dev.tributary.cql.lexer.Identifiers;
import dev.tributary.cql.ast.Argument;
import dev.tributary.cql.ast.Assignment;
import dev.tributary.cql.ast.BindMarker;
import dev.tributary.cql.ast.ColumnSpec;
import dev.tributary.cql.ast.CreateTable;
import dev.tributary.cql.ast.ListLit;
import dev.tributary.cql.ast.ModificationStatement;
import dev.tributary.cql.ast.Order;
import dev.tributary.cql.ast.QualifiedName;
import dev.tributary.cql.ast.SetColumn;
import dev.tributary.cql.ast.Term;
import dev.tributary.cql.ast.TupleLit;
import dev.tributary.cql.ast.Using;
import dev.tributary.cql.errors.CqlInvalidException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The checks that need no schema: a well-formed statement that cannot mean anything is refused
 * here with a {@link CqlInvalidException} naming the statement and the offending part.
 */
final class StatementChecks {
    private StatementChecks() {
    }

    static void distinct(List<String> names, String kind, String what) {
        Set<String> seen = new HashSet<>();
        for (String n : names) {
            if (!seen.add(n)) {
                throw new CqlInvalidException("Multiple definitions of " + kind + " " + Identifiers.quoteIfNeeded(n)
                        + " in " + what);
            }
        }
    }

    static void assignments(List<Assignment> assignments, String what) {
        Map<String, Integer> count = new HashMap<>();
        Set<String> wholeColumn = new HashSet<>();
        for (Assignment a : assignments) {
            count.merge(a.column(), 1, Integer::sum);
            if (a instanceof SetColumn) {
                wholeColumn.add(a.column());
            }
        }
        for (String c : wholeColumn) {
            if (count.get(c) > 1) {
                throw new CqlInvalidException("Multiple incompatible setting of column " + Identifiers.quoteIfNeeded(c)
                        + " in " + what);
            }
        }
    }

    static void batch(Using using, List<ModificationStatement> statements) {
        if (using.ttl() != null) {
            throw new CqlInvalidException("Global TTL on the BATCH statement is not supported");
        }
        if (using.timestamp() != null) {
            for (ModificationStatement st : statements) {
                if (st.using().timestamp() != null) {
                    throw new CqlInvalidException("Timestamp must be set either on BATCH or individual statements, "
                            + "but both the batch and its statement on " + st.table().cql() + " have one");
                }
            }
        }
    }

    static void tupleArity(List<String> columns, Term rhs) {
        String lhs = "(" + String.join(", ", columns.stream().map(Identifiers::quoteIfNeeded).toList()) + ")";
        List<Term> values = rhs instanceof ListLit l ? l.elements() : List.of(rhs);
        for (Term v : values) {
            if (v instanceof BindMarker) {
                continue;
            }
            if (!(v instanceof TupleLit t)) {
                throw new CqlInvalidException("Column tuple " + lhs + " must be compared with a tuple, not " + v.cql());
            }
            if (t.elements().size() != columns.size()) {
                throw new CqlInvalidException("Expected " + columns.size() + " elements in value tuple for " + lhs
                        + ", but got " + t.elements().size() + ": " + t.cql());
            }
        }
    }

    static void callArguments(QualifiedName procedure, List<Argument> args) {
        String what = "CALL " + procedure.cql();
        boolean named = false;
        Set<String> names = new HashSet<>();
        for (Argument a : args) {
            if (a.name() == null) {
                if (named) {
                    throw new CqlInvalidException("Positional argument " + a.value().cql()
                            + " follows named arguments in " + what);
                }
            } else {
                named = true;
                if (!names.add(a.name())) {
                    throw new CqlInvalidException("Argument " + a.name() + " given twice in " + what);
                }
            }
        }
    }

    /**
     * Checks the keys of a CREATE TABLE and builds it.
     *
     * @param partitions one entry per PRIMARY KEY given (inline or as a clause): its partition key
     * @param clusterings the matching clustering columns
     */
    static CreateTable createTable(boolean ifNotExists, QualifiedName name, List<ColumnSpec> columns,
                                   List<List<String>> partitions, List<List<String>> clusterings,
                                   Map<String, Order> givenOrder, Map<String, Term> properties) {
        String what = "CREATE TABLE " + name.cql();
        distinct(columns.stream().map(ColumnSpec::name).toList(), "column", what);
        if (partitions.isEmpty()) {
            throw new CqlInvalidException("No PRIMARY KEY specified for " + what + " (exactly one required)");
        }
        if (partitions.size() > 1) {
            throw new CqlInvalidException("Multiple PRIMARY KEYs specified for " + what + " (exactly one required)");
        }
        List<String> partitionKey = partitions.get(0);
        List<String> clusteringKey = clusterings.get(0);
        Map<String, ColumnSpec> byName = new HashMap<>();
        columns.forEach(c -> byName.put(c.name(), c));
        List<String> keyColumns = new ArrayList<>(partitionKey);
        keyColumns.addAll(clusteringKey);
        Set<String> seen = new HashSet<>();
        for (String k : keyColumns) {
            ColumnSpec c = byName.get(k);
            if (c == null) {
                throw new CqlInvalidException("Unknown column " + Identifiers.quoteIfNeeded(k)
                        + " referenced in PRIMARY KEY of " + what);
            }
            if (!seen.add(k)) {
                throw new CqlInvalidException("Column " + Identifiers.quoteIfNeeded(k)
                        + " appears more than once in PRIMARY KEY of " + what);
            }
            if (c.isStatic()) {
                throw new CqlInvalidException("Static column " + Identifiers.quoteIfNeeded(k)
                        + " cannot be part of the PRIMARY KEY of " + what);
            }
        }
        if (clusteringKey.isEmpty()) {
            for (ColumnSpec c : columns) {
                if (c.isStatic()) {
                    throw new CqlInvalidException("Static column " + Identifiers.quoteIfNeeded(c.name()) + " in " + what
                            + ": static columns are only allowed in tables with clustering columns");
                }
            }
        }
        List<String> ordered = new ArrayList<>(givenOrder.keySet());
        for (String c : ordered) {
            if (!clusteringKey.contains(c)) {
                throw new CqlInvalidException("Only clustering columns can be in the CLUSTERING ORDER of " + what + ": "
                        + Identifiers.quoteIfNeeded(c) + " is not a clustering column");
            }
        }
        if (!ordered.equals(clusteringKey.subList(0, ordered.size()))) {
            throw new CqlInvalidException("The order of columns in the CLUSTERING ORDER of " + what
                    + " must match that of the clustering columns " + clusteringKey);
        }
        Map<String, Order> clusteringOrder = new LinkedHashMap<>();
        for (String c : clusteringKey) {
            clusteringOrder.put(c, givenOrder.getOrDefault(c, Order.ASC));
        }
        return new CreateTable(ifNotExists, name, columns, partitionKey, clusteringKey, clusteringOrder, properties);
    }
}
