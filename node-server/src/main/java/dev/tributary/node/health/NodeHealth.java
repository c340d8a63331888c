package dev.tributary.node.health;

import io.grpc.BindableService;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * What {@code grpc.health.v1.Health} answers for one node instance: SERVING exactly while the
 * instance is {@link NodeLifecycle#SERVING} and may take writes (its ZooKeeper session is its
 * current member's), NOT_SERVING otherwise — while it starts, after it lost its session, and
 * from the moment it starts draining (for good: a load balancer must stop sending before the
 * server refuses calls).
 *
 * <p>The answers come from grpc-java's {@link HealthStatusManager}, which keeps a status per
 * service name; this class sets the overall one ({@code ""}) and each public service's to the same
 * value. Whether writes are refused is asked on a timer rather than on ZooKeeper's event thread,
 * because finding out that a lost session is back needs a ZooKeeper read (see
 * {@code ClusterCoordinator.refusesWritesBecause}). Thread-safe.
 */
public final class NodeHealth implements AutoCloseable {
    /** How soon a lost or regained ZooKeeper session shows in the health answer. */
    public static final long REFRESH_MILLIS = 250;

    private final HealthStatusManager manager = new HealthStatusManager();
    private final List<String> services = new ArrayList<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "tributary-health");
        t.setDaemon(true);
        return t;
    });
    private volatile NodeLifecycle lifecycle = NodeLifecycle.STARTING;
    private volatile BooleanSupplier takesWrites = () -> true;
    private volatile boolean sessionLost;

    public NodeHealth() {
        manager.setStatus(HealthStatusManager.SERVICE_NAME_ALL_SERVICES, ServingStatus.NOT_SERVING);
    }

    /** The gRPC service to add to the node's server. */
    public BindableService service() {
        return manager.getHealthService();
    }

    /** Reports {@code serviceName} (a fully qualified gRPC service) with the node's status. */
    public synchronized void track(String serviceName) {
        services.add(serviceName);
        manager.setStatus(serviceName, status());
    }

    /**
     * Starts asking {@code takesWrites} (false while the node's ZooKeeper session is lost) on
     * every refresh; before this, only the lifecycle counts.
     */
    public void watch(BooleanSupplier takesWrites) {
        this.takesWrites = takesWrites;
        timer.scheduleWithFixedDelay(this::refresh, REFRESH_MILLIS, REFRESH_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * The node's ZooKeeper session was just lost: NOT_SERVING now, without waiting for the timer,
     * so even a session regained at once is seen lost by a watcher; the timer turns it back.
     */
    public synchronized void sessionLostNow() {
        sessionLost = true;
        if (lifecycle == NodeLifecycle.SERVING) {
            publish();
        }
    }

    public NodeLifecycle lifecycle() {
        return lifecycle;
    }

    /** Whether the last refresh found the node's ZooKeeper session lost. */
    public boolean sessionLost() {
        return sessionLost;
    }

    /** Moves the lifecycle on (by the transition table) and publishes the status it gives. */
    public synchronized void become(NodeLifecycle next) {
        lifecycle = lifecycle.become(next);
        if (next == NodeLifecycle.DRAINING) {
            // NOT_SERVING for every name, and no later update can turn it back (STOPPED only follows)
            manager.enterTerminalState();
        } else if (next == NodeLifecycle.SERVING) {
            publish();
        }
    }

    private void refresh() {
        boolean lost;
        try {
            lost = !takesWrites.getAsBoolean();
        } catch (RuntimeException e) {
            lost = true; // an exception would end the timer; the next check decides again
        }
        synchronized (this) {
            sessionLost = lost;
            if (lifecycle == NodeLifecycle.SERVING) {
                publish();
            }
        }
    }

    private ServingStatus status() {
        return lifecycle == NodeLifecycle.SERVING && !sessionLost ? ServingStatus.SERVING : ServingStatus.NOT_SERVING;
    }

    private void publish() {
        ServingStatus s = status();
        manager.setStatus(HealthStatusManager.SERVICE_NAME_ALL_SERVICES, s);
        for (String name : services) {
            manager.setStatus(name, s);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
