package dev.tributary.dictionary.types;

import dev.tributary.dictionary.errors.DictionaryException;


/** Bytes handed to the value codec are not a valid serialization of the expected CQL type. */
public final class MalformedValueException extends DictionaryException {
    private static final long serialVersionUID = 1L;
    private final transient CqlType type;

    public MalformedValueException(CqlType type, String detail) {
        super("malformed " + type.cql() + " value: " + detail);
        this.type = type;
    }

    public CqlType type() {
        return type;
    }
}
