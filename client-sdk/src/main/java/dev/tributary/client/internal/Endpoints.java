package dev.tributary.client.internal;

import dev.tributary.client.errors.TributaryException;
import dev.tributary.client.errors.UnavailableException;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The channels of a client, one per endpoint, and the failover rule: a request goes to the
 * endpoint that last answered and, when that one is UNAVAILABLE, to the next ones in turn, each
 * at most once per request. Any other failure is the answer. Thread-safe; owns the channels and
 * shuts them down on {@link #close()}.
 */
public final class Endpoints implements AutoCloseable {
    private static final long SHUTDOWN_WAIT_MILLIS = 5_000;

    /** One endpoint: its name as the user gave it and the channel to it. */
    public record Endpoint(String name, ManagedChannel channel) {
    }

    private final List<Endpoint> endpoints;
    private final Duration requestTimeout;
    private final AtomicInteger preferred = new AtomicInteger();

    public Endpoints(List<Endpoint> endpoints, Duration requestTimeout) {
        if (endpoints.isEmpty()) {
            throw new IllegalArgumentException("at least one endpoint is needed");
        }
        this.endpoints = List.copyOf(endpoints);
        this.requestTimeout = requestTimeout;
    }

    public Duration requestTimeout() {
        return requestTimeout;
    }

    public List<String> names() {
        List<String> names = new ArrayList<>();
        for (Endpoint e : endpoints) {
            names.add(e.name());
        }
        return names;
    }

    /**
     * Runs one RPC with failover. {@code idempotencyKey} is the key the request carries (null
     * for reads); a retry on the next endpoint sends the very same request, so a write the first
     * node applied before failing is applied once.
     *
     * @throws TributaryException the mapped failure; {@link UnavailableException} when no
     *         endpoint could serve, naming the endpoints tried
     */
    public <T> T call(Function<Endpoint, T> rpc, String idempotencyKey) {
        int n = endpoints.size();
        int start = Math.floorMod(preferred.get(), n);
        List<String> tried = new ArrayList<>(n);
        StatusRuntimeException last = null;
        for (int k = 0; k < n; k++) {
            int index = (start + k) % n;
            Endpoint ep = endpoints.get(index);
            tried.add(ep.name());
            try {
                T result = rpc.apply(ep);
                preferred.set(index);
                return result;
            } catch (StatusRuntimeException e) {
                if (!ErrorMapper.isRetryableElsewhere(e)) {
                    throw ErrorMapper.map(e, ep.name(), idempotencyKey);
                }
                last = e;
                // Without this a channel in TRANSIENT_FAILURE fails every call fast until its
                // reconnect backoff (up to two minutes) runs out, even once the node is back.
                ep.channel().resetConnectBackoff();
            }
        }
        throw unavailable(tried, last);
    }

    /** The failure when every endpoint was tried and none could serve. */
    public static UnavailableException unavailable(List<String> tried, StatusRuntimeException last) {
        String detail = last == null ? "" : ": " + ErrorMapper.message(last);
        return new UnavailableException("no node could serve the request (tried " + String.join(", ", tried) + ")"
                + detail, tried, last);
    }

    /** The endpoints in the order a request tries them now, the preferred one first. */
    public List<Endpoint> inFailoverOrder() {
        int n = endpoints.size();
        int start = Math.floorMod(preferred.get(), n);
        List<Endpoint> out = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            out.add(endpoints.get((start + k) % n));
        }
        return out;
    }

    /** Remembers that an endpoint answered, so the next request goes there first. */
    public void answered(Endpoint ep) {
        int index = endpoints.indexOf(ep);
        if (index >= 0) {
            preferred.set(index);
        }
    }

    @Override
    public void close() {
        for (Endpoint e : endpoints) {
            e.channel().shutdown();
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SHUTDOWN_WAIT_MILLIS);
        for (Endpoint e : endpoints) {
            try {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !e.channel().awaitTermination(left, TimeUnit.NANOSECONDS)) {
                    e.channel().shutdownNow();
                }
            } catch (InterruptedException ie) {
                e.channel().shutdownNow();
                Thread.currentThread().interrupt();
            }
        }
    }
}
