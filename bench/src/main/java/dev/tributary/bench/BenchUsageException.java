package dev.tributary.bench;

/** A bench command line that cannot be run as given; the message names the option and what is wrong. */
public final class BenchUsageException extends Exception {
    private static final long serialVersionUID = 1L;

    public BenchUsageException(String message) {
        super(message);
    }
}
