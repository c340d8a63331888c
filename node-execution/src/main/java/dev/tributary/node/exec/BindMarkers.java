package dev.tributary.node.exec;

import dev.tributary.cql.ast.AddToColumn;
import dev.tributary.cql.ast.Assignment;
import dev.tributary.cql.ast.Batch;
import dev.tributary.cql.ast.BindMarker;
import dev.tributary.cql.ast.ColumnLhs;
import dev.tributary.cql.ast.Delete;
import dev.tributary.cql.ast.Insert;
import dev.tributary.cql.ast.ListLit;
import dev.tributary.cql.ast.ModificationStatement;
import dev.tributary.cql.ast.Operator;
import dev.tributary.cql.ast.PrependToColumn;
import dev.tributary.cql.ast.QualifiedName;
import dev.tributary.cql.ast.Relation;
import dev.tributary.cql.ast.Select;
import dev.tributary.cql.ast.Selection;
import dev.tributary.cql.ast.SetColumn;
import dev.tributary.cql.ast.SetElement;
import dev.tributary.cql.ast.Statement;
import dev.tributary.cql.ast.SubtractFromColumn;
import dev.tributary.cql.ast.Term;
import dev.tributary.cql.ast.TokenLhs;
import dev.tributary.cql.ast.TupleLhs;
import dev.tributary.cql.ast.TupleLit;
import dev.tributary.cql.ast.Using;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.node.errors.InvalidRequestException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Works out the type each bind marker ({@code ?}) of a statement receives, so the wire values a
 * client binds can be read with the right type before the statement is typed.
 */
final class BindMarkers {
    private static final CqlType BIGINT = CqlType.of(CqlType.Kind.BIGINT);
    private static final CqlType INT = CqlType.of(CqlType.Kind.INT);

    private final BiFunction<QualifiedName, Boolean, TableSource> resolver;
    private final ResultColumn[] types;

    private BindMarkers(int count, BiFunction<QualifiedName, Boolean, TableSource> resolver) {
        this.types = new ResultColumn[count];
        this.resolver = resolver;
    }

    /**
     * @param resolver resolves a table name; the flag says whether the statement writes
     */
    static List<ResultColumn> of(Statement st, int count, BiFunction<QualifiedName, Boolean, TableSource> resolver) {
        BindMarkers b = new BindMarkers(count, resolver);
        b.visit(st);
        List<ResultColumn> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (b.types[i] == null) {
                throw new InvalidRequestException("bind marker " + (i + 1) + " is in a position whose type is not known");
            }
            out.add(b.types[i]);
        }
        return out;
    }

    private void visit(Statement st) {
        if (st instanceof Batch batch) {
            using(batch.using());
            for (ModificationStatement m : batch.statements()) {
                visit(m);
            }
        } else if (st instanceof Insert ins) {
            TableSource t = resolver.apply(ins.table(), true);
            for (int i = 0; i < ins.columns().size(); i++) {
                term(ins.values().get(i), column(t, ins.columns().get(i)));
            }
            using(ins.using());
        } else if (st instanceof dev.tributary.cql.ast.Update up) {
            TableSource t = resolver.apply(up.table(), true);
            using(up.using());
            for (Assignment a : up.assignments()) {
                assignment(t, a);
            }
            where(t, up.where());
        } else if (st instanceof Delete del) {
            TableSource t = resolver.apply(del.table(), true);
            using(del.using());
            for (Selection s : del.columns()) {
                if (s.element() != null) {
                    term(s.element(), new ResultColumn(s.column(), keyType(column(t, s.column()).type())));
                }
            }
            where(t, del.where());
        } else if (st instanceof Select sel) {
            TableSource t = resolver.apply(sel.from(), false);
            where(t, sel.where());
            if (sel.limit() != null) {
                term(sel.limit(), new ResultColumn("[limit]", INT));
            }
        }
        // other statements take no bind markers that need a type from a table
    }

    private void using(Using u) {
        if (u != null) {
            if (u.timestamp() != null) {
                term(u.timestamp(), new ResultColumn("[timestamp]", BIGINT));
            }
            if (u.ttl() != null) {
                term(u.ttl(), new ResultColumn("[ttl]", INT));
            }
        }
    }

    private void assignment(TableSource t, Assignment a) {
        ResultColumn c = column(t, dev.tributary.cql.plan.WritePlanner.assignedColumn(a));
        if (a instanceof SetElement se) {
            term(se.key(), new ResultColumn(c.name(), keyType(c.type())));
            term(se.value(), new ResultColumn(c.name(), valueType(c.type())));
        } else if (a instanceof SetColumn sc) {
            term(sc.value(), c);
        } else if (a instanceof AddToColumn ac) {
            term(ac.value(), c);
        } else if (a instanceof PrependToColumn pc) {
            term(pc.value(), c);
        } else if (a instanceof SubtractFromColumn sc) {
            term(sc.value(), c.type() instanceof CqlType.MapType m
                    ? new ResultColumn(c.name(), new CqlType.SetType(m.key(), false)) : c);
        }
    }

    private void where(TableSource t, List<Relation> where) {
        for (Relation r : where) {
            if (r.lhs() instanceof TokenLhs) {
                term(r.rhs(), new ResultColumn("token", BIGINT));
            } else if (r.lhs() instanceof ColumnLhs cl) {
                ResultColumn c = column(t, cl.column());
                if (r.op() == Operator.IN) {
                    if (r.rhs() instanceof BindMarker) {
                        term(r.rhs(), new ResultColumn(c.name(), new CqlType.ListType(c.type(), false)));
                    } else {
                        elements(r.rhs(), c);
                    }
                } else if (r.op() == Operator.CONTAINS) {
                    term(r.rhs(), new ResultColumn(c.name(), valueType(c.type())));
                } else if (r.op() == Operator.CONTAINS_KEY) {
                    term(r.rhs(), new ResultColumn(c.name(), keyType(c.type())));
                } else {
                    term(r.rhs(), c);
                }
            } else if (r.lhs() instanceof TupleLhs tu && r.rhs() instanceof TupleLit tl) {
                for (int i = 0; i < tu.columns().size() && i < tl.elements().size(); i++) {
                    term(tl.elements().get(i), column(t, tu.columns().get(i)));
                }
            }
        }
    }

    private void elements(Term t, ResultColumn c) {
        List<Term> elems = t instanceof TupleLit tl ? tl.elements() : t instanceof ListLit ll ? ll.elements() : List.of();
        for (Term e : elems) {
            term(e, c);
        }
    }

    private void term(Term t, ResultColumn c) {
        if (t instanceof BindMarker b && b.index() < types.length) {
            types[b.index()] = c;
        }
    }

    private static ResultColumn column(TableSource t, String name) {
        ResultColumn c = t.column(name);
        if (c == null) {
            throw new dev.tributary.dictionary.errors.UnknownColumnException(t.keyspace(), t.name(), name);
        }
        return c;
    }

    private static CqlType keyType(CqlType t) {
        if (t instanceof CqlType.MapType m) {
            return m.key();
        }
        return INT;
    }

    private static CqlType valueType(CqlType t) {
        if (t instanceof CqlType.MapType m) {
            return m.value();
        }
        if (t instanceof CqlType.ListType l) {
            return l.element();
        }
        if (t instanceof CqlType.SetType s) {
            return s.element();
        }
        return t;
    }
}
