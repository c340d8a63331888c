package dev.tributary.cql.internal;

import dev.tributary.cql.ast.AddColumns;
import dev.tributary.cql.ast.AddToColumn;
import dev.tributary.cql.ast.AlterTable;
import dev.tributary.cql.ast.Argument;
import dev.tributary.cql.ast.Assignment;
import dev.tributary.cql.ast.Batch;
import dev.tributary.cql.ast.Call;
import dev.tributary.cql.ast.CreateKeyspace;
import dev.tributary.cql.ast.CreateTable;
import dev.tributary.cql.ast.CreateType;
import dev.tributary.cql.ast.Delete;
import dev.tributary.cql.ast.DropColumns;
import dev.tributary.cql.ast.AlterSystem;
import dev.tributary.cql.ast.CreateDatabaseLink;
import dev.tributary.cql.ast.DropDatabaseLink;
import dev.tributary.cql.ast.DropKeyspace;
import dev.tributary.cql.ast.DropTable;
import dev.tributary.cql.ast.DropType;
import dev.tributary.cql.ast.FunctionCall;
import dev.tributary.cql.ast.Insert;
import dev.tributary.cql.ast.ListLit;
import dev.tributary.cql.ast.MapLit;
import dev.tributary.cql.ast.PrependToColumn;
import dev.tributary.cql.ast.Relation;
import dev.tributary.cql.ast.RoleStatement;
import dev.tributary.cql.ast.Select;
import dev.tributary.cql.ast.Selection;
import dev.tributary.cql.ast.SetColumn;
import dev.tributary.cql.ast.SetElement;
import dev.tributary.cql.ast.SetLit;
import dev.tributary.cql.ast.Statement;
import dev.tributary.cql.ast.SubtractFromColumn;
import dev.tributary.cql.ast.Term;
import dev.tributary.cql.ast.Truncate;
import dev.tributary.cql.ast.TupleLit;
import dev.tributary.cql.ast.UdtLit;
import dev.tributary.cql.ast.Update;
import dev.tributary.cql.ast.Use;
import dev.tributary.cql.ast.Using;
import dev.tributary.cql.ast.WithProperties;
import java.util.function.Consumer;

/** Visits every term of a statement, nested ones included, in the order they are written. */
public final class AstTerms {
    private AstTerms() {
    }

    public static void forEach(Statement st, Consumer<Term> visitor) {
        if (st instanceof Insert i) {
            i.values().forEach(t -> term(t, visitor));
            using(i.using(), visitor);
        } else if (st instanceof Update u) {
            using(u.using(), visitor);
            u.assignments().forEach(a -> assignment(a, visitor));
            u.where().forEach(r -> relation(r, visitor));
        } else if (st instanceof Delete d) {
            for (Selection s : d.columns()) {
                if (s.element() != null) {
                    term(s.element(), visitor);
                }
            }
            using(d.using(), visitor);
            d.where().forEach(r -> relation(r, visitor));
        } else if (st instanceof Batch b) {
            using(b.using(), visitor);
            b.statements().forEach(s -> forEach(s, visitor));
        } else if (st instanceof Select s) {
            s.where().forEach(r -> relation(r, visitor));
            if (s.limit() != null) {
                term(s.limit(), visitor);
            }
        } else if (st instanceof Call c) {
            for (Argument a : c.arguments()) {
                term(a.value(), visitor);
            }
        } else if (st instanceof CreateKeyspace k) {
            k.properties().values().forEach(t -> term(t, visitor));
        } else if (st instanceof CreateTable t) {
            t.properties().values().forEach(v -> term(v, visitor));
        } else if (st instanceof AlterTable a) {
            if (a.action() instanceof WithProperties w) {
                w.properties().values().forEach(v -> term(v, visitor));
            } else if (!(a.action() instanceof AddColumns) && !(a.action() instanceof DropColumns)) {
                throw new IllegalStateException("unknown ALTER action " + a.action());
            }
        } else if (!(st instanceof DropKeyspace || st instanceof Use || st instanceof CreateType
                || st instanceof DropType || st instanceof DropTable || st instanceof Truncate
                || st instanceof CreateDatabaseLink || st instanceof DropDatabaseLink || st instanceof AlterSystem
                || st instanceof RoleStatement)) {
            throw new IllegalStateException("unknown statement " + st);
        }
    }

    private static void using(Using u, Consumer<Term> visitor) {
        if (u.timestamp() != null) {
            term(u.timestamp(), visitor);
        }
        if (u.ttl() != null) {
            term(u.ttl(), visitor);
        }
    }

    private static void assignment(Assignment a, Consumer<Term> visitor) {
        if (a instanceof SetColumn s) {
            term(s.value(), visitor);
        } else if (a instanceof SetElement e) {
            term(e.key(), visitor);
            term(e.value(), visitor);
        } else if (a instanceof AddToColumn p) {
            term(p.value(), visitor);
        } else if (a instanceof PrependToColumn p) {
            term(p.value(), visitor);
        } else if (a instanceof SubtractFromColumn m) {
            term(m.value(), visitor);
        }
    }

    private static void relation(Relation r, Consumer<Term> visitor) {
        term(r.rhs(), visitor);
    }

    private static void term(Term t, Consumer<Term> visitor) {
        visitor.accept(t);
        if (t instanceof ListLit l) {
            l.elements().forEach(e -> term(e, visitor));
        } else if (t instanceof SetLit s) {
            s.elements().forEach(e -> term(e, visitor));
        } else if (t instanceof MapLit m) {
            for (MapLit.Entry e : m.entries()) {
                term(e.key(), visitor);
                term(e.value(), visitor);
            }
        } else if (t instanceof UdtLit u) {
            u.fields().values().forEach(e -> term(e, visitor));
        } else if (t instanceof TupleLit tl) {
            tl.elements().forEach(e -> term(e, visitor));
        } else if (t instanceof FunctionCall f) {
            f.args().forEach(e -> term(e, visitor));
        }
    }
}
