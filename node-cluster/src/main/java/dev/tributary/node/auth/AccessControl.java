package dev.tributary.node.auth;

import dev.tributary.cql.ast.RoleStatement.Permission;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Who may do what: logs roles in (passwords, bearer tokens), and checks a principal's permissions
 * on keyspaces and tables, as Cassandra's PasswordAuthenticator and CassandraAuthorizer do. With
 * {@link Mode#ALLOW_ALL} every caller is let in unchecked. Errors say which permission on which
 * object, and never repeat a password or a token. Thread-safe.
 */
public final class AccessControl {
    /** {@code --authenticator}. */
    public enum Mode {
        ALLOW_ALL, PASSWORD;

        public static Mode parse(String s) {
            return switch (s) {
                case "allow-all" -> ALLOW_ALL;
                case "password" -> PASSWORD;
                default -> throw new IllegalArgumentException("--authenticator " + s + ": expected allow-all or password");
            };
        }
    }

    /** The superuser a password cluster starts with, as Cassandra's. */
    public static final String DEFAULT_SUPERUSER = "cassandra";
    public static final Duration TOKEN_LIFETIME = Duration.ofHours(1);

    private final Mode mode;
    private final RoleStore roles;
    private final Tokens tokens;
    private final LongSupplier clock;

    public AccessControl(Mode mode, RoleStore roles, Tokens tokens, LongSupplier clock) {
        this.mode = mode;
        this.roles = roles;
        this.tokens = tokens;
        this.clock = clock;
    }

    public boolean authenticates() {
        return mode == Mode.PASSWORD;
    }

    public RoleStore roles() {
        return roles;
    }

    /**
     * A password cluster's first start makes superuser {@code cassandra}, when it has no role at
     * all; every node tries, one wins. Its password is {@code given} (from
     * --superuser-password-file), else a generated one, which only the node that made the role
     * returns, for its operator to see once: no cluster ever starts with cassandra/cassandra.
     *
     * @return the generated password when this call made the role with one
     */
    public Optional<GeneratedPassword> ensureDefaultSuperuser(Optional<String> given) {
        if (mode != Mode.PASSWORD || !roles.roles().isEmpty()) {
            return Optional.empty();
        }
        String password = given.orElseGet(Passwords::generate);
        boolean made = roles.create(new Role(DEFAULT_SUPERUSER, Passwords.hash(password), true, true, java.util.Map.of()));
        return made && given.isEmpty() ? Optional.of(new GeneratedPassword(DEFAULT_SUPERUSER, password)) : Optional.empty();
    }

    /** A superuser password the node made up; toString keeps it out of logs. */
    public record GeneratedPassword(String role, String password) {
        @Override
        public String toString() {
            return "GeneratedPassword[" + role + ", password hidden]";
        }
    }

    /** Checks a role's password. */
    public Principal login(String role, String password) {
        if (mode == Mode.ALLOW_ALL) {
            return Principal.unchecked(role == null || role.isEmpty() ? "anonymous" : role);
        }
        Optional<Role> r = role == null ? Optional.empty() : roles.fresh(role);
        // the same answer for an unknown role and a wrong password: the caller learns no role names
        if (r.isEmpty() || !Passwords.matches(password == null ? "" : password, r.get().saltedHash())) {
            throw new TributaryException(ErrorCode.UNAUTHENTICATED, "Provided username " + role
                    + " and/or password are incorrect");
        }
        if (!r.get().login()) {
            throw new TributaryException(ErrorCode.UNAUTHENTICATED, role + " is not permitted to log in");
        }
        return Principal.role(r.get().name());
    }

    /** A bearer token for a principal that just logged in. */
    public IssuedToken issue(Principal p) {
        if (!p.checked()) {
            return new IssuedToken("", 0);
        }
        long expires = clock.getAsLong() + TOKEN_LIFETIME.toMillis();
        Role r = roles.role(p.name()).orElseThrow(() -> unauthenticated("role " + p.name() + " no longer exists"));
        return new IssuedToken(tokens.issue(p.name(), expires, Tokens.passwordDigest(r.saltedHash())), expires);
    }

    public record IssuedToken(String token, long expiresAtMillis) {
        @Override
        public String toString() {
            return "IssuedToken[expires " + expiresAtMillis + "]";
        }
    }

    /**
     * The principal a bearer token speaks for. Missing, malformed, forged or expired tokens, and
     * tokens of a role since dropped, barred from login or given a new password, are refused.
     */
    public Principal authenticate(String token) {
        if (token == null || token.isEmpty()) {
            throw unauthenticated("this node authenticates: log in (AuthService.Login) and send the token as "
                    + "'authorization: Bearer <token>'");
        }
        Tokens.Claims c;
        try {
            c = tokens.verify(token);
        } catch (Tokens.InvalidTokenException e) {
            throw unauthenticated(e.getMessage());
        }
        Optional<Role> r = roles.role(c.role());
        if (r.isPresent() && Tokens.passwordDigest(r.get().saltedHash()) != c.passwordDigest()) {
            r = roles.fresh(c.role()); // this node may not have seen the change yet: ask once more
        }
        if (r.isEmpty() || !r.get().login() || Tokens.passwordDigest(r.get().saltedHash()) != c.passwordDigest()) {
            throw unauthenticated("the token's role was dropped, barred from login or given a new password; log in again");
        }
        return Principal.role(c.role());
    }

    private static TributaryException unauthenticated(String why) {
        return new TributaryException(ErrorCode.UNAUTHENTICATED, why);
    }

    /** Whether a principal is a superuser, or was granted (through any chain of grants) a role that is one. */
    public boolean isSuperuser(Principal p) {
        if (!p.checked()) {
            return true;
        }
        return granted(p.name(), roles::role, true).stream().anyMatch(Role::superuser)
                || granted(p.name(), roles::fresh, true).stream().anyMatch(Role::superuser);
    }

    /**
     * Whether a principal holds a permission on a resource or on one that contains it, itself or
     * through a role granted to it (and the roles granted to that, as Cassandra's roles inherit), or
     * is a superuser.
     */
    public boolean holds(Principal p, Permission perm, AuthResource on) {
        if (!p.checked()) {
            return true;
        }
        // the cached copies first; a refusal is checked against the store, so a GRANT made on
        // another node a moment ago counts at once (a REVOKE may take a moment, as in Cassandra)
        return holds(granted(p.name(), roles::role, true), perm, on) || holds(granted(p.name(), roles::fresh, true), perm, on);
    }

    private static boolean holds(java.util.List<Role> roles, Permission perm, AuthResource on) {
        for (Role r : roles) {
            if (r.superuser() || on.lineage().stream().anyMatch(at -> r.on(at).contains(perm))) {
                return true;
            }
        }
        return false;
    }

    /**
     * A role and the roles granted to it, nearest first, each once: with {@code recursive} also
     * those granted to them, and so on. Grants form no cycle (a GRANT that would make one is
     * refused), but a copy read while another node changes them might: each role is visited once.
     * A granted role since dropped is left out. Empty when there is no such role.
     */
    public java.util.List<Role> granted(String role, java.util.function.Function<String, Optional<Role>> lookup,
            boolean recursive) {
        java.util.List<Role> out = new java.util.ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>(java.util.List.of(role));
        java.util.ArrayDeque<String> todo = new java.util.ArrayDeque<>(java.util.List.of(role));
        while (!todo.isEmpty()) {
            String name = todo.poll();
            Optional<Role> r = lookup.apply(name);
            if (r.isEmpty()) {
                continue;
            }
            out.add(r.get());
            if (!recursive && !name.equals(role)) {
                continue;
            }
            for (String m : r.get().memberOf()) {
                if (seen.add(m)) {
                    todo.add(m);
                }
            }
        }
        return out;
    }

    /** Refuses with PERMISSION_DENIED unless the principal {@link #holds} the permission. */
    public void require(Principal p, Permission perm, AuthResource on) {
        if (!holds(p, perm, on)) {
            throw new TributaryException(ErrorCode.PERMISSION_DENIED, "User " + p.name() + " has no " + perm
                    + " permission on " + on + " or any of its parents");
        }
    }

    /** Refuses with PERMISSION_DENIED unless the principal is a superuser. */
    public void requireSuperuser(Principal p, String what) {
        if (!isSuperuser(p)) {
            throw new TributaryException(ErrorCode.PERMISSION_DENIED, "Only superusers may " + what + " (user "
                    + p.name() + " is not one)");
        }
    }
}
