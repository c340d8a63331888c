package dev.tributary.node.auth;

import dev.tributary.cql.ast.RoleStatement.Permission;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * A role as the cluster keeps it: its bcrypt hash (null for a role that cannot log in with a
 * password), whether it may log in, whether it is a superuser, what it was granted, by resource
 * name, and the roles granted to it ({@code GRANT role TO this}), whose permissions and superuser
 * status it holds too, as in Cassandra. Immutable; the with* methods give changed copies.
 * toString never shows the hash.
 */
public record Role(String name, String saltedHash, boolean login, boolean superuser,
        Map<String, Set<Permission>> permissions, Set<String> memberOf) {
    public Role {
        Objects.requireNonNull(name, "name");
        TreeMap<String, Set<Permission>> copy = new TreeMap<>();
        permissions.forEach((r, p) -> {
            if (!p.isEmpty()) {
                copy.put(r, Set.copyOf(p));
            }
        });
        permissions = java.util.Collections.unmodifiableMap(copy);
        memberOf = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(memberOf));
    }

    /** A role granted no other role. */
    public Role(String name, String saltedHash, boolean login, boolean superuser, Map<String, Set<Permission>> permissions) {
        this(name, saltedHash, login, superuser, permissions, Set.of());
    }

    /** The same role with another password hash, login or superuser status; its grants and memberships kept. */
    public Role with(String newHash, boolean newLogin, boolean newSuperuser) {
        return new Role(name, newHash, newLogin, newSuperuser, permissions, memberOf);
    }

    /** The same role with {@code role} granted to it ({@code add}) or revoked from it. */
    public Role withMembership(String role, boolean add) {
        java.util.TreeSet<String> next = new java.util.TreeSet<>(memberOf);
        if (add) {
            next.add(role);
        } else {
            next.remove(role);
        }
        return new Role(name, saltedHash, login, superuser, permissions, next);
    }

    /** The permissions granted on exactly this resource (not those it inherits). */
    public Set<Permission> on(AuthResource r) {
        return permissions.getOrDefault(r.name(), Set.of());
    }

    public Role withPermissions(AuthResource r, Set<Permission> granted, boolean add) {
        Map<String, Set<Permission>> next = new TreeMap<>(permissions);
        EnumSet<Permission> now = EnumSet.noneOf(Permission.class);
        now.addAll(on(r));
        if (add) {
            now.addAll(granted);
        } else {
            now.removeAll(granted);
        }
        next.put(r.name(), now);
        return new Role(name, saltedHash, login, superuser, next, memberOf);
    }

    /** Permissions granted on a keyspace or table that was dropped go with it. */
    public Role without(AuthResource r) {
        Map<String, Set<Permission>> next = new TreeMap<>(permissions);
        next.keySet().removeIf(n -> n.equals(r.name()) || n.startsWith(r.name() + "/"));
        return new Role(name, saltedHash, login, superuser, next, memberOf);
    }

    @Override
    public String toString() {
        return "Role[" + name + ", login=" + login + ", superuser=" + superuser + ", permissions=" + permissions
                + ", memberOf=" + memberOf + "]";
    }
}
