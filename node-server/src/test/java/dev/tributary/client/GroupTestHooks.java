package dev.tributary.client;

/** Reaches the SDK's package-private test hooks from node-server tests (same package on the classpath). */
public final class GroupTestHooks {
    private GroupTestHooks() {
    }

    /** The consumer behaves as a process that died: no heartbeat, commit, Leave or delivery again. */
    public static void crash(ChangeConsumer consumer) {
        consumer.crashForTest();
    }
}
