package dev.tributary.node.exec;

import dev.tributary.cql.ast.BindMarker;
import dev.tributary.cql.ast.ColumnLhs;
import dev.tributary.cql.ast.Delete;
import dev.tributary.cql.ast.Insert;
import dev.tributary.cql.ast.Operator;
import dev.tributary.cql.ast.QualifiedName;
import dev.tributary.cql.ast.Relation;
import dev.tributary.cql.ast.Select;
import dev.tributary.cql.ast.Statement;
import dev.tributary.cql.ast.Term;
import dev.tributary.cql.ast.Update;
import dev.tributary.dictionary.DictionaryVersion;
import dev.tributary.dictionary.schema.ColumnDef;
import dev.tributary.dictionary.schema.TableDef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The table of a prepared single-table statement and the bind markers that make its partition
 * key, sent to clients at prepare so they can compute the key's token and send the statement to
 * its owner (a token-aware client). Immutable.
 *
 * @param partitionKeyIndexes for each partition key column in order, the index of the marker
 *        binding it by equality; empty when some key column is not bound that way
 */
public record StatementRouting(String keyspace, String table, List<Integer> partitionKeyIndexes) {
    public StatementRouting {
        partitionKeyIndexes = List.copyOf(partitionKeyIndexes);
    }

    /**
     * The routing of a statement of a base table; empty for other statements, and for system
     * tables, views, queues and CDC logs, which the node that is asked answers itself.
     */
    static Optional<StatementRouting> of(Statement st, SessionContext session, DictionaryVersion dictionary,
            SystemTables systemTables) {
        QualifiedName name;
        Map<String, Term> equalities = new HashMap<>();
        Set<String> ambiguous = new HashSet<>();
        if (st instanceof Insert ins) {
            name = ins.table();
            for (int i = 0; i < ins.columns().size(); i++) {
                equalities.put(ins.columns().get(i), ins.values().get(i));
            }
        } else if (st instanceof Update up) {
            name = up.table();
            equalities(up.where(), equalities, ambiguous);
        } else if (st instanceof Delete del) {
            name = del.table();
            equalities(del.where(), equalities, ambiguous);
        } else if (st instanceof Select sel) {
            name = sel.from();
            equalities(sel.where(), equalities, ambiguous);
        } else {
            return Optional.empty();
        }
        String ks = name.keyspace() != null ? name.keyspace() : session.keyspace();
        if (ks == null || systemTables.isSystemKeyspace(ks) || systemTables.find(ks, name.name()).isPresent()) {
            return Optional.empty();
        }
        Optional<TableDef> table = dictionary.table(ks, name.name());
        if (table.isEmpty()) {
            return Optional.empty();
        }
        List<Integer> indexes = new ArrayList<>();
        for (ColumnDef c : table.get().partitionKey()) {
            Term t = ambiguous.contains(c.name()) ? null : equalities.get(c.name());
            if (!(t instanceof BindMarker b)) {
                indexes.clear(); // a literal, IN, a range or no relation: the client cannot know the key
                break;
            }
            indexes.add(b.index());
        }
        return Optional.of(new StatementRouting(ks, name.name(), indexes));
    }

    /** Collects {@code column = term}; a column with two equalities is left out (the statement decides, not the client). */
    private static void equalities(List<Relation> where, Map<String, Term> out, Set<String> ambiguous) {
        for (Relation r : where) {
            if (r.op() == Operator.EQ && r.lhs() instanceof ColumnLhs c && out.put(c.column(), r.rhs()) != null) {
                ambiguous.add(c.column());
            }
        }
    }
}
