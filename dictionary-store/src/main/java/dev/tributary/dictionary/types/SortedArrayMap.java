package dev.tributary.dictionary.types;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The immutable map of the value model: distinct keys in a sorted array with their values in a
 * parallel array, iterated in the CQL order of the key type, looked up by binary search. Built
 * only by {@link Values#normalize} and {@link ValueCodec#decode}.
 */
final class SortedArrayMap extends AbstractMap<Object, Object> {
    private final CqlType keyType;
    private final Comparator<Object> order;
    private final Object[] keys;
    private final Object[] values;

    /** {@code keys} sorted and distinct under {@code order}; both arrays are owned. */
    SortedArrayMap(CqlType keyType, Comparator<Object> order, Object[] keys, Object[] values) {
        this.keyType = keyType;
        this.order = order;
        this.keys = keys;
        this.values = values;
    }

    CqlType keyType() {
        return keyType;
    }

    Object keyAt(int i) {
        return keys[i];
    }

    Object valueAt(int i) {
        return values[i];
    }

    @Override
    public int size() {
        return keys.length;
    }

    private int indexOf(Object key) {
        if (key == null) {
            return -1;
        }
        try {
            return SortedArrays.search(keys, keys.length, key, order);
        } catch (ClassCastException notOfTheKeyType) {
            return -1;
        }
    }

    @Override
    public boolean containsKey(Object key) {
        return indexOf(key) >= 0;
    }

    @Override
    public Object get(Object key) {
        int i = indexOf(key);
        return i >= 0 ? values[i] : null;
    }

    @Override
    public Set<Entry<Object, Object>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return keys.length;
            }

            @Override
            public Iterator<Entry<Object, Object>> iterator() {
                return new Iterator<>() {
                    private int i;

                    @Override
                    public boolean hasNext() {
                        return i < keys.length;
                    }

                    @Override
                    public Entry<Object, Object> next() {
                        if (i >= keys.length) {
                            throw new NoSuchElementException();
                        }
                        int at = i++;
                        return new SimpleImmutableEntry<>(keys[at], values[at]);
                    }
                };
            }
        };
    }
}
