package dev.tributary.client;

import dev.tributary.protocol.v1.NamedValue;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * An LCR's column values as a read-only map whose values are decoded from the wire when first
 * read: a consumer that counts or routes changes, or reads a few columns of a wide row, pays for
 * no other value (issue 28: "the SDK decodes a value when the handler reads it"). It reads as the
 * {@link LinkedHashMap} {@link ValueCodec#decodeFields} builds: the wire's order, and a name sent
 * twice keeps its first place and its last value. A value that cannot be decoded throws
 * {@link dev.tributary.client.errors.ValueConversionException} where it is read, naming its record
 * and field. Thread-safe: each value is decoded once, under the map's lock, and then shared.
 */
final class LazyFields extends AbstractMap<String, Object> {
    private static final Object UNREAD = new Object();

    private final List<NamedValue> fields;
    private final Supplier<String> what;
    private final Object[] values;
    /** Name to the index of its last field, in first-seen order; built on first use (names are hashed only then). */
    private Map<String, Integer> index;

    LazyFields(List<NamedValue> fields, Supplier<String> what) {
        this.fields = fields;
        this.what = what;
        this.values = new Object[fields.size()];
        Arrays.fill(values, UNREAD);
    }

    private synchronized Map<String, Integer> index() {
        if (index == null) {
            Map<String, Integer> m = new LinkedHashMap<>(Math.max(4, fields.size() * 2));
            for (int i = 0; i < fields.size(); i++) {
                m.put(fields.get(i).getName(), i);
            }
            index = m;
        }
        return index;
    }

    private synchronized Object valueAt(int i) {
        Object v = values[i];
        if (v == UNREAD) {
            v = ValueCodec.decodeField(fields.get(i), what);
            values[i] = v;
        }
        return v;
    }

    @Override
    public Object get(Object key) {
        Integer i = index().get(key);
        return i == null ? null : valueAt(i);
    }

    @Override
    public boolean containsKey(Object key) {
        return index().containsKey(key);
    }

    @Override
    public int size() {
        return index().size();
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        Map<String, Integer> names = index();
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, Object>> iterator() {
                Iterator<Entry<String, Integer>> it = names.entrySet().iterator();
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return it.hasNext();
                    }

                    @Override
                    public Entry<String, Object> next() {
                        Entry<String, Integer> e = it.next();
                        return new SimpleImmutableEntry<>(e.getKey(), valueAt(e.getValue()));
                    }
                };
            }

            @Override
            public int size() {
                return names.size();
            }
        };
    }
}
