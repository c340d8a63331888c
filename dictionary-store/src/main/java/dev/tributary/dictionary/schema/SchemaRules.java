package dev.tributary.dictionary.schema;

import dev.tributary.dictionary.errors.InvalidSchemaException;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.dictionary.types.ValueComparator;

/** Cassandra's rules on where a type may be used; messages name the column or field. */
final class SchemaRules {
    private SchemaRules() {
    }

    static void requireName(String what, String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a " + what + " name cannot be " + (name == null ? "null" : "empty"));
        }
    }

    /** A column type; {@code where} names the column ("column 'c' of table ks.t"). */
    static void checkColumnType(String where, CqlType type, ColumnKind kind) {
        if (kind.isPrimaryKey()) {
            if (type.isCollection() && !type.frozen()) {
                throw new InvalidSchemaException(where + ": a primary key column cannot be a non-frozen collection ("
                        + type.cql() + "); use frozen<...>");
            }
            if (type instanceof CqlType.UserType && !type.frozen()) {
                throw new InvalidSchemaException(where + ": a primary key column cannot be a non-frozen user type ("
                        + type.cql() + "); use frozen<...>");
            }
            if (!ValueComparator.isOrderable(type)) {
                throw new InvalidSchemaException(where + ": type " + type.cql()
                        + " is not supported for a primary key column (durations have no order)");
            }
            if (isCounter(type)) {
                throw new InvalidSchemaException(where + ": a counter cannot be a primary key column");
            }
        }
        if (type instanceof CqlType.UserType u && !u.frozen()) {
            for (CqlType.Field f : u.fields()) {
                if (f.type().isCollection() && !f.type().frozen()) {
                    throw new InvalidSchemaException(where + ": a non-frozen user type cannot have a non-frozen collection"
                            + " field ('" + f.name() + "' " + f.type().cql() + "); freeze the type or the field");
                }
            }
        }
        checkNested(where, type, false);
    }

    /** A field type of a user type. */
    static void checkFieldType(String where, CqlType type) {
        if (isCounter(type)) {
            throw new InvalidSchemaException(where + ": a counter cannot be a field of a user type");
        }
        if (type instanceof CqlType.UserType && !type.frozen()) {
            throw new InvalidSchemaException(where + ": a user type inside a user type must be frozen (" + type.cql() + ")");
        }
        checkNested(where, type, false);
    }

    static boolean isCounter(CqlType type) {
        return type instanceof CqlType.Native n && n.kind() == CqlType.Kind.COUNTER;
    }

    /** The contents of a collection or user type: counters never, durations not as keys. */
    private static void checkNested(String where, CqlType type, boolean insideFrozen) {
        boolean frozen = insideFrozen || type.frozen();
        if (type instanceof CqlType.ListType l) {
            checkInner(where, type, l.element(), frozen);
        } else if (type instanceof CqlType.SetType s) {
            if (!ValueComparator.isOrderable(s.element())) {
                throw new InvalidSchemaException(where + ": durations are not allowed inside sets (" + type.cql() + ")");
            }
            checkInner(where, type, s.element(), frozen);
        } else if (type instanceof CqlType.MapType m) {
            if (!ValueComparator.isOrderable(m.key())) {
                throw new InvalidSchemaException(where + ": durations are not allowed as map keys (" + type.cql() + ")");
            }
            checkInner(where, type, m.key(), frozen);
            checkInner(where, type, m.value(), frozen);
        } else if (type instanceof CqlType.UserType u) {
            for (CqlType.Field f : u.fields()) {
                checkNested(where, f.type(), frozen);
            }
        }
    }

    private static void checkInner(String where, CqlType outer, CqlType inner, boolean frozen) {
        if (isCounter(inner)) {
            throw new InvalidSchemaException(where + ": counters are not allowed inside collections (" + outer.cql() + ")");
        }
        // inside frozen<...> everything is frozen implicitly, as in CQL
        if (!frozen && (inner.isCollection() || inner instanceof CqlType.UserType) && !inner.frozen()) {
            throw new InvalidSchemaException(where + ": non-frozen " + (inner.isCollection() ? "collections" : "user types")
                    + " are not allowed inside collections (" + outer.cql() + "); use frozen<" + inner.cql() + ">");
        }
        checkNested(where, inner, frozen);
    }
}
