package dev.tributary.dictionary.types;

import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * The immutable list of the value model, over an array it owns. Built only by
 * {@link Values#normalize} and {@link ValueCodec#decode}, which recognize it and pass it on
 * without copying.
 */
final class ImmutableArrayList extends AbstractList<Object> implements RandomAccess {
    private final CqlType elementType;
    private final Object[] elements;

    /** {@code elements} are valid values of {@code elementType}; the array is owned. */
    ImmutableArrayList(CqlType elementType, Object[] elements) {
        this.elementType = elementType;
        this.elements = elements;
    }

    CqlType elementType() {
        return elementType;
    }

    @Override
    public Object get(int index) {
        return elements[index];
    }

    @Override
    public int size() {
        return elements.length;
    }

    @Override
    public Object[] toArray() {
        return elements.clone();
    }
}
