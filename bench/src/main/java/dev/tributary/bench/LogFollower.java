package dev.tributary.bench;

/** A bench consumer following a CDC log on its own thread ({@link #run()}). */
interface LogFollower extends Runnable {
    /** Ends {@link #run()}; callable from any thread. */
    void stop();

    /** What ended {@link #run()} with an error, or null. */
    RuntimeException failure();

    /** The read requests it made (one subscription counts once). */
    long reads();
}
