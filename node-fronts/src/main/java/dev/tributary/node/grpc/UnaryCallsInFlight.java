package dev.tributary.node.grpc;

import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Counts the unary calls the server is answering. A clean stop waits for them — a write in flight
 * is answered — and then cuts the streaming calls at once: a consumer's read never ends by
 * itself, so waiting for the server to drain only held every stop for its whole timeout while
 * the clients' failover clock ran. Thread-safe.
 */
public final class UnaryCallsInFlight implements ServerInterceptor {
    private int inFlight;

    @Override
    public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
        if (call.getMethodDescriptor().getType() != MethodDescriptor.MethodType.UNARY) {
            return next.startCall(call, headers);
        }
        synchronized (this) {
            inFlight++;
        }
        AtomicBoolean ended = new AtomicBoolean();
        Runnable end = () -> {
            if (ended.compareAndSet(false, true)) {
                synchronized (this) {
                    if (--inFlight == 0) {
                        notifyAll();
                    }
                }
            }
        };
        ServerCall.Listener<Q> listener;
        try {
            listener = next.startCall(call, headers);
        } catch (RuntimeException | Error e) {
            end.run();
            throw e;
        }
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(listener) {
            @Override
            public void onComplete() {
                try {
                    super.onComplete();
                } finally {
                    end.run();
                }
            }

            @Override
            public void onCancel() {
                try {
                    super.onCancel();
                } finally {
                    end.run(); // also a call closed with an error status
                }
            }
        };
    }

    /** Waits until no unary call is in flight, at most {@code timeout}; whether none is. */
    public synchronized boolean awaitNone(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (inFlight > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }
}
