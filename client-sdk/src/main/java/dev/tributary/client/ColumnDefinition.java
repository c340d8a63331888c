package dev.tributary.client;

import java.util.Objects;

/**
 * A result column or bind marker: its name as the server wrote it ({@code "cdc$stream_id"}, an
 * alias, {@code system.totimestamp(system.now())}) and its CQL type. Immutable.
 */
public final class ColumnDefinition {
    private final String name;
    private final String type;
    private final CqlTypeName cqlType;

    /**
     * @param type the CQL type as written in CQL; empty when the server did not say, in which
     *        case values are read by their wire kind alone
     */
    public ColumnDefinition(String name, String type) {
        this.name = Objects.requireNonNull(name, "name");
        this.type = Objects.requireNonNull(type, "type");
        this.cqlType = type.isBlank() ? null : CqlTypeName.parse(type);
    }

    public String name() {
        return name;
    }

    /** The CQL type as the server wrote it, e.g. {@code map<text, frozen<list<int>>>}. */
    public String type() {
        return type;
    }

    /** The parsed type, or null when the server sent none. */
    public CqlTypeName cqlType() {
        return cqlType;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ColumnDefinition c && c.name.equals(name) && c.type.equals(type);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, type);
    }

    @Override
    public String toString() {
        return name + " " + type;
    }
}
