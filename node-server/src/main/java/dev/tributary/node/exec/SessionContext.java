package dev.tributary.node.exec;

/**
 * A client session as the client sends it with every request: current keyspace (or null), the
 * session tag (or null), the user and the session number.
 */
public record SessionContext(String keyspace, byte[] tag, String username, long sessionId) {
    public static final SessionContext ANONYMOUS = new SessionContext(null, null, "anonymous", 0);

    public SessionContext withKeyspace(String ks) {
        return new SessionContext(ks, tag, username, sessionId);
    }

    public SessionContext withTag(byte[] t) {
        return new SessionContext(keyspace, t, username, sessionId);
    }
}
