package dev.tributary.client;

import dev.tributary.client.errors.ValueConversionException;
import dev.tributary.client.internal.RoutingKey;
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
    private final List<Integer> partitionKeyIndexes;
    private final List<CqlTypeName> partitionKeyTypes;
    private final String table;

    /**
     * @param partitionKeyIndexes the markers binding the partition key, in key order, as the
     *        server said at prepare; empty when it cannot be routed (or the server did not say)
     * @param table "ks.t", the table the statement writes or reads, or null when the server did not say
     */
    PreparedStatement(String id, String statement, List<ColumnDefinition> bindMarkers, List<Integer> partitionKeyIndexes,
            String table) {
        this.id = id;
        this.table = table;
        this.statement = statement;
        this.bindMarkers = List.copyOf(bindMarkers);
        List<CqlTypeName> types = new ArrayList<>();
        for (int i : partitionKeyIndexes) {
            CqlTypeName t = i >= 0 && i < bindMarkers.size() ? bindMarkers.get(i).cqlType() : null;
            if (t == null) {
                types.clear(); // a marker the server named no type for: the key cannot be serialized
                break;
            }
            types.add(t);
        }
        this.partitionKeyTypes = List.copyOf(types);
        this.partitionKeyIndexes = types.isEmpty() ? List.of() : List.copyOf(partitionKeyIndexes);
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
     * The indexes of the markers that bind the partition key, in partition key order: a
     * token-aware client sends the bound statement to the node owning the key's token. Empty
     * when the statement does not bind its whole partition key with markers by equality.
     */
    public List<Integer> partitionKeyIndexes() {
        return partitionKeyIndexes;
    }

    /** The table and the partition key's bytes as the nodes hash them, or null when they cannot be made. */
    RoutingKey routingKey(List<Value> values) {
        byte[] key = partitionKeyIndexes.isEmpty() ? null : RoutingKeys.serialize(partitionKeyIndexes, partitionKeyTypes, values);
        return key == null ? null : new RoutingKey(table, key);
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
            Value v;
            try {
                v = ValueCodec.encode(vs[i], marker.cqlType(), marker.name());
            } catch (ValueConversionException e) {
                // the full description is built only for an error; encoding again fails the same way
                v = ValueCodec.encode(vs[i], marker.cqlType(), "bind marker " + i + " (" + marker.name() + ")");
            }
            encoded.add(v);
        }
        return new BoundStatement(this, encoded, null);
    }

    @Override
    public String toString() {
        return "PreparedStatement[" + id + ": " + statement + "]";
    }
}
