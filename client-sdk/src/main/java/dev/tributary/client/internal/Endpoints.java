package dev.tributary.client.internal;

import dev.tributary.client.errors.TributaryException;
import dev.tributary.client.errors.UnavailableException;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The channels of a client, one per endpoint, and the failover rule: a request goes to the
 * endpoint that last answered (or, routed, to the node owning its partition) and, when that one
 * is UNAVAILABLE, to the next ones in turn. When every endpoint was UNAVAILABLE the request goes
 * round again, after a growing pause, until the failover window has passed: a replicated node's
 * instance takes a few seconds to run on another node. Any other failure is the answer. The endpoints are those the user gave, then the nodes the ring discovered
 * ({@link #discovered}). Thread-safe; owns the channels and shuts them down on {@link #close()}.
 */
public final class Endpoints implements AutoCloseable {
    private static final long SHUTDOWN_WAIT_MILLIS = 5_000;

    /** One endpoint: its name ({@code host:port}, or as the user named a channel) and the channel to it. */
    public record Endpoint(String name, ManagedChannel channel) {
    }

    private final int given;
    private final Duration requestTimeout;
    private final Duration failoverWindow;
    private final Function<String, ManagedChannel> channels;
    private final Object lock = new Object();
    // copy-on-write: requests read it without the lock
    private volatile List<Endpoint> endpoints;
    private volatile Endpoint preferred;
    private volatile Runnable onFailover = () -> { };
    private boolean closed;

    public Endpoints(List<Endpoint> endpoints, Duration requestTimeout) {
        this(endpoints, requestTimeout, Duration.ZERO, null);
    }

    /**
     * @param channels opens a channel to a discovered {@code host:port}; null when the client
     *        cannot reach nodes it was not given (it was built from caller-made channels only)
     */
    public Endpoints(List<Endpoint> endpoints, Duration requestTimeout, Duration failoverWindow,
            Function<String, ManagedChannel> channels) {
        this.failoverWindow = failoverWindow;
        if (endpoints.isEmpty()) {
            throw new IllegalArgumentException("at least one endpoint is needed");
        }
        this.endpoints = List.copyOf(endpoints);
        this.given = endpoints.size();
        this.requestTimeout = requestTimeout;
        this.channels = channels;
    }

    public Duration requestTimeout() {
        return requestTimeout;
    }

    /** The endpoint names: those given, in order, then the nodes discovered. */
    public List<String> names() {
        List<String> names = new ArrayList<>();
        for (Endpoint e : endpoints) {
            names.add(e.name());
        }
        return names;
    }

    /** Whether nodes learned from the ring can be reached (channels can be opened to them). */
    public boolean canDiscover() {
        return channels != null;
    }

    /** Runs when a request had to skip an endpoint that could not serve: the ring may have changed. */
    public void onFailover(Runnable listener) {
        this.onFailover = listener;
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
        return call(rpc, idempotencyKey, null);
    }

    /**
     * {@link #call(Function, String)} trying {@code first} (the owner of the request's partition)
     * before the usual order; null for the usual order alone.
     */
    public <T> T call(Function<Endpoint, T> rpc, String idempotencyKey, Endpoint first) {
        long deadline = System.nanoTime() + failoverWindow.toNanos();
        long pauseMillis = 100;
        while (true) {
            try {
                return callRound(rpc, idempotencyKey, first);
            } catch (UnavailableException e) {
                if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pauseMillis) > deadline) {
                    throw e;
                }
                try {
                    Thread.sleep(pauseMillis);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
                pauseMillis = Math.min(1000, pauseMillis * 2);
            }
        }
    }

    /** Each endpoint at most once, in failover order. */
    private <T> T callRound(Function<Endpoint, T> rpc, String idempotencyKey, Endpoint first) {
        List<Endpoint> order = inFailoverOrder(first);
        List<String> tried = new ArrayList<>(order.size());
        List<String> why = new ArrayList<>(order.size());
        StatusRuntimeException last = null;
        for (Endpoint ep : order) {
            tried.add(ep.name());
            try {
                T result = rpc.apply(ep);
                preferred = ep;
                if (last != null) {
                    onFailover.run();
                }
                return result;
            } catch (StatusRuntimeException e) {
                if (!ErrorMapper.isRetryableElsewhere(e)) {
                    throw ErrorMapper.map(e, ep.name(), idempotencyKey);
                }
                last = e;
                why.add(ep.name() + ": " + ErrorMapper.message(e));
                // Without this a channel in TRANSIENT_FAILURE fails every call fast until its
                // reconnect backoff (up to two minutes) runs out, even once the node is back.
                ep.channel().resetConnectBackoff();
            }
        }
        onFailover.run();
        // each endpoint's own answer: the last alone hides why the others refused
        throw new UnavailableException("no node could serve the request (tried " + String.join("; ", why) + ")", tried, last);
    }

    /** The failure when every endpoint was tried and none could serve. */
    public static UnavailableException unavailable(List<String> tried, StatusRuntimeException last) {
        String detail = last == null ? "" : ": " + ErrorMapper.message(last);
        return new UnavailableException("no node could serve the request (tried " + String.join(", ", tried) + ")"
                + detail, tried, last);
    }

    /** The endpoints in the order a request tries them now, the preferred one first. */
    public List<Endpoint> inFailoverOrder() {
        return inFailoverOrder(null);
    }

    private List<Endpoint> inFailoverOrder(Endpoint first) {
        List<Endpoint> all = endpoints;
        int n = all.size();
        Endpoint pref = preferred;
        int start = pref == null ? 0 : Math.max(0, all.indexOf(pref));
        List<Endpoint> out = new ArrayList<>(n + 1);
        if (first != null) {
            out.add(first);
        }
        for (int k = 0; k < n; k++) {
            Endpoint e = all.get((start + k) % n);
            if (!e.equals(first)) {
                out.add(e);
            }
        }
        return out;
    }

    /** Remembers that an endpoint answered, so the next request goes there first. */
    public void answered(Endpoint ep) {
        preferred = ep;
    }

    /**
     * The endpoint of a node the ring lists at {@code hostPort}: one already known by that name,
     * else a new one with a new channel. Null when channels cannot be opened or the client is
     * closed.
     */
    public Endpoint discovered(String hostPort) {
        synchronized (lock) {
            for (Endpoint e : endpoints) {
                if (e.name().equals(hostPort)) {
                    return e;
                }
            }
            if (channels == null || closed) {
                return null;
            }
            Endpoint e = new Endpoint(hostPort, channels.apply(hostPort));
            List<Endpoint> next = new ArrayList<>(endpoints);
            next.add(e);
            endpoints = List.copyOf(next);
            return e;
        }
    }

    /** Whether the user gave this endpoint (given endpoints are never dropped). */
    public boolean isGiven(Endpoint ep) {
        List<Endpoint> all = endpoints;
        int at = ep == null ? -1 : all.indexOf(ep);
        return at >= 0 && at < given;
    }

    /**
     * Drops the discovered endpoints not in {@code keep} (nodes that left the ring), shutting
     * their channels down; calls in flight on them finish.
     */
    public void retainDiscovered(Set<Endpoint> keep) {
        List<Endpoint> dropped = new ArrayList<>();
        synchronized (lock) {
            List<Endpoint> next = new ArrayList<>(endpoints.subList(0, given));
            for (Endpoint e : endpoints.subList(given, endpoints.size())) {
                (keep.contains(e) ? next : dropped).add(e);
            }
            endpoints = List.copyOf(next);
        }
        for (Endpoint e : dropped) {
            e.channel().shutdown();
        }
    }

    @Override
    public void close() {
        List<Endpoint> all;
        synchronized (lock) {
            closed = true;
            all = endpoints;
        }
        for (Endpoint e : all) {
            e.channel().shutdown();
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SHUTDOWN_WAIT_MILLIS);
        for (Endpoint e : all) {
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
