package dev.tributary.node.nativeproto;

import dev.tributary.node.exec.SessionContext;
import java.util.List;
import java.util.Set;

/**
 * What a native protocol connection remembers between requests: whether STARTUP (and the login
 * it may ask for) was done, the session (who it runs as, current keyspace, tag), and the event
 * types it registered for. Requests of one connection may run concurrently (drivers multiplex streams), so fields are volatile; a USE
 * racing another request of the same connection is the client's business, as in Cassandra.
 */
final class NativeSession {
    private static final java.util.concurrent.atomic.AtomicLong SESSIONS = new java.util.concurrent.atomic.AtomicLong();

    private volatile boolean started;
    private volatile boolean awaitingCredentials;
    private volatile SessionContext context;
    private volatile Set<String> events = Set.of();

    NativeSession() {
        context = new SessionContext(null, null, "anonymous", SESSIONS.incrementAndGet(),
                dev.tributary.node.auth.Principal.unchecked("anonymous"));
    }

    boolean started() {
        return started;
    }

    /** STARTUP done; {@code principal} is the role that logged in, null on a node that does not authenticate. */
    void start(dev.tributary.node.auth.Principal principal) {
        if (principal != null) {
            context = context.withPrincipal(principal);
        }
        awaitingCredentials = false;
        started = true;
    }

    /** STARTUP was answered AUTHENTICATE: the next message must be the credentials. */
    void awaitCredentials() {
        awaitingCredentials = true;
    }

    boolean awaitingCredentials() {
        return awaitingCredentials;
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
