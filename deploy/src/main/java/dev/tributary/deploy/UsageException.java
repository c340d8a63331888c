package dev.tributary.deploy;

/** A command line that cannot be run as given; the message says what is wrong with it. */
final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
