package dev.tributary.dictionary;

import dev.tributary.dictionary.errors.AlreadyExistsException;
import dev.tributary.dictionary.errors.InvalidSchemaException;
import dev.tributary.dictionary.errors.UnknownKeyspaceException;
import dev.tributary.dictionary.errors.UnknownTableException;
import dev.tributary.dictionary.schema.ColumnDef;
import dev.tributary.dictionary.schema.KeyspaceDef;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.dictionary.schema.UserTypeDef;
import dev.tributary.dictionary.types.CqlType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The whole data dictionary as it stood at one SCN: keyspaces, tables (by name and by object
 * number) and user types. Immutable and thread-safe; {@link #apply} returns the next version and
 * leaves this one as it is, which is what lets {@link MultiversionDictionary} answer for any past
 * SCN.
 *
 * <p>Object numbers: {@link #nextObjectNumber()} is the lowest number a new table may take. It only
 * grows (dropping a table does not lower it), so an object number in a redo record names one
 * table for the life of the dictionary.
 *
 * <p>Listings are deterministic: keyspaces by name, tables by object number (per keyspace: by
 * name), user types per keyspace in creation order (a type comes after the types it uses).
 */
public final class DictionaryVersion {
    /** No keyspace, at SCN 0, with object numbers starting at 0. */
    public static final DictionaryVersion EMPTY = new DictionaryVersion(0, new TreeMap<>(), new TreeMap<>(),
            new TreeMap<>(), 0);

    private final long scn;
    private final Map<String, KeyspaceDef> keyspaces;
    private final Map<String, Map<String, TableDef>> tablesByKeyspace;
    private final Map<String, Map<String, UserTypeDef>> typesByKeyspace;
    private final long nextObjectNumber;
    private final long[] objectNumbers;
    private final TableDef[] tablesByNumber;
    private final List<KeyspaceDef> keyspaceList;
    private final List<TableDef> tableList;
    private final List<UserTypeDef> typeList;

    /** Takes ownership of the maps (sorted by name; inner type maps in creation order). */
    private DictionaryVersion(long scn, TreeMap<String, KeyspaceDef> keyspaces,
            TreeMap<String, TreeMap<String, TableDef>> tables, TreeMap<String, LinkedHashMap<String, UserTypeDef>> types,
            long nextObjectNumber) {
        this.scn = scn;
        this.nextObjectNumber = nextObjectNumber;
        this.keyspaces = Collections.unmodifiableMap(keyspaces);
        Map<String, Map<String, TableDef>> t = new TreeMap<>();
        List<TableDef> all = new ArrayList<>();
        for (Map.Entry<String, TreeMap<String, TableDef>> e : tables.entrySet()) {
            t.put(e.getKey(), Collections.unmodifiableMap(e.getValue()));
            all.addAll(e.getValue().values());
        }
        this.tablesByKeyspace = Collections.unmodifiableMap(t);
        Map<String, Map<String, UserTypeDef>> u = new TreeMap<>();
        List<UserTypeDef> allTypes = new ArrayList<>();
        for (Map.Entry<String, LinkedHashMap<String, UserTypeDef>> e : types.entrySet()) {
            u.put(e.getKey(), Collections.unmodifiableMap(e.getValue()));
            allTypes.addAll(e.getValue().values());
        }
        this.typesByKeyspace = Collections.unmodifiableMap(u);
        all.sort((a, b) -> Long.compare(a.objectNumber(), b.objectNumber()));
        this.tableList = Collections.unmodifiableList(all);
        this.objectNumbers = new long[all.size()];
        this.tablesByNumber = all.toArray(new TableDef[0]);
        for (int i = 0; i < objectNumbers.length; i++) {
            objectNumbers[i] = tablesByNumber[i].objectNumber();
        }
        this.keyspaceList = List.copyOf(keyspaces.values());
        this.typeList = Collections.unmodifiableList(allTypes);
    }

    /**
     * The same objects as a version that takes effect at {@code scn}: what a dictionary build
     * found in the redo installs into a LogMiner dictionary at the build's SCN.
     */
    public DictionaryVersion atScn(long scn) {
        return scn == this.scn ? this : new Editor(this).build(scn);
    }

    /** The SCN this version took effect at. */
    public long scn() {
        return scn;
    }

    /** The lowest object number a new table may take. */
    public long nextObjectNumber() {
        return nextObjectNumber;
    }

    public Optional<KeyspaceDef> keyspace(String name) {
        return Optional.ofNullable(keyspaces.get(name));
    }

    /** @throws UnknownKeyspaceException if there is no such keyspace */
    public KeyspaceDef requireKeyspace(String name) {
        KeyspaceDef k = keyspaces.get(name);
        if (k == null) {
            throw new UnknownKeyspaceException(name);
        }
        return k;
    }

    /** Every keyspace, by name. */
    public List<KeyspaceDef> keyspaces() {
        return keyspaceList;
    }

    public Optional<TableDef> table(String keyspace, String name) {
        Map<String, TableDef> t = tablesByKeyspace.get(keyspace);
        return Optional.ofNullable(t == null ? null : t.get(name));
    }

    /**
     * @throws UnknownKeyspaceException if the keyspace does not exist
     * @throws UnknownTableException if the table does not exist
     */
    public TableDef requireTable(String keyspace, String name) {
        requireKeyspace(keyspace);
        TableDef t = tablesByKeyspace.get(keyspace).get(name);
        if (t == null) {
            throw new UnknownTableException(keyspace, name);
        }
        return t;
    }

    /** The table a redo record's object number names, as it was in this version. */
    public Optional<TableDef> table(long objectNumber) {
        int i = Arrays.binarySearch(objectNumbers, objectNumber);
        return i >= 0 ? Optional.of(tablesByNumber[i]) : Optional.empty();
    }

    /** @throws UnknownTableException if no table has that object number in this version */
    public TableDef requireTable(long objectNumber) {
        int i = Arrays.binarySearch(objectNumbers, objectNumber);
        if (i < 0) {
            throw new UnknownTableException(objectNumber);
        }
        return tablesByNumber[i];
    }

    /** Every table, by object number. */
    public List<TableDef> tables() {
        return tableList;
    }

    /** The tables of a keyspace by name; empty for an unknown keyspace. */
    public List<TableDef> tablesOf(String keyspace) {
        Map<String, TableDef> t = tablesByKeyspace.get(keyspace);
        return t == null ? List.of() : List.copyOf(t.values());
    }

    public Optional<UserTypeDef> userType(String keyspace, String name) {
        Map<String, UserTypeDef> t = typesByKeyspace.get(keyspace);
        return Optional.ofNullable(t == null ? null : t.get(name));
    }

    /** Every user type: keyspaces by name, each in creation order. */
    public List<UserTypeDef> userTypes() {
        return typeList;
    }

    /** The user types of a keyspace in creation order; empty for an unknown keyspace. */
    public List<UserTypeDef> userTypesOf(String keyspace) {
        Map<String, UserTypeDef> t = typesByKeyspace.get(keyspace);
        return t == null ? List.of() : List.copyOf(t.values());
    }

    /**
     * Resolves type names for {@link CqlType#parse(String, CqlType.UserTypeResolver)} in the
     * context of {@code keyspace}: {@code name} or {@code ks.name}; null when unknown.
     */
    public CqlType.UserTypeResolver userTypeResolver(String keyspace) {
        return typeName -> {
            int dot = typeName.indexOf('.');
            String ks = dot < 0 ? keyspace : typeName.substring(0, dot);
            String n = dot < 0 ? typeName : typeName.substring(dot + 1);
            return userType(ks, n).map(UserTypeDef::toType).orElse(null);
        };
    }

    // ---------------------------------------------------------------- changes

    /**
     * Whether this version already has the effect of {@code change}: every node's redo thread
     * carries each DDL of the cluster, so a capture merging the threads meets each change once
     * per thread, and only the first may change its dictionary. A create whose object exists
     * (tables by object number, so a table created again under the same name is not mistaken for
     * it), a drop whose object is gone, an alter whose table already has the new definition or
     * is gone: all already applied.
     */
    public boolean reflects(DictionaryChange change) {
        if (change instanceof DictionaryChange.CreateKeyspace c) {
            return keyspace(c.keyspace().name()).isPresent();
        } else if (change instanceof DictionaryChange.DropKeyspace d) {
            return keyspace(d.keyspace()).isEmpty();
        } else if (change instanceof DictionaryChange.CreateTable c) {
            return table(c.table().objectNumber()).isPresent();
        } else if (change instanceof DictionaryChange.AlterTable a) {
            return table(a.newDef().objectNumber()).map(t -> t.equals(a.newDef())).orElse(true);
        } else if (change instanceof DictionaryChange.DropTable d) {
            return table(d.keyspace(), d.name()).isEmpty();
        } else if (change instanceof DictionaryChange.TruncateTable) {
            return true; // a truncate leaves the definitions as they are
        } else if (change instanceof DictionaryChange.CreateType c) {
            return userType(c.type().keyspace(), c.type().name()).isPresent();
        } else if (change instanceof DictionaryChange.DropType d) {
            return userType(d.keyspace(), d.name()).isEmpty();
        }
        throw new IllegalArgumentException("unknown dictionary change " + change);
    }

    /**
     * The version after {@code change}, taking effect at {@code scn}.
     *
     * @throws IllegalArgumentException if {@code scn} is negative or below this version's SCN
     * @throws UnknownKeyspaceException if the change names a keyspace that does not exist
     * @throws UnknownTableException if it alters or drops a table that does not exist
     * @throws CqlType.UnknownTypeException if it drops or uses a user type that does not exist
     * @throws AlreadyExistsException if it creates a keyspace, table or type that exists
     * @throws InvalidSchemaException if it breaks a rule: an object number already used, an
     *         altered primary key, a reused column number, a type still in use being dropped
     */
    public DictionaryVersion apply(long scn, DictionaryChange change) {
        Objects.requireNonNull(change, "change");
        if (scn < 0) {
            throw new IllegalArgumentException("negative scn " + scn);
        }
        if (scn < this.scn) {
            throw new IllegalArgumentException("scn " + scn + " is below the dictionary version's scn " + this.scn);
        }
        Editor e = new Editor(this);
        if (change instanceof DictionaryChange.CreateKeyspace c) {
            e.createKeyspace(c.keyspace());
        } else if (change instanceof DictionaryChange.DropKeyspace d) {
            e.dropKeyspace(d.keyspace());
        } else if (change instanceof DictionaryChange.CreateTable c) {
            e.createTable(c.table());
        } else if (change instanceof DictionaryChange.AlterTable a) {
            e.alterTable(a.newDef());
        } else if (change instanceof DictionaryChange.DropTable d) {
            e.dropTable(d.keyspace(), d.name());
        } else if (change instanceof DictionaryChange.TruncateTable t) {
            requireTable(t.keyspace(), t.name()); // the table must exist; its definition does not change
        } else if (change instanceof DictionaryChange.CreateType c) {
            e.createType(c.type());
        } else if (change instanceof DictionaryChange.DropType d) {
            e.dropType(d.keyspace(), d.name());
        }
        return e.build(scn);
    }

    /**
     * Rebuilds a version from its parts (a decoded dictionary build), checking it as if every
     * object had been created in order: keyspaces, then types in the order given, then tables by
     * object number.
     */
    static DictionaryVersion restore(long scn, long nextObjectNumber, List<KeyspaceDef> keyspaces,
            List<UserTypeDef> types, List<TableDef> tables) {
        DictionaryVersion v = EMPTY;
        for (KeyspaceDef k : keyspaces) {
            v = v.apply(scn, new DictionaryChange.CreateKeyspace(k));
        }
        for (UserTypeDef t : types) {
            v = v.apply(scn, new DictionaryChange.CreateType(t));
        }
        List<TableDef> sorted = new ArrayList<>(tables);
        sorted.sort((a, b) -> Long.compare(a.objectNumber(), b.objectNumber()));
        for (TableDef t : sorted) {
            v = v.apply(scn, new DictionaryChange.CreateTable(t));
        }
        if (nextObjectNumber < v.nextObjectNumber) {
            throw new InvalidSchemaException("next object number " + nextObjectNumber
                    + " is not above the object numbers in use");
        }
        Editor e = new Editor(v);
        e.nextObjectNumber = nextObjectNumber;
        return e.build(scn);
    }

    /** Copies of the maps, edited by one change, then frozen into the next version. */
    private static final class Editor {
        final TreeMap<String, KeyspaceDef> keyspaces;
        final TreeMap<String, TreeMap<String, TableDef>> tables = new TreeMap<>();
        final TreeMap<String, LinkedHashMap<String, UserTypeDef>> types = new TreeMap<>();
        long nextObjectNumber;

        Editor(DictionaryVersion v) {
            keyspaces = new TreeMap<>(v.keyspaces);
            v.tablesByKeyspace.forEach((k, t) -> tables.put(k, new TreeMap<>(t)));
            v.typesByKeyspace.forEach((k, t) -> types.put(k, new LinkedHashMap<>(t)));
            nextObjectNumber = v.nextObjectNumber;
        }

        DictionaryVersion build(long scn) {
            return new DictionaryVersion(scn, keyspaces, tables, types, nextObjectNumber);
        }

        private void requireKeyspace(String keyspace) {
            if (!keyspaces.containsKey(keyspace)) {
                throw new UnknownKeyspaceException(keyspace);
            }
        }

        void createKeyspace(KeyspaceDef k) {
            if (keyspaces.containsKey(k.name())) {
                throw AlreadyExistsException.keyspace(k.name());
            }
            keyspaces.put(k.name(), k);
            tables.put(k.name(), new TreeMap<>());
            types.put(k.name(), new LinkedHashMap<>());
        }

        void dropKeyspace(String keyspace) {
            requireKeyspace(keyspace);
            keyspaces.remove(keyspace);
            tables.remove(keyspace);
            types.remove(keyspace);
        }

        void createTable(TableDef t) {
            requireKeyspace(t.keyspace());
            if (tables.get(t.keyspace()).containsKey(t.name())) {
                throw AlreadyExistsException.table(t.keyspace(), t.name());
            }
            if (t.objectNumber() < nextObjectNumber) {
                throw new InvalidSchemaException("object number " + t.objectNumber() + " of table " + t.qualifiedName()
                        + " was already used; the next free object number is " + nextObjectNumber);
            }
            checkTypeReferences(t);
            tables.get(t.keyspace()).put(t.name(), t);
            nextObjectNumber = t.objectNumber() + 1;
        }

        void alterTable(TableDef next) {
            requireKeyspace(next.keyspace());
            TableDef old = tables.get(next.keyspace()).get(next.name());
            if (old == null) {
                throw new UnknownTableException(next.keyspace(), next.name());
            }
            String table = old.qualifiedName();
            if (next.objectNumber() != old.objectNumber()) {
                throw new InvalidSchemaException("table " + table + " has object number " + old.objectNumber()
                        + "; an altered definition cannot change it to " + next.objectNumber());
            }
            if (!next.primaryKeyColumns().equals(old.primaryKeyColumns())) {
                throw new InvalidSchemaException("the primary key of table " + table + " cannot be altered");
            }
            if (next.nextColumnNumber() < old.nextColumnNumber()) {
                throw new InvalidSchemaException("table " + table + ": the next column number cannot go back from "
                        + old.nextColumnNumber() + " to " + next.nextColumnNumber());
            }
            for (ColumnDef c : next.columns()) {
                Optional<ColumnDef> before = old.columnByNumber(c.columnNumber());
                if (before.isPresent()) {
                    ColumnDef b = before.get();
                    if (!b.name().equals(c.name()) || !b.type().equals(c.type()) || b.kind() != c.kind()) {
                        throw new InvalidSchemaException("table " + table + ": column number " + c.columnNumber()
                                + " is '" + b.name() + "' " + b.type().cql() + " " + b.kind()
                                + " and cannot become '" + c.name() + "' " + c.type().cql() + " " + c.kind());
                    }
                } else if (c.columnNumber() < old.nextColumnNumber()) {
                    throw new InvalidSchemaException("table " + table + ": column '" + c.name() + "' reuses column number "
                            + c.columnNumber() + "; new columns take numbers from " + old.nextColumnNumber());
                }
            }
            checkTypeReferences(next);
            tables.get(next.keyspace()).put(next.name(), next);
        }

        void dropTable(String keyspace, String name) {
            requireKeyspace(keyspace);
            if (tables.get(keyspace).remove(name) == null) {
                throw new UnknownTableException(keyspace, name);
            }
        }

        void createType(UserTypeDef t) {
            requireKeyspace(t.keyspace());
            if (types.get(t.keyspace()).containsKey(t.name())) {
                throw AlreadyExistsException.type(t.keyspace(), t.name());
            }
            for (CqlType.Field f : t.fields()) {
                checkTypeReference(t.keyspace(), "field '" + f.name() + "' of type " + t.qualifiedName(), f.type());
            }
            types.get(t.keyspace()).put(t.name(), t);
        }

        void dropType(String keyspace, String name) {
            requireKeyspace(keyspace);
            Map<String, UserTypeDef> ks = types.get(keyspace);
            if (!ks.containsKey(name)) {
                throw new CqlType.UnknownTypeException("unknown type " + keyspace + "." + name);
            }
            for (TableDef t : tables.get(keyspace).values()) {
                for (ColumnDef c : t.columns()) {
                    if (uses(c.type(), keyspace, name)) {
                        throw new InvalidSchemaException("cannot drop type " + keyspace + "." + name
                                + ": column '" + c.name() + "' of table " + t.qualifiedName() + " uses it");
                    }
                }
            }
            for (UserTypeDef other : ks.values()) {
                if (!other.name().equals(name)) {
                    for (CqlType.Field f : other.fields()) {
                        if (uses(f.type(), keyspace, name)) {
                            throw new InvalidSchemaException("cannot drop type " + keyspace + "." + name
                                    + ": type " + other.qualifiedName() + " uses it");
                        }
                    }
                }
            }
            ks.remove(name);
        }

        private void checkTypeReferences(TableDef t) {
            for (ColumnDef c : t.columns()) {
                checkTypeReference(t.keyspace(), "column '" + c.name() + "' of table " + t.qualifiedName(), c.type());
            }
        }

        /** Every user type in {@code type} exists in the same keyspace with the same fields. */
        private void checkTypeReference(String keyspace, String where, CqlType type) {
            if (type instanceof CqlType.ListType l) {
                checkTypeReference(keyspace, where, l.element());
            } else if (type instanceof CqlType.SetType s) {
                checkTypeReference(keyspace, where, s.element());
            } else if (type instanceof CqlType.MapType m) {
                checkTypeReference(keyspace, where, m.key());
                checkTypeReference(keyspace, where, m.value());
            } else if (type instanceof CqlType.UserType u) {
                if (!u.keyspace().equals(keyspace)) {
                    throw new InvalidSchemaException(where + " uses type " + u.keyspace() + "." + u.name()
                            + " of another keyspace; a user type is usable only in its own keyspace");
                }
                UserTypeDef def = types.get(keyspace).get(u.name());
                if (def == null) {
                    throw new CqlType.UnknownTypeException("unknown type " + keyspace + "." + u.name() + " in " + where);
                }
                if (!def.fields().equals(u.fields())) {
                    throw new InvalidSchemaException(where + " uses type " + def.qualifiedName()
                            + " with fields that differ from the dictionary's definition");
                }
            }
        }

        private static boolean uses(CqlType type, String keyspace, String name) {
            if (type instanceof CqlType.ListType l) {
                return uses(l.element(), keyspace, name);
            }
            if (type instanceof CqlType.SetType s) {
                return uses(s.element(), keyspace, name);
            }
            if (type instanceof CqlType.MapType m) {
                return uses(m.key(), keyspace, name) || uses(m.value(), keyspace, name);
            }
            if (type instanceof CqlType.UserType u) {
                if (u.keyspace().equals(keyspace) && u.name().equals(name)) {
                    return true;
                }
                for (CqlType.Field f : u.fields()) {
                    if (uses(f.type(), keyspace, name)) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DictionaryVersion v && scn == v.scn && nextObjectNumber == v.nextObjectNumber
                && keyspaces.equals(v.keyspaces) && tableList.equals(v.tableList)
                && typesByKeyspace.equals(v.typesByKeyspace) && typeList.equals(v.typeList);
    }

    @Override
    public int hashCode() {
        return Objects.hash(scn, nextObjectNumber, keyspaces, tableList, typeList);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("DictionaryVersion[scn=").append(scn).append(", keyspaces=")
                .append(keyspaces.keySet()).append(", tables=[");
        for (int i = 0; i < tableList.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(tableList.get(i).qualifiedName()).append('#').append(tableList.get(i).objectNumber());
        }
        return sb.append("], types=").append(typeList.size()).append(", nextObjectNumber=").append(nextObjectNumber)
                .append(']').toString();
    }
}
