package dev.tributary.client.errors;

/** No CDC stream covers the write's timestamp (code NO_CDC_STREAM), typically because the first generation starts about a ring delay after the cluster was created. Retry after the generation's timestamp. */
public class NoCdcStreamException extends TributaryException {
    private static final long serialVersionUID = 1L;

    public NoCdcStreamException(String code, String message) {
        super(code, message);
    }

    public NoCdcStreamException(String code, String message, Throwable cause) {
        super(code, message, cause);
    }
}
