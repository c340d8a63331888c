package dev.tributary.node.kit;

import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.SessionState;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.StatusRuntimeException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One writer that sends raw gRPC writes straight into one node — no SDK, so no failover to
 * another — and records each in a {@link History} as writer {@code process} (keys
 * {@code process * 1,000,000 + i}, as {@link UniqueWriters}' statements into {@code ks.t (pk, v)}):
 * what that node itself acknowledges while a fault cuts it off. {@link #aim} points it at a node,
 * or at none; a test reads the history's operations of its process between two instants.
 */
public final class ProbeWriter implements AutoCloseable {
    private final History history;
    private final int process;
    private final long intervalNanos;
    private final Thread thread;
    private final Map<String, ManagedChannel> channels = new HashMap<>();
    private volatile String target;
    private volatile boolean stop;
    private volatile Throwable unexpected;

    /** Starts the thread; it writes nothing until {@link #aim}ed. */
    public ProbeWriter(History history, int process, double perSecond) {
        this.history = history;
        this.process = process;
        this.intervalNanos = (long) (1e9 / perSecond);
        this.thread = new Thread(this::run, "probe-writer-" + process);
        thread.start();
    }

    /** Writes into the node at {@code endpoint} (HOST:PORT) from now on; null stops writing. */
    public void aim(String endpoint) {
        target = endpoint;
    }

    private void run() {
        SessionState session = SessionState.newBuilder().setUsername("probe").setSessionId(process).build();
        try {
            for (int i = 0; !stop; ) {
                LockSupport.parkNanos(intervalNanos); // the rate, not a wait for a condition
                String endpoint = target;
                if (endpoint == null) {
                    continue;
                }
                int pk = process * 1_000_000 + i++;
                ManagedChannel ch = channels.computeIfAbsent(endpoint,
                        e -> ManagedChannelBuilder.forTarget(e).usePlaintext().build());
                history.invoke(process, pk);
                try {
                    dev.tributary.protocol.v1.CqlServiceGrpc.newBlockingStub(ch).withDeadlineAfter(30, TimeUnit.SECONDS)
                            .execute(ExecuteRequest.newBuilder().setSession(session)
                                    .setStatement("INSERT INTO ks.t (pk, v) VALUES (" + pk + ", " + i + ")").build());
                    history.ok(pk);
                } catch (StatusRuntimeException e) {
                    history.failed(pk, e);
                }
            }
        } catch (RuntimeException | Error e) {
            unexpected = e;
        }
    }

    /** Stops and waits for the write in flight; fails on the thread's unexpected error. */
    @Override
    public void close() {
        stop = true;
        try {
            thread.join(60_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while stopping probe writer " + process, e);
        }
        channels.values().forEach(ManagedChannel::shutdownNow);
        if (thread.isAlive() || unexpected != null) {
            throw new AssertionError("probe writer " + process + (thread.isAlive() ? " still writing after 60 s" : " failed"),
                    unexpected);
        }
    }
}
