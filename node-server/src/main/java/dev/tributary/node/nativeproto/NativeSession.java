package dev.tributary.node.nativeproto;

import dev.tributary.node.exec.SessionContext;
import java.util.List;
import java.util.Set;

/**
 * What a native protocol connection remembers between requests: whether STARTUP was done, the
 * session (current keyspace, tag), and the event types it registered for. Requests of one
 * connection may run concurrently (drivers multiplex streams), so fields are volatile; a USE
 * racing another request of the same connection is the client's business, as in Cassandra.
 */
final class NativeSession {
    private static final java.util.concurrent.atomic.AtomicLong SESSIONS = new java.util.concurrent.atomic.AtomicLong();

    private volatile boolean started;
    private volatile SessionContext context;
    private volatile Set<String> events = Set.of();

    NativeSession() {
        context = new SessionContext(null, null, "anonymous", SESSIONS.incrementAndGet());
    }

    boolean started() {
        return started;
    }

    void start() {
        started = true;
    }

    SessionContext context() {
        return context;
    }

    void update(SessionContext after) {
        context = after;
    }

    void register(List<String> eventTypes) {
        events = Set.copyOf(eventTypes);
    }

    boolean wants(String eventType) {
        return events.contains(eventType);
    }
}
