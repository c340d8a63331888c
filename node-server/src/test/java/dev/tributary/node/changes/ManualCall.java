package dev.tributary.node.changes;

import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A client call whose messages are requested by hand (no automatic inbound flow control). */
class ManualCall<Q, R> implements ClientResponseObserver<Q, R> {
    final BlockingQueue<R> received = new LinkedBlockingQueue<>();
    final BlockingQueue<Object> end = new LinkedBlockingQueue<>();
    volatile ClientCallStreamObserver<Q> call;
    private final int initial;

    ManualCall(int initial) {
        this.initial = initial;
    }

    @Override
    public void beforeStart(ClientCallStreamObserver<Q> requestStream) {
        call = requestStream;
        requestStream.disableAutoRequestWithInitial(initial);
    }

    @Override
    public void onNext(R value) {
        received.add(value);
    }

    @Override
    public void onError(Throwable t) {
        end.add(t);
    }

    @Override
    public void onCompleted() {
        end.add("completed");
    }

    R take() throws InterruptedException {
        R b = received.poll(20, TimeUnit.SECONDS);
        if (b == null) {
            throw new AssertionError("no message within 20 s; ended with " + end.peek());
        }
        return b;
    }
}
