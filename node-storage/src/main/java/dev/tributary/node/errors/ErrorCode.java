package dev.tributary.node.errors;

/**
 * Stable reason codes, sent to clients in the {@code tributary-error-code} trailer and printed by
 * the CLI as {@code ERROR <CODE>: <message>}.
 */
public enum ErrorCode {
    SYNTAX_ERROR, INVALID_REQUEST, NOT_FOUND, ALREADY_EXISTS, NO_CDC_STREAM,
    WRITE_TIMESTAMP_OUT_OF_RANGE, VALUE_TOO_LARGE, UNAVAILABLE, STORAGE_ERROR, INTERNAL,
    /** A consumer group member acted under an epoch that is no longer the group's (or after losing its lease). */
    FENCED,
    /** A stored or received record is damaged (its checksum does not match): never served as data. */
    CORRUPTION,
    /** The node's disk is full (or at --max-disk-bytes): writes wait for space, reads go on. */
    DISK_FULL,
    /** Missing, wrong or expired credentials (the message never repeats them). */
    UNAUTHENTICATED,
    /** The role lacks the permission a statement or read needs; the message names both. */
    PERMISSION_DENIED,
    /**
     * A peer the request was forwarded to (the owner of its partitions, a node asked for its part
     * of a read) did not answer within the forward's deadline: a write's outcome is unknown, since
     * the peer may still apply it.
     */
    TIMEOUT
}
