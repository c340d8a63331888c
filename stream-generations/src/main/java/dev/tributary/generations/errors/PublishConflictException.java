package dev.tributary.generations.errors;

/**
 * A generation was not published because the newest published one is no longer the one the
 * decision was based on: another coordinator published in between — typically after this one's
 * coordination session expired and the topology lock passed to it. Nothing was written; the
 * decision has to be made again from what is published now.
 */
public final class PublishConflictException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public PublishConflictException(String message) {
        super(message);
    }

    public PublishConflictException(String message, Throwable cause) {
        super(message, cause);
    }
}
