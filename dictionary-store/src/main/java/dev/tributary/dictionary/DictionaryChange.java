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

    /**
     * Empties a table (TRUNCATE). The definition stays as it is; the change is in the dictionary's
     * stream of changes because a capture finds DDL there, and the seed captures TRUNCATE as a
     * DDL LCR, so a replica can empty its copy too.
     */
    record TruncateTable(String keyspace, String name) implements DictionaryChange {
        public TruncateTable {
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
