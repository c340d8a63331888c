package dev.tributary.cql.ast;

import java.util.Objects;

/**
 * The statements that manage roles and their permissions, as Cassandra has them. None is
 * captured or kept in the schema log: a role's password must never reach a log.
 */
public sealed interface RoleStatement extends Statement permits RoleStatement.CreateRole, RoleStatement.AlterRole,
        RoleStatement.DropRole, RoleStatement.Grant, RoleStatement.Revoke, RoleStatement.GrantRole,
        RoleStatement.RevokeRole, RoleStatement.ListRoles, RoleStatement.ListPermissions {

    /** A permission as GRANT names it; {@code ALL [PERMISSIONS]} is every one. */
    enum Permission {
        CREATE, ALTER, DROP, SELECT, MODIFY, AUTHORIZE
    }

    /**
     * What a permission is on: {@code ALL KEYSPACES}, {@code KEYSPACE ks} or {@code TABLE [ks.]t}
     * (keyspace null when the table was named without one: the session's keyspace applies).
     */
    record Resource(Kind kind, String keyspace, String table) {
        public enum Kind {
            ALL_KEYSPACES, KEYSPACE, TABLE
        }

        public Resource {
            Objects.requireNonNull(kind, "kind");
        }

        public static Resource allKeyspaces() {
            return new Resource(Kind.ALL_KEYSPACES, null, null);
        }

        public static Resource keyspace(String ks) {
            return new Resource(Kind.KEYSPACE, Objects.requireNonNull(ks, "keyspace"), null);
        }

        public static Resource table(String ks, String table) {
            return new Resource(Kind.TABLE, ks, Objects.requireNonNull(table, "table"));
        }
    }

    /**
     * {@code WITH PASSWORD = '...' AND LOGIN = b AND SUPERUSER = b}; each part null when not given.
     * toString never shows the password.
     */
    record RoleOptions(String password, Boolean login, Boolean superuser) {
        public static final RoleOptions NONE = new RoleOptions(null, null, null);

        @Override
        public String toString() {
            return "RoleOptions[password=" + (password == null ? "unset" : "***") + ", login=" + login + ", superuser="
                    + superuser + "]";
        }
    }

    /** {@code CREATE ROLE [IF NOT EXISTS] name [WITH ...]}; the name lowercased unless quoted. */
    record CreateRole(boolean ifNotExists, String name, RoleOptions options) implements RoleStatement {
        public CreateRole {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(options, "options");
        }
    }

    /** {@code ALTER ROLE name WITH ...} (at least one option). */
    record AlterRole(String name, RoleOptions options) implements RoleStatement {
        public AlterRole {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(options, "options");
        }
    }

    /** {@code DROP ROLE [IF EXISTS] name}. */
    record DropRole(boolean ifExists, String name) implements RoleStatement {
        public DropRole {
            Objects.requireNonNull(name, "name");
        }
    }

    /** {@code GRANT perms ON resource TO role}. */
    record Grant(java.util.Set<Permission> permissions, Resource resource, String role) implements RoleStatement {
        public Grant {
            permissions = java.util.Set.copyOf(permissions);
            Objects.requireNonNull(resource, "resource");
            Objects.requireNonNull(role, "role");
        }
    }

    /** {@code REVOKE perms ON resource FROM role}. */
    record Revoke(java.util.Set<Permission> permissions, Resource resource, String role) implements RoleStatement {
        public Revoke {
            permissions = java.util.Set.copyOf(permissions);
            Objects.requireNonNull(resource, "resource");
            Objects.requireNonNull(role, "role");
        }
    }

    /** {@code GRANT role TO grantee}: the grantee becomes a member of the role and holds what it holds. */
    record GrantRole(String role, String grantee) implements RoleStatement {
        public GrantRole {
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(grantee, "grantee");
        }
    }

    /** {@code REVOKE role FROM revokee}. */
    record RevokeRole(String role, String revokee) implements RoleStatement {
        public RevokeRole {
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(revokee, "revokee");
        }
    }

    /**
     * {@code LIST ROLES [OF role] [NORECURSIVE]}; {@code of} null for every role. Of a role: the role
     * and those granted to it, through the roles granted to those too unless NORECURSIVE.
     */
    record ListRoles(String of, boolean recursive) implements RoleStatement {
        public ListRoles(String of) {
            this(of, true);
        }
    }

    /**
     * {@code LIST ALL [PERMISSIONS] | LIST perms [ON resource] [OF role] [NORECURSIVE]}; resource and
     * role null when not given. Of a role: also what it holds through the roles granted to it,
     * unless NORECURSIVE.
     */
    record ListPermissions(java.util.Set<Permission> permissions, Resource resource, String of, boolean recursive)
            implements RoleStatement {
        public ListPermissions {
            permissions = java.util.Set.copyOf(permissions);
        }

        public ListPermissions(java.util.Set<Permission> permissions, Resource resource, String of) {
            this(permissions, resource, of, true);
        }
    }
}
