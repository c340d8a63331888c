package dev.tributary.node.auth;

import java.util.Objects;

/**
 * Who a request runs as. A checked principal is a role that logged in: every statement and
 * change-stream read is checked against its permissions. An unchecked one is allowed everything:
 * every caller of a node that does not authenticate (allow-all), under the name the client gives.
 */
public record Principal(String name, boolean checked) {
    public Principal {
        Objects.requireNonNull(name, "name");
    }

    public static Principal role(String name) {
        return new Principal(name, true);
    }

    public static Principal unchecked(String name) {
        return new Principal(name, false);
    }
}
