package dev.tributary.client.errors;

import java.util.List;

/**
 * No endpoint could serve the request (code UNAVAILABLE): each one was unreachable or answered
 * UNAVAILABLE. The message names the endpoints tried and the last failure; the request may be
 * retried later.
 */
public class UnavailableException extends TributaryException {
    private static final long serialVersionUID = 1L;

    private final List<String> endpointsTried;

    public UnavailableException(String message, List<String> endpointsTried, Throwable cause) {
        super("UNAVAILABLE", message, cause);
        this.endpointsTried = List.copyOf(endpointsTried);
    }

    /** The endpoints tried, in the order they were tried. */
    public List<String> endpointsTried() {
        return endpointsTried;
    }
}
