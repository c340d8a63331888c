package dev.tributary.cql.ast;

import java.util.List;
import java.util.Objects;

/**
 * {@code SELECT [DISTINCT] selectors FROM [ks.]t [WHERE ...] [ORDER BY ...] [LIMIT n]
 * [ALLOW FILTERING]}. An empty {@link #selectors()} means {@code *}. {@link #limit()} is null,
 * a positive {@link IntegerLit} or a {@link BindMarker}.
 */
public record Select(boolean distinct, List<Selector> selectors, QualifiedName from, List<Relation> where,
                     List<Ordering> orderBy, Term limit, boolean allowFiltering) implements Statement {
    public Select {
        selectors = List.copyOf(selectors);
        Objects.requireNonNull(from, "from");
        where = List.copyOf(where);
        orderBy = List.copyOf(orderBy);
    }

    /** True for {@code SELECT *}. */
    public boolean selectsAll() {
        return selectors.isEmpty();
    }
}
