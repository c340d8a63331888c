package dev.tributary.client.errors;

/**
 * A consumer group refused a member's commit (code FENCED, gRPC FAILED_PRECONDITION): the group's
 * epoch moved on (a member joined, left or expired) or the member's lease ran out. The positions
 * were not stored; the member must take its new share (or join again) before it commits. The
 * {@code ChangeConsumer} handles this itself; callers of the wire API see it.
 */
public class FencedException extends TributaryException {
    private static final long serialVersionUID = 1L;

    public FencedException(String code, String message, Throwable cause) {
        super(code, message, cause);
    }
}
