package dev.tributary.client.errors;

/**
 * A value could not be converted between Java and the wire for a CQL type: a bound value of the
 * wrong Java class or out of the type's range, a server value that does not match its column's
 * type, a typed getter used on a column of another type, or an unparseable type name. The message
 * names the column or bind marker and both types. Raised by the client, before or after the RPC.
 */
public class ValueConversionException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public ValueConversionException(String message) {
        super(message);
    }

    public ValueConversionException(String message, Throwable cause) {
        super(message, cause);
    }
}
