package dev.tributary.client;

import dev.tributary.client.errors.UnknownColumnException;
import dev.tributary.client.errors.ValueConversionException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * One result row: values in column order, held in the Java value model (docs/ARCHITECTURE.md):
 * text as String, tinyint/smallint/int/bigint/counter as Byte/Short/Integer/Long, varint/decimal
 * as BigInteger/BigDecimal, float/double as Float/Double, timestamp as Instant, date/time as
 * LocalDate/LocalTime, duration as {@link CqlDuration}, blob as a read-only {@link ByteBuffer},
 * uuid/timeuuid as UUID, inet as InetAddress, list/set/map as unmodifiable List/Set/Map (sets and
 * maps in the order the server sent, CQL order), user types as {@code Map<String,Object>}.
 * Immutable and thread-safe.
 *
 * <p>Columns are found by index (from 0) or by name: the exact name first, then a unique
 * case-insensitive match ({@code "Name"} in double quotes matches exactly). An unknown column
 * raises {@link UnknownColumnException}. A typed getter raises {@link ValueConversionException}
 * naming the column and its type when the column holds another type; the primitive getters
 * ({@code getInt}, {@code getLong}, ...) raise it for NULL too (test {@link #isNull} first), the
 * object getters return null, and the collection getters return an empty collection (in CQL an
 * empty collection is NULL). Blobs inside collections are read-only buffers shared by every
 * reader of the row: read them through {@code duplicate()} to leave their position alone.
 */
public final class Row {
    private final Columns columns;
    private final Object[] values;

    Row(Columns columns, Object[] values) {
        this.columns = columns;
        this.values = values;
    }

    public List<ColumnDefinition> columns() {
        return columns.definitions();
    }

    public int size() {
        return values.length;
    }

    /** The value in the Java value model; a blob is a fresh read-only view. */
    public Object getObject(int index) {
        columns.get(index);
        Object v = values[index];
        return v instanceof ByteBuffer b ? b.asReadOnlyBuffer() : v;
    }

    public Object getObject(String name) {
        return getObject(columns.indexOf(name));
    }

    public boolean isNull(int index) {
        return getObject(index) == null;
    }

    public boolean isNull(String name) {
        return getObject(name) == null;
    }

    public String getString(String name) {
        return getString(columns.indexOf(name));
    }

    public String getString(int index) {
        return typed(index, String.class, "getString", "text, ascii or varchar");
    }

    public byte getByte(String name) {
        return getByte(columns.indexOf(name));
    }

    public byte getByte(int index) {
        return primitive(index, Byte.class, "getByte", "tinyint");
    }

    public short getShort(String name) {
        return getShort(columns.indexOf(name));
    }

    public short getShort(int index) {
        Object v = primitive(index, Number.class, "getShort", "smallint or tinyint");
        if (v instanceof Short || v instanceof Byte) {
            return ((Number) v).shortValue();
        }
        throw wrongType(index, "getShort", "smallint or tinyint");
    }

    /** An int, smallint or tinyint column. */
    public int getInt(String name) {
        return getInt(columns.indexOf(name));
    }

    public int getInt(int index) {
        Object v = primitive(index, Number.class, "getInt", "int, smallint or tinyint");
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).intValue();
        }
        throw wrongType(index, "getInt", "int, smallint or tinyint");
    }

    /** A bigint, counter, int, smallint or tinyint column. */
    public long getLong(String name) {
        return getLong(columns.indexOf(name));
    }

    public long getLong(int index) {
        Object v = primitive(index, Number.class, "getLong", "bigint, counter, int, smallint or tinyint");
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        throw wrongType(index, "getLong", "bigint, counter, int, smallint or tinyint");
    }

    public float getFloat(String name) {
        return getFloat(columns.indexOf(name));
    }

    public float getFloat(int index) {
        return primitive(index, Float.class, "getFloat", "float");
    }

    /** A double or float column. */
    public double getDouble(String name) {
        return getDouble(columns.indexOf(name));
    }

    public double getDouble(int index) {
        Object v = primitive(index, Number.class, "getDouble", "double or float");
        if (v instanceof Double || v instanceof Float) {
            return ((Number) v).doubleValue();
        }
        throw wrongType(index, "getDouble", "double or float");
    }

    public boolean getBoolean(String name) {
        return getBoolean(columns.indexOf(name));
    }

    public boolean getBoolean(int index) {
        return primitive(index, Boolean.class, "getBoolean", "boolean");
    }

    public BigInteger getVarint(String name) {
        return getVarint(columns.indexOf(name));
    }

    public BigInteger getVarint(int index) {
        return typed(index, BigInteger.class, "getVarint", "varint");
    }

    public BigDecimal getDecimal(String name) {
        return getDecimal(columns.indexOf(name));
    }

    public BigDecimal getDecimal(int index) {
        return typed(index, BigDecimal.class, "getDecimal", "decimal");
    }

    public UUID getUuid(String name) {
        return getUuid(columns.indexOf(name));
    }

    public UUID getUuid(int index) {
        return typed(index, UUID.class, "getUuid", "uuid or timeuuid");
    }

    public Instant getInstant(String name) {
        return getInstant(columns.indexOf(name));
    }

    public Instant getInstant(int index) {
        return typed(index, Instant.class, "getInstant", "timestamp");
    }

    public LocalDate getLocalDate(String name) {
        return getLocalDate(columns.indexOf(name));
    }

    public LocalDate getLocalDate(int index) {
        return typed(index, LocalDate.class, "getLocalDate", "date");
    }

    public LocalTime getLocalTime(String name) {
        return getLocalTime(columns.indexOf(name));
    }

    public LocalTime getLocalTime(int index) {
        return typed(index, LocalTime.class, "getLocalTime", "time");
    }

    public CqlDuration getDuration(String name) {
        return getDuration(columns.indexOf(name));
    }

    public CqlDuration getDuration(int index) {
        return typed(index, CqlDuration.class, "getDuration", "duration");
    }

    /** A blob column as a fresh read-only view (moving its position affects no one else). */
    public ByteBuffer getBytes(String name) {
        return getBytes(columns.indexOf(name));
    }

    public ByteBuffer getBytes(int index) {
        ByteBuffer b = typed(index, ByteBuffer.class, "getBytes", "blob");
        return b == null ? null : b.asReadOnlyBuffer();
    }

    public InetAddress getInetAddress(String name) {
        return getInetAddress(columns.indexOf(name));
    }

    public InetAddress getInetAddress(int index) {
        return typed(index, InetAddress.class, "getInetAddress", "inet");
    }

    /** A list column whose elements are all of the given class (boxed, e.g. Integer.class). */
    public <T> List<T> getList(String name, Class<T> elementType) {
        return getList(columns.indexOf(name), elementType);
    }

    public <T> List<T> getList(int index, Class<T> elementType) {
        List<?> list = typed(index, List.class, "getList", "list");
        if (list == null) {
            return List.of();
        }
        checkElements(index, list, elementType, "getList");
        @SuppressWarnings("unchecked")
        List<T> out = (List<T>) list;
        return out;
    }

    /** A set column whose elements are all of the given class; iterates in CQL order. */
    public <T> Set<T> getSet(String name, Class<T> elementType) {
        return getSet(columns.indexOf(name), elementType);
    }

    public <T> Set<T> getSet(int index, Class<T> elementType) {
        Set<?> set = typed(index, Set.class, "getSet", "set");
        if (set == null) {
            return Set.of();
        }
        checkElements(index, set, elementType, "getSet");
        @SuppressWarnings("unchecked")
        Set<T> out = (Set<T>) set;
        return out;
    }

    /** A map column with keys and values of the given classes; iterates in CQL order of keys. */
    public <K, V> Map<K, V> getMap(String name, Class<K> keyType, Class<V> valueType) {
        return getMap(columns.indexOf(name), keyType, valueType);
    }

    public <K, V> Map<K, V> getMap(int index, Class<K> keyType, Class<V> valueType) {
        if (isUdt(index)) {
            throw wrongType(index, "getMap", "map");
        }
        Map<?, ?> map = typed(index, Map.class, "getMap", "map");
        if (map == null) {
            return Map.of();
        }
        checkElements(index, map.keySet(), keyType, "getMap (keys)");
        checkElements(index, map.values(), valueType, "getMap (values)");
        @SuppressWarnings("unchecked")
        Map<K, V> out = (Map<K, V>) map;
        return out;
    }

    /** A user-type column: its fields by name, in field order; null for NULL. */
    public Map<String, Object> getUdt(String name) {
        return getUdt(columns.indexOf(name));
    }

    public Map<String, Object> getUdt(int index) {
        if (!isUdt(index)) {
            throw wrongType(index, "getUdt", "a user-defined type");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = typed(index, Map.class, "getUdt", "a user-defined type");
        return fields;
    }

    /**
     * The row as a JSON object (docs/REFERENCE.md, "JSON forms"), each column keyed by its name as the
     * server wrote it, in column order; e.g. {@code {"k":1,"ts":"2020-03-25T12:44:43.006Z"}}.
     */
    public String toJson() {
        return Json.object(f -> {
            for (int i = 0; i < values.length; i++) {
                f.field(columns.get(i).name(), values[i]);
            }
        });
    }

    /** The values by column name, in column order (a later duplicate name wins). */
    public Map<String, Object> toMap() {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < values.length; i++) {
            out.put(columns.get(i).name(), values[i]);
        }
        return Collections.unmodifiableMap(out);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Row r && r.columns.definitions().equals(columns.definitions())
                && Arrays.equals(r.values, values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return "Row" + toJson();
    }

    private boolean isUdt(int index) {
        return columns.get(index).cqlType() instanceof CqlTypeName.UserDefined;
    }

    private <T> T typed(int index, Class<T> type, String getter, String expected) {
        Object v = getObject(index);
        if (v == null) {
            return null;
        }
        if (!type.isInstance(v)) {
            throw wrongType(index, getter, expected);
        }
        return type.cast(v);
    }

    private <T> T primitive(int index, Class<T> type, String getter, String expected) {
        Object v = getObject(index);
        if (v == null) {
            throw new ValueConversionException("column '" + columns.get(index).name() + "' is NULL; " + getter
                    + " cannot return it (test isNull first, or use getObject)");
        }
        if (!type.isInstance(v)) {
            throw wrongType(index, getter, expected);
        }
        return type.cast(v);
    }

    private void checkElements(int index, java.util.Collection<?> items, Class<?> type, String getter) {
        for (Object e : items) {
            if (e != null && !type.isInstance(e)) {
                throw new ValueConversionException("column '" + columns.get(index).name() + "' of type "
                        + typeOf(index) + " holds " + e.getClass().getName() + " elements, not " + type.getName()
                        + " as " + getter + " was asked for");
            }
        }
    }

    private ValueConversionException wrongType(int index, String getter, String expected) {
        Object v = values[index];
        return new ValueConversionException("column '" + columns.get(index).name() + "' is of type " + typeOf(index)
                + (v == null ? "" : " (" + v.getClass().getName() + ")") + "; " + getter + " reads " + expected);
    }

    private String typeOf(int index) {
        String t = columns.get(index).type();
        return t.isBlank() ? "unknown" : t;
    }
}
