package dev.tributary.client;

/** Reaches the SDK's package-private test hooks from node-server tests (same package on the classpath). */
public final class ConsumerTestHooks {
    private ConsumerTestHooks() {
    }

    /** The consumer behaves as a process that died: no heartbeat, commit, Leave or delivery again. */
    public static void crash(ChangeConsumer consumer) {
        consumer.crashForTest();
    }

    /** The consumer's reading state per node and stream, for a test's failure message. */
    public static String state(ChangeConsumer consumer) {
        return consumer.describe(java.time.Duration.ofSeconds(5));
    }
}
