package dev.tributary.dictionary.types;

import java.util.AbstractSet;
import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The immutable set of the value model: distinct elements held in a sorted array, iterated in the
 * CQL order of the element type, looked up by binary search with that order. Built only by
 * {@link Values#normalize} and {@link ValueCodec#decode}.
 */
final class SortedArraySet extends AbstractSet<Object> {
    private final CqlType elementType;
    private final Comparator<Object> order;
    private final Object[] elements;

    /** {@code elements} must be sorted and distinct under {@code order}; the array is owned. */
    SortedArraySet(CqlType elementType, Comparator<Object> order, Object[] elements) {
        this.elementType = elementType;
        this.order = order;
        this.elements = elements;
    }

    CqlType elementType() {
        return elementType;
    }

    Object get(int i) {
        return elements[i];
    }

    @Override
    public int size() {
        return elements.length;
    }

    @Override
    public boolean contains(Object o) {
        if (o == null) {
            return false;
        }
        try {
            return SortedArrays.search(elements, elements.length, o, order) >= 0;
        } catch (ClassCastException notOfTheElementType) {
            return false;
        }
    }

    @Override
    public Iterator<Object> iterator() {
        return new Iterator<>() {
            private int i;

            @Override
            public boolean hasNext() {
                return i < elements.length;
            }

            @Override
            public Object next() {
                if (i >= elements.length) {
                    throw new NoSuchElementException();
                }
                return elements[i++];
            }
        };
    }

    @Override
    public Object[] toArray() {
        return elements.clone();
    }
}
