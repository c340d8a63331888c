package dev.tributary.client.errors;

/** The server failed while running the request (code INTERNAL, or gRPC UNKNOWN / DATA_LOSS). Whether a write took effect is unknown. */
public class ServerErrorException extends TributaryException {
    private static final long serialVersionUID = 1L;

    public ServerErrorException(String code, String message) {
        super(code, message);
    }

    public ServerErrorException(String code, String message, Throwable cause) {
        super(code, message, cause);
    }
}
