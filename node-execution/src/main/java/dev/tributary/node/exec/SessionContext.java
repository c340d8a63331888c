package dev.tributary.node.exec;

import dev.tributary.node.auth.Principal;

/**
 * A client session: current keyspace (or null), the session tag (or null), the user the LCRs of
 * its writes name, the session number (all as the client sends them with every request), and who
 * the request runs as (from its credentials; the user too, when they are checked).
 */
public record SessionContext(String keyspace, byte[] tag, String username, long sessionId, Principal principal) {
    public static final SessionContext ANONYMOUS = new SessionContext(null, null, "anonymous", 0,
            Principal.unchecked("anonymous"));

    public SessionContext {
        java.util.Objects.requireNonNull(principal, "principal");
        if (principal.checked()) {
            username = principal.name();
        }
    }

    public SessionContext withKeyspace(String ks) {
        return new SessionContext(ks, tag, username, sessionId, principal);
    }

    public SessionContext withTag(byte[] t) {
        return new SessionContext(keyspace, t, username, sessionId, principal);
    }

    public SessionContext withPrincipal(Principal p) {
        return new SessionContext(keyspace, tag, username, sessionId, p);
    }
}
