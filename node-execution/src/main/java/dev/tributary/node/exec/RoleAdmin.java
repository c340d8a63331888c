package dev.tributary.node.exec;

import dev.tributary.cql.ast.RoleStatement;
import dev.tributary.cql.ast.RoleStatement.Permission;
import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.node.auth.AccessControl;
import dev.tributary.node.auth.AuthResource;
import dev.tributary.node.auth.Passwords;
import dev.tributary.node.auth.Principal;
import dev.tributary.node.auth.Role;
import dev.tributary.node.auth.RoleStore;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.InvalidRequestException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * CREATE/ALTER/DROP ROLE, GRANT, REVOKE, LIST ROLES and LIST PERMISSIONS, as Cassandra runs them:
 * roles are managed, and granted to one another, by superusers (a role may change its own
 * password), and a permission is granted by a superuser or a role with AUTHORIZE on the resource. Passwords are hashed here and
 * go nowhere else. Thread-safe.
 */
final class RoleAdmin {
    private static final int MAX_PASSWORD_BYTES = Passwords.MAX_BYTES;
    /** What a table can be granted; CREATE and the like apply to keyspaces only. */
    private static final Set<Permission> TABLE_PERMISSIONS = EnumSet.of(Permission.ALTER, Permission.DROP,
            Permission.SELECT, Permission.MODIFY, Permission.AUTHORIZE);
    private static final CqlType TEXT = CqlType.of(CqlType.Kind.TEXT);
    private static final CqlType BOOLEAN = CqlType.of(CqlType.Kind.BOOLEAN);

    private final AccessControl access;
    private final RoleStore roles;
    private final MultiversionDictionary dictionary;

    RoleAdmin(AccessControl access, MultiversionDictionary dictionary) {
        this.access = access;
        this.roles = access.roles();
        this.dictionary = dictionary;
    }

    StatementResult execute(RoleStatement st, SessionContext s) {
        Principal me = s.principal();
        if (st instanceof RoleStatement.CreateRole c) {
            access.requireSuperuser(me, "create roles");
            Role r = new Role(c.name(), hash(c.options().password()), Boolean.TRUE.equals(c.options().login()),
                    Boolean.TRUE.equals(c.options().superuser()), Map.of());
            if (!roles.create(r) && !c.ifNotExists()) {
                throw new InvalidRequestException(ErrorCode.ALREADY_EXISTS, c.name() + " already exists");
            }
            return StatementResult.of(s);
        }
        if (st instanceof RoleStatement.AlterRole a) {
            alter(a, me);
            return StatementResult.of(s);
        }
        if (st instanceof RoleStatement.DropRole d) {
            access.requireSuperuser(me, "drop roles");
            if (me.checked() && me.name().equals(d.name())) {
                throw new InvalidRequestException("Cannot DROP primary role for current login (" + d.name() + ")");
            }
            if (!roles.delete(d.name())) {
                if (!d.ifExists()) {
                    throw new InvalidRequestException(ErrorCode.NOT_FOUND, d.name() + " doesn't exist");
                }
                return StatementResult.of(s);
            }
            // its members no longer hold it (a role made later under that name starts with none)
            for (Role r : roles.roles()) {
                if (r.memberOf().contains(d.name())) {
                    roles.update(r.name(), x -> x.withMembership(d.name(), false));
                }
            }
            return StatementResult.of(s);
        }
        if (st instanceof RoleStatement.GrantRole g) {
            grantRole(g, me);
            return StatementResult.of(s);
        }
        if (st instanceof RoleStatement.RevokeRole r) {
            revokeRole(r, me);
            return StatementResult.of(s);
        }
        if (st instanceof RoleStatement.Grant g) {
            permissions(g.permissions(), g.resource(), g.role(), s, true);
            return StatementResult.of(s);
        }
        if (st instanceof RoleStatement.Revoke r) {
            permissions(r.permissions(), r.resource(), r.role(), s, false);
            return StatementResult.of(s);
        }
        if (st instanceof RoleStatement.ListRoles l) {
            return listRoles(l, s);
        }
        return listPermissions((RoleStatement.ListPermissions) st, s);
    }

    private void alter(RoleStatement.AlterRole a, Principal me) {
        RoleStatement.RoleOptions o = a.options();
        boolean self = me.checked() && me.name().equals(a.name());
        boolean passwordOnly = o.login() == null && o.superuser() == null;
        if (!(self && passwordOnly)) {
            access.requireSuperuser(me, "alter roles other than their own password");
        }
        if (self && o.superuser() != null) {
            throw new InvalidRequestException("You aren't allowed to alter your own superuser status");
        }
        String hash = o.password() == null ? null : hash(o.password());
        Optional<Role> changed = roles.update(a.name(), r -> r.with(hash != null ? hash : r.saltedHash(),
                o.login() != null ? o.login() : r.login(), o.superuser() != null ? o.superuser() : r.superuser()));
        if (changed.isEmpty()) {
            throw new InvalidRequestException(ErrorCode.NOT_FOUND, a.name() + " doesn't exist");
        }
    }

    /**
     * GRANT role TO grantee, as Cassandra: superusers only (there are no role resources to hold
     * AUTHORIZE on); refused when the grantee holds the role already, through any chain, or when
     * it would close a cycle (the role holds the grantee).
     */
    private void grantRole(RoleStatement.GrantRole g, Principal me) {
        access.requireSuperuser(me, "grant roles");
        existing(g.role());
        existing(g.grantee());
        if (access.granted(g.grantee(), roles::fresh, true).stream().anyMatch(r -> r.name().equals(g.role()))) {
            throw new InvalidRequestException(g.grantee() + " is a member of " + g.role());
        }
        if (access.granted(g.role(), roles::fresh, true).stream().anyMatch(r -> r.name().equals(g.grantee()))) {
            throw new InvalidRequestException(g.role() + " is a member of " + g.grantee());
        }
        if (roles.update(g.grantee(), r -> r.withMembership(g.role(), true)).isEmpty()) {
            throw new InvalidRequestException(ErrorCode.NOT_FOUND, g.grantee() + " doesn't exist");
        }
    }

    /** REVOKE role FROM revokee: superusers only; the role must have been granted to it directly. */
    private void revokeRole(RoleStatement.RevokeRole r, Principal me) {
        access.requireSuperuser(me, "revoke roles");
        existing(r.role());
        if (!existing(r.revokee()).memberOf().contains(r.role())) {
            throw new InvalidRequestException(r.revokee() + " is not a member of " + r.role());
        }
        roles.update(r.revokee(), x -> x.withMembership(r.role(), false));
    }

    private Role existing(String role) {
        return roles.fresh(role).orElseThrow(() -> new InvalidRequestException(ErrorCode.NOT_FOUND, role + " doesn't exist"));
    }

    private static String hash(String password) {
        if (password == null) {
            return null;
        }
        if (password.isEmpty()) {
            throw new InvalidRequestException("a role's password must not be empty");
        }
        if (password.getBytes(StandardCharsets.UTF_8).length > MAX_PASSWORD_BYTES) {
            throw new InvalidRequestException("a role's password is at most " + MAX_PASSWORD_BYTES + " bytes (UTF-8)");
        }
        return Passwords.hash(password);
    }

    private void permissions(Set<Permission> perms, RoleStatement.Resource named, String role, SessionContext s, boolean grant) {
        AuthResource on = resolve(named, s);
        String verb = grant ? "GRANT" : "REVOKE";
        if (!access.isSuperuser(s.principal()) && !access.holds(s.principal(), Permission.AUTHORIZE, on)) {
            throw new dev.tributary.node.errors.TributaryException(ErrorCode.PERMISSION_DENIED, "User " + s.principal().name()
                    + " has no AUTHORIZE permission on " + on + " or any of its parents (needed to " + verb + ")");
        }
        Set<Permission> applied = EnumSet.noneOf(Permission.class);
        applied.addAll(perms);
        if (on.table() != null) {
            if (perms.size() == Permission.values().length) {
                applied.retainAll(TABLE_PERMISSIONS); // ALL PERMISSIONS: all that apply to a table
            } else if (!TABLE_PERMISSIONS.containsAll(applied)) {
                applied.removeAll(TABLE_PERMISSIONS);
                throw new InvalidRequestException("Resource type table does not support the requested permissions: "
                        + applied + " (" + verb + " them ON KEYSPACE " + on.keyspace() + ")");
            }
        }
        if (roles.update(role, r -> r.withPermissions(on, applied, grant)).isEmpty()) {
            throw new InvalidRequestException(ErrorCode.NOT_FOUND, "Role " + role + " doesn't exist");
        }
    }

    /** The resource a statement names, which must exist now (a table's keyspace defaults to the session's). */
    private AuthResource resolve(RoleStatement.Resource r, SessionContext s) {
        return switch (r.kind()) {
            case ALL_KEYSPACES -> AuthResource.ALL_KEYSPACES;
            case KEYSPACE -> {
                if (dictionary.latest().keyspace(r.keyspace()).isEmpty()) {
                    // the executor catches up with the cluster's schema and tries once more
                    throw new dev.tributary.dictionary.errors.UnknownKeyspaceException(r.keyspace());
                }
                yield AuthResource.keyspace(r.keyspace());
            }
            case TABLE -> {
                String ks = SchemaService.keyspace(new dev.tributary.cql.ast.QualifiedName(r.keyspace(), r.table()), s);
                if (dictionary.latest().table(ks, r.table()).isEmpty()) {
                    throw new dev.tributary.dictionary.errors.UnknownTableException(ks, r.table());
                }
                yield AuthResource.table(ks, r.table());
            }
        };
    }

    /** Permissions on a keyspace or table that was dropped go with it, so a new one of that name starts bare. */
    void forget(AuthResource dropped) {
        for (Role r : roles.roles()) {
            if (!r.without(dropped).equals(r)) {
                roles.update(r.name(), x -> x.without(dropped));
            }
        }
    }

    /**
     * The roles a LIST statement shows: of a role, it and those granted to it (through grants of
     * grants unless NORECURSIVE), for superusers and the role itself (or one holding it); without
     * one, every role to a superuser, and to anyone else the roles they hold.
     */
    private List<Role> visible(String of, boolean recursive, SessionContext s) {
        Principal me = s.principal();
        boolean superuser = access.isSuperuser(me);
        if (of != null) {
            existing(of);
            if (!superuser && access.granted(me.name(), roles::fresh, true).stream().noneMatch(r -> r.name().equals(of))) {
                access.requireSuperuser(me, "list the roles or permissions of other roles");
            }
            return access.granted(of, roles::fresh, recursive);
        }
        if (superuser) {
            return roles.roles();
        }
        return access.granted(me.name(), roles::fresh, true);
    }

    private StatementResult listRoles(RoleStatement.ListRoles l, SessionContext s) {
        List<List<Object>> rows = new ArrayList<>();
        for (Role r : visible(l.of(), l.recursive(), s)) {
            rows.add(new ArrayList<>(List.of(r.name(), r.superuser(), r.login(), new LinkedHashMap<>())));
        }
        return StatementResult.rows(List.of(new ResultColumn("role", TEXT), new ResultColumn("super", BOOLEAN),
                new ResultColumn("login", BOOLEAN), new ResultColumn("options", new CqlType.MapType(TEXT, TEXT, false))),
                rows, s, List.of());
    }

    private StatementResult listPermissions(RoleStatement.ListPermissions l, SessionContext s) {
        AuthResource only = l.resource() == null ? null : resolve(l.resource(), s);
        List<List<Object>> rows = new ArrayList<>();
        for (Role r : visible(l.of(), l.recursive(), s)) {
            for (Map.Entry<String, Set<Permission>> e : r.permissions().entrySet()) {
                AuthResource on = AuthResource.parse(e.getKey());
                if (only != null && !only.lineage().contains(on)) {
                    continue;
                }
                for (Permission p : Permission.values()) {
                    if (e.getValue().contains(p) && l.permissions().contains(p)) {
                        rows.add(new ArrayList<>(List.of(r.name(), r.name(), on.toString(), p.name())));
                    }
                }
            }
        }
        return StatementResult.rows(List.of(new ResultColumn("role", TEXT), new ResultColumn("username", TEXT),
                new ResultColumn("resource", TEXT), new ResultColumn("permission", TEXT)), rows, s, List.of());
    }
}
