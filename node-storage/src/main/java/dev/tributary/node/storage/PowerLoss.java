package dev.tributary.node.storage;

/**
 * The power-loss fault hook of the test kit (RELIABILITY D3), off unless a test starts a node
 * process with its system properties. With {@code tributary.fault.powerLoss} the store keeps its
 * WAL in the process until a sync writes and fsyncs it (RocksDB's manual WAL flush), so a SIGKILL
 * drops exactly what a power loss would: every write after the last sync.
 * {@code tributary.fault.syncDelayMillis} holds each sync back that long, which widens the window
 * between a batch being written and it being durable to where a test's kill lands in it.
 */
final class PowerLoss {
    static final boolean SIMULATED = Boolean.getBoolean("tributary.fault.powerLoss");
    private static final long SYNC_DELAY_MILLIS = Long.getLong("tributary.fault.syncDelayMillis", 0);

    private PowerLoss() {
    }

    static void beforeSync() {
        if (SYNC_DELAY_MILLIS > 0) {
            try {
                Thread.sleep(SYNC_DELAY_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
