package dev.tributary.dictionary;

import dev.tributary.dictionary.schema.KeyspaceDef;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.dictionary.schema.UserTypeDef;
import java.util.Objects;

/**
 * One DDL change to the data dictionary, as captured from the redo log; applied with
 * {@link DictionaryVersion#apply} or {@link MultiversionDictionary#apply}. Immutable values.
 */
public sealed interface DictionaryChange {

    record CreateKeyspace(KeyspaceDef keyspace) implements DictionaryChange {
        public CreateKeyspace {
            Objects.requireNonNull(keyspace, "keyspace");
        }
    }

    /** Drops the keyspace with its tables and types. */
    record DropKeyspace(String keyspace) implements DictionaryChange {
        public DropKeyspace {
            Objects.requireNonNull(keyspace, "keyspace");
        }
    }

    record CreateTable(TableDef table) implements DictionaryChange {
        public CreateTable {
            Objects.requireNonNull(table, "table");
        }
    }

    /**
     * Replaces a table's definition (columns added or dropped, options changed). The new
     * definition keeps the table's object number and primary key, and numbers new columns at or
     * above the old {@code nextColumnNumber}.
     */
    record AlterTable(TableDef newDef) implements DictionaryChange {
        public AlterTable {
            Objects.requireNonNull(newDef, "newDef");
        }
    }

    record DropTable(String keyspace, String name) implements DictionaryChange {
        public DropTable {
            Objects.requireNonNull(keyspace, "keyspace");
            Objects.requireNonNull(name, "name");
        }
    }

    record CreateType(UserTypeDef type) implements DictionaryChange {
        public CreateType {
            Objects.requireNonNull(type, "type");
        }
    }

    record DropType(String keyspace, String name) implements DictionaryChange {
        public DropType {
            Objects.requireNonNull(keyspace, "keyspace");
            Objects.requireNonNull(name, "name");
        }
    }
}
