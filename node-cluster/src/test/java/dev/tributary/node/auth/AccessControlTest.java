package dev.tributary.node.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.cql.ast.RoleStatement.Permission;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class AccessControlTest {
    private final AtomicLong now = new AtomicLong(1_000_000);
    private final MemoryRoles roles = new MemoryRoles();
    private final AccessControl access = new AccessControl(AccessControl.Mode.PASSWORD, roles,
            new Tokens(new byte[32], now::get), now::get);

    private Role alice(String password, Map<String, Set<Permission>> perms) {
        return new Role("alice", Passwords.hash(password), true, false, perms);
    }

    @Test
    @DisplayName("issue 29 item 8: the first start makes superuser cassandra, once, with the given password; "
            + "cassandra/cassandra does not log in")
    void defaultSuperuserFromFile() {
        assertEquals(java.util.Optional.empty(), access.ensureDefaultSuperuser(java.util.Optional.of("from-the-file")));
        assertEquals(java.util.Optional.empty(), access.ensureDefaultSuperuser(java.util.Optional.of("another")));
        assertEquals(1, roles.roles().size());
        assertTrue(access.isSuperuser(access.login("cassandra", "from-the-file")));
        assertEquals(ErrorCode.UNAUTHENTICATED, assertThrows(TributaryException.class,
                () -> access.login("cassandra", "cassandra")).code());
        assertEquals(ErrorCode.UNAUTHENTICATED, assertThrows(TributaryException.class,
                () -> access.login("cassandra", "another")).code(), "only the first start sets the password");
    }

    @Test
    @DisplayName("issue 29 item 8: without a password file the first start generates one, returned once to the node that "
            + "made the role and to no other; cassandra/cassandra does not log in; toString hides it")
    void defaultSuperuserGenerated() {
        AccessControl.GeneratedPassword g = access.ensureDefaultSuperuser(java.util.Optional.empty()).orElseThrow();
        assertEquals("cassandra", g.role());
        assertTrue(g.password().length() >= 24, "a long random password");
        assertFalse(g.toString().contains(g.password()), g.toString());
        assertEquals(java.util.Optional.empty(), access.ensureDefaultSuperuser(java.util.Optional.empty()),
                "a later start (or another node) makes nothing and shows nothing");
        assertTrue(access.isSuperuser(access.login("cassandra", g.password())));
        assertEquals(ErrorCode.UNAUTHENTICATED, assertThrows(TributaryException.class,
                () -> access.login("cassandra", "cassandra")).code());
        AccessControl open = new AccessControl(AccessControl.Mode.ALLOW_ALL, new MemoryRoles(),
                new Tokens(new byte[32], now::get), now::get);
        assertEquals(java.util.Optional.empty(), open.ensureDefaultSuperuser(java.util.Optional.empty()),
                "allow-all makes no role");
    }

    @Test
    @DisplayName("a wrong password and an unknown role get the same answer; a role without LOGIN cannot log in")
    void login() {
        roles.create(alice("canary-pw", Map.of()));
        roles.create(new Role("bob", Passwords.hash("b"), false, false, Map.of()));
        assertEquals(Principal.role("alice"), access.login("alice", "canary-pw"));
        TributaryException wrong = assertThrows(TributaryException.class, () -> access.login("alice", "nope"));
        TributaryException unknown = assertThrows(TributaryException.class, () -> access.login("nobody", "nope"));
        assertEquals(ErrorCode.UNAUTHENTICATED, wrong.code());
        assertEquals(wrong.getMessage().replace("alice", "nobody"), unknown.getMessage());
        assertFalse(wrong.getMessage().contains("nope"));
        assertEquals(ErrorCode.UNAUTHENTICATED, assertThrows(TributaryException.class, () -> access.login("bob", "b")).code());
    }

    @Test
    @DisplayName("a permission on a keyspace covers its tables, one on every keyspace covers them all; PERMISSION_DENIED "
            + "names the permission and the object")
    void inheritance() {
        roles.create(alice("pw", Map.of(AuthResource.keyspace("ks").name(), Set.of(Permission.SELECT),
                AuthResource.ALL_KEYSPACES.name(), Set.of(Permission.CREATE))));
        Principal a = Principal.role("alice");
        assertTrue(access.holds(a, Permission.SELECT, AuthResource.table("ks", "t")));
        assertTrue(access.holds(a, Permission.CREATE, AuthResource.keyspace("other")));
        assertFalse(access.holds(a, Permission.SELECT, AuthResource.table("other", "t")));
        assertFalse(access.holds(a, Permission.MODIFY, AuthResource.table("ks", "t")));
        TributaryException e = assertThrows(TributaryException.class,
                () -> access.require(a, Permission.MODIFY, AuthResource.table("ks", "t")));
        assertEquals(ErrorCode.PERMISSION_DENIED, e.code());
        assertEquals("User alice has no MODIFY permission on <table ks.t> or any of its parents", e.getMessage());
        assertTrue(access.holds(Principal.unchecked("anyone"), Permission.DROP, AuthResource.ALL_KEYSPACES));
    }

    @Test
    @DisplayName("a GRANT made on another node counts at once: a refusal is checked against the store")
    void grantElsewhere() {
        roles.create(alice("pw", Map.of()));
        roles.changeElsewhere(roles.fresh("alice").orElseThrow().withPermissions(AuthResource.table("ks", "t"),
                Set.of(Permission.SELECT), true));
        assertTrue(access.holds(Principal.role("alice"), Permission.SELECT, AuthResource.table("ks", "t")));
    }

    @Test
    @DisplayName("X2: a token stops working when it expires, when its role is dropped or barred, and when its password "
            + "changes (once this node has seen the change: the watch brings it within moments, as Cassandra's role cache)")
    void tokens() {
        roles.create(alice("pw", Map.of()));
        String token = access.issue(access.login("alice", "pw")).token();
        assertEquals(Principal.role("alice"), access.authenticate(token));

        roles.changeElsewhere(alice("new-pw", Map.of()));
        roles.catchUp();
        assertEquals(ErrorCode.UNAUTHENTICATED, assertThrows(TributaryException.class, () -> access.authenticate(token)).code());
        String second = access.issue(access.login("alice", "new-pw")).token();
        access.authenticate(second);
        now.addAndGet(AccessControl.TOKEN_LIFETIME.toMillis());
        TributaryException expired = assertThrows(TributaryException.class, () -> access.authenticate(second));
        assertEquals("token expired; log in again", expired.getMessage());

        now.set(1_000_000);
        roles.update("alice", r -> new Role(r.name(), r.saltedHash(), false, false, r.permissions()));
        assertThrows(TributaryException.class, () -> access.authenticate(second));
        roles.delete("alice");
        assertThrows(TributaryException.class, () -> access.authenticate(second));
        assertThrows(TributaryException.class, () -> access.authenticate(null));
    }

    @Test
    @DisplayName("passwords are bcrypt hashes ($2a$, cost 10) that check only the right password")
    void passwords() {
        String h = Passwords.hash("canary-7f3e");
        assertTrue(h.startsWith("$2a$10$"), h);
        assertFalse(h.contains("canary"));
        assertTrue(Passwords.matches("canary-7f3e", h));
        assertFalse(Passwords.matches("canary-7f3f", h));
        assertFalse(Passwords.matches("x", "not a hash"));
        assertFalse(Passwords.matches("x", null));
    }

    @Test
    @DisplayName("a role's stored form reads back as written, and never prints its hash")
    void codec() {
        Role r = alice("pw", Map.of("data/ks", Set.of(Permission.SELECT, Permission.ALTER), "data", Set.of(Permission.CREATE)));
        assertEquals(r, RoleCodec.decode(RoleCodec.encode(r)));
        assertFalse(r.toString().contains(r.saltedHash()));
        Role none = new Role("x", null, false, true, Map.of());
        assertEquals(none, RoleCodec.decode(RoleCodec.encode(none)));
    }

    @Test
    @DisplayName("issue 29 item 9: a role's stored form keeps the roles granted to it (format 2); one granted none is "
            + "written in format 1, which nodes from before role membership read")
    void codecMembership() {
        Role member = alice("pw", Map.of("data/ks", Set.of(Permission.SELECT))).withMembership("readers", true)
                .withMembership("writers", true);
        byte[] data = RoleCodec.encode(member);
        assertEquals(2, data[0]);
        assertEquals(member, RoleCodec.decode(data));
        assertEquals(Set.of("readers", "writers"), RoleCodec.decode(data).memberOf());
        Role revoked = member.withMembership("readers", false).withMembership("writers", false);
        assertEquals(1, RoleCodec.encode(revoked)[0]);
        assertEquals(revoked, RoleCodec.decode(RoleCodec.encode(revoked)));
        assertEquals(Set.of(), RoleCodec.decode(RoleCodec.encode(revoked)).memberOf());
    }

    @Test
    @DisplayName("issue 29 item 9: permissions and superuser status are inherited through granted roles, through grants "
            + "of grants, as in Cassandra; LOGIN is not; a revoke takes them back; a cycle read mid-change ends")
    void inheritedThroughRoles() {
        roles.create(alice("pw", Map.of()).withMembership("readers", true));
        roles.create(new Role("readers", null, false, false, Map.of(AuthResource.table("ks", "t").name(),
                Set.of(Permission.SELECT))).withMembership("base", true));
        roles.create(new Role("base", null, false, false, Map.of(AuthResource.keyspace("other").name(),
                Set.of(Permission.MODIFY))));
        roles.create(new Role("admins", null, false, true, Map.of()));
        Principal a = Principal.role("alice");
        assertTrue(access.holds(a, Permission.SELECT, AuthResource.table("ks", "t")), "through readers");
        assertTrue(access.holds(a, Permission.MODIFY, AuthResource.table("other", "x")), "through readers, then base");
        assertFalse(access.holds(a, Permission.SELECT, AuthResource.table("ks", "u")));
        assertFalse(access.isSuperuser(a));
        assertEquals(List.of("alice", "readers", "base"), access.granted("alice", roles::fresh, true).stream()
                .map(Role::name).toList());
        assertEquals(List.of("alice", "readers"), access.granted("alice", roles::fresh, false).stream()
                .map(Role::name).toList(), "NORECURSIVE: the direct grants only");

        roles.update("alice", r -> r.withMembership("admins", true));
        assertTrue(access.isSuperuser(a), "a superuser role granted makes a superuser");
        assertTrue(access.holds(a, Permission.DROP, AuthResource.ALL_KEYSPACES));
        roles.update("alice", r -> r.withMembership("admins", false).withMembership("readers", false));
        roles.catchUp();
        assertFalse(access.isSuperuser(a));
        assertFalse(access.holds(a, Permission.SELECT, AuthResource.table("ks", "t")), "revoked");
        assertEquals(ErrorCode.UNAUTHENTICATED, assertThrows(TributaryException.class, () -> access.login("readers", "")).code(),
                "a role without LOGIN does not log in, whoever holds it");

        // a cycle (refused by GRANT, but a copy read while two nodes change grants might show one) ends
        roles.update("base", r -> r.withMembership("readers", true));
        roles.update("alice", r -> r.withMembership("readers", true));
        assertEquals(List.of("alice", "readers", "base"), access.granted("alice", roles::fresh, true).stream()
                .map(Role::name).toList());
        assertFalse(access.holds(a, Permission.ALTER, AuthResource.table("ks", "t")));
    }
}
