package dev.tributary.client;

import dev.tributary.client.errors.ValueConversionException;
import dev.tributary.client.internal.ValueCodec;
import dev.tributary.protocol.v1.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * A statement with bind markers ({@code ?}) the server parsed once. It can be bound and run any
 * number of times, from any thread and in any session of the client that prepared it; a node
 * that does not know its id prepares the text again. Immutable.
 */
public final class PreparedStatement {
    private final String id;
    private final String statement;
    private final List<ColumnDefinition> bindMarkers;

    PreparedStatement(String id, String statement, List<ColumnDefinition> bindMarkers) {
        this.id = id;
        this.statement = statement;
        this.bindMarkers = List.copyOf(bindMarkers);
    }

    /** The server's id for the parsed statement. */
    public String id() {
        return id;
    }

    public String statement() {
        return statement;
    }

    /** The markers in order, each with the name and type of what it binds. */
    public List<ColumnDefinition> bindMarkers() {
        return bindMarkers;
    }

    /**
     * Binds one value per marker, converted for the marker's type (null is NULL); integral
     * values are range-checked, so {@code 300} for a tinyint fails here.
     *
     * @throws ValueConversionException on a wrong number of values or a value that does not fit
     *         its marker, naming the marker
     */
    public BoundStatement bind(Object... values) {
        Object[] vs = values == null ? new Object[] {null} : values;
        if (vs.length != bindMarkers.size()) {
            throw new ValueConversionException("statement '" + statement + "' has " + bindMarkers.size()
                    + " bind markers but " + vs.length + " values were given");
        }
        List<Value> encoded = new ArrayList<>(vs.length);
        for (int i = 0; i < vs.length; i++) {
            ColumnDefinition marker = bindMarkers.get(i);
            encoded.add(ValueCodec.encode(vs[i], marker.cqlType(), "bind marker " + i + " (" + marker.name() + ")"));
        }
        return new BoundStatement(this, encoded, null);
    }

    @Override
    public String toString() {
        return "PreparedStatement[" + id + ": " + statement + "]";
    }
}
