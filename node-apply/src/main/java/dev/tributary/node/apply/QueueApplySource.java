package dev.tributary.node.apply;

import dev.tributary.capture.apply.ApplyPosition;
import dev.tributary.capture.apply.ApplySource;
import dev.tributary.capture.apply.ApplyTransaction;
import dev.tributary.node.capture.RocksDbCdcLog;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * An apply's source: the transactions of one of this instance's queues, read in commit order from
 * the CDC log only below the safe SCN (where every capture feeding the queue has caught up, so no
 * earlier transaction can still arrive).
 *
 * @param appended the monitor every append to a queue notifies, which a reader waits on
 */
record QueueApplySource(RocksDbCdcLog log, long queueId, LongSupplier safeScn, Object appended) implements ApplySource {
    @Override
    public List<ApplyTransaction> readAfter(ApplyPosition after, int limit) {
        return log.readTransactions(queueId, after, safeScn.getAsLong(), limit);
    }

    @Override
    public void awaitNewer(ApplyPosition after, long millis) throws InterruptedException {
        synchronized (appended) {
            appended.wait(millis);
        }
    }
}
