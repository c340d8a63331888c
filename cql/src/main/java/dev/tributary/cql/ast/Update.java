package dev.tributary.cql.ast;

import java.util.List;
import java.util.Objects;

/**
 * {@code UPDATE [ks.]t [USING ...] SET assignments WHERE relations [IF EXISTS]}. Assignments are
 * not empty, and a column set as a whole ({@link SetColumn}) has no other assignment.
 */
public record Update(QualifiedName table, Using using, List<Assignment> assignments, List<Relation> where,
                     boolean ifExists) implements ModificationStatement {
    public Update {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(using, "using");
        assignments = List.copyOf(assignments);
        where = List.copyOf(where);
    }
}
