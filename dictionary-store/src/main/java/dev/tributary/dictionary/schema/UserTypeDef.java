package dev.tributary.dictionary.schema;

import dev.tributary.dictionary.errors.InvalidSchemaException;
import dev.tributary.dictionary.types.CqlType;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A user-defined type ({@code CREATE TYPE ks.name (field type, ...)}). Immutable.
 *
 * @throws InvalidSchemaException if there is no field, a field name repeats, or a field type is
 *         not allowed in a user type (a counter, a non-frozen user type, a non-frozen collection
 *         inside a collection)
 */
public record UserTypeDef(String keyspace, String name, List<CqlType.Field> fields) {
    public UserTypeDef {
        SchemaRules.requireName("keyspace", keyspace);
        SchemaRules.requireName("type", name);
        fields = List.copyOf(fields);
        String where = "type " + keyspace + "." + name;
        if (fields.isEmpty()) {
            throw new InvalidSchemaException(where + " has no field");
        }
        Set<String> seen = new HashSet<>();
        for (CqlType.Field f : fields) {
            SchemaRules.requireName("field", f.name());
            if (!seen.add(f.name())) {
                throw new InvalidSchemaException("duplicate field '" + f.name() + "' in " + where);
            }
            SchemaRules.checkFieldType(where + ", field '" + f.name() + "'", f.type());
        }
    }

    /** The type as columns use it (not frozen; wrap with {@code withFrozen(true)} as needed). */
    public CqlType.UserType toType() {
        return new CqlType.UserType(keyspace, name, fields, false);
    }

    public String qualifiedName() {
        return keyspace + "." + name;
    }
}
