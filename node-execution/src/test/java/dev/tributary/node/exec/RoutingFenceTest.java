package dev.tributary.node.exec;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RoutingFenceTest {
    @Test
    void barrierWaitsForEveryWriteThatRoutedBeforeIt() throws Exception {
        RoutingFence fence = new RoutingFence();
        CountDownLatch routed = new CountDownLatch(1);
        CountDownLatch commit = new CountDownLatch(1);
        CompletableFuture<Void> write = CompletableFuture.runAsync(() -> fence.route(() -> {
            routed.countDown();
            try {
                commit.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        }));
        assertTrue(routed.await(10, TimeUnit.SECONDS));
        CompletableFuture<Void> barrier = CompletableFuture.runAsync(fence::barrier);
        assertFalse(awaitDone(barrier, 200), "the barrier passed while a write routed with the old ring was in flight");
        commit.countDown();
        write.get(10, TimeUnit.SECONDS);
        assertTrue(awaitDone(barrier, 10_000), "the barrier passes once that write has committed");
        // and writes route again afterwards
        assertTrue(fence.route(() -> true));
    }

    private static boolean awaitDone(CompletableFuture<?> f, long millis) throws Exception {
        try {
            f.get(millis, TimeUnit.MILLISECONDS);
            return true;
        } catch (java.util.concurrent.TimeoutException e) {
            return false;
        }
    }
}
