package dev.tributary.node.exec;

import dev.tributary.cql.ast.AlterTable;
import dev.tributary.cql.ast.Argument;
import dev.tributary.cql.ast.Batch;
import dev.tributary.cql.ast.Call;
import dev.tributary.cql.ast.CreateKeyspace;
import dev.tributary.cql.ast.CreateTable;
import dev.tributary.cql.ast.CreateType;
import dev.tributary.cql.ast.DropKeyspace;
import dev.tributary.cql.ast.DropTable;
import dev.tributary.cql.ast.DropType;
import dev.tributary.cql.ast.ModificationStatement;
import dev.tributary.cql.ast.QualifiedName;
import dev.tributary.cql.ast.RoleStatement;
import dev.tributary.cql.ast.RoleStatement.Permission;
import dev.tributary.cql.ast.Select;
import dev.tributary.cql.ast.Statement;
import dev.tributary.cql.ast.StringLit;
import dev.tributary.cql.ast.Truncate;
import dev.tributary.cql.ast.Use;
import dev.tributary.node.auth.AuthResource;
import dev.tributary.rules.StreamsRuleRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * What a statement needs of the role that runs it, as Cassandra's authorizer decides: SELECT on a
 * table to read it (its CDC log: the base table; a queue: every table its captures' rules name),
 * MODIFY to write it, CREATE/ALTER/DROP for schema changes, ALTER on what a capture or rule
 * procedure touches. Log tables, system keyspaces, database links and cluster operations are for
 * superusers. Role statements decide for themselves ({@code RoleAdmin}). Pure: the queue's rules
 * come through a port.
 */
public final class StatementAccess {
    /** One thing a statement needs: a permission on a resource, or being a superuser (then {@code permission} is null). */
    public record Need(Permission permission, AuthResource resource, String superuserFor) {
        static Need of(Permission p, AuthResource r) {
            return new Need(p, r, null);
        }

        static Need superuser(String what) {
            return new Need(null, null, what);
        }
    }

    private final dev.tributary.node.auth.AccessControl access;
    private final Function<String, List<StreamsRuleRow>> queueRules;

    /** @param queueRules the streams_rules rows of the captures that enqueue into a queue */
    public StatementAccess(dev.tributary.node.auth.AccessControl access, Function<String, List<StreamsRuleRow>> queueRules) {
        this.access = access;
        this.queueRules = queueRules;
    }

    /** Who may do what, under the statements' needs. */
    public dev.tributary.node.auth.AccessControl control() {
        return access;
    }

    /** Refuses a statement the session's principal may not run (PERMISSION_DENIED naming what it lacks). */
    public void authorize(Statement st, SessionContext s) {
        if (!s.principal().checked()) {
            return;
        }
        require(s.principal(), needs(st, s));
    }

    /** Refuses reading a table's changes (its CDC log, its streams) without SELECT on it. */
    public void authorizeChanges(dev.tributary.node.auth.Principal p, String keyspace, String table) {
        access.require(p, Permission.SELECT, AuthResource.table(keyspace, table));
    }

    /** Refuses reading a queue without SELECT on every table its captures' rules name. */
    public void authorizeQueue(dev.tributary.node.auth.Principal p, String queue) {
        if (p.checked()) {
            for (AuthResource r : queueResources(queueRules.apply(queue))) {
                access.require(p, Permission.SELECT, r);
            }
        }
    }

    private void require(dev.tributary.node.auth.Principal p, List<Need> needs) {
        for (Need n : needs) {
            if (n.permission() == null) {
                access.requireSuperuser(p, n.superuserFor());
            } else {
                access.require(p, n.permission(), n.resource());
            }
        }
    }

    public List<Need> needs(Statement st, SessionContext s) {
        List<Need> out = new ArrayList<>();
        if (st instanceof Use || st instanceof RoleStatement) {
            return out;
        }
        if (st instanceof Select sel) {
            return read(sel.from(), s);
        }
        if (st instanceof ModificationStatement m) {
            out.add(Need.of(Permission.MODIFY, table(m.table(), s)));
        } else if (st instanceof Batch b) {
            for (ModificationStatement m : b.statements()) {
                out.add(Need.of(Permission.MODIFY, table(m.table(), s)));
            }
        } else if (st instanceof Truncate t) {
            out.add(guarded(Permission.MODIFY, t.name(), s, "truncate"));
        } else if (st instanceof CreateKeyspace) {
            out.add(Need.of(Permission.CREATE, AuthResource.ALL_KEYSPACES));
        } else if (st instanceof DropKeyspace dk) {
            out.add(Need.of(Permission.DROP, AuthResource.keyspace(dk.name())));
        } else if (st instanceof CreateTable ct) {
            out.add(Need.of(Permission.CREATE, AuthResource.keyspace(SchemaService.keyspace(ct.name(), s))));
        } else if (st instanceof CreateType ct) {
            out.add(Need.of(Permission.CREATE, AuthResource.keyspace(SchemaService.keyspace(ct.name(), s))));
        } else if (st instanceof DropType dt) {
            out.add(Need.of(Permission.DROP, AuthResource.keyspace(SchemaService.keyspace(dt.name(), s))));
        } else if (st instanceof AlterTable at) {
            out.add(guarded(Permission.ALTER, at.name(), s, "alter"));
        } else if (st instanceof DropTable dt) {
            out.add(guarded(Permission.DROP, dt.name(), s, "drop"));
        } else if (st instanceof Call c) {
            Need n = call(c);
            if (n != null) {
                out.add(n);
            }
        } else {
            // database links and ALTER SYSTEM
            out.add(Need.superuser("manage database links and system parameters"));
        }
        return out;
    }

    private static AuthResource table(QualifiedName n, SessionContext s) {
        return AuthResource.table(SchemaService.keyspace(n, s), n.name());
    }

    /** A schema change of a table: log tables and system keyspaces are for superusers alone. */
    private static Need guarded(Permission p, QualifiedName n, SessionContext s, String verb) {
        String ks = SchemaService.keyspace(n, s);
        if (SchemaService.SYSTEM_KEYSPACES.contains(ks)) {
            return Need.superuser(verb + " tables of system keyspace " + ks);
        }
        if (n.name().endsWith(SystemTables.CDC_LOG_SUFFIX)) {
            return Need.superuser(verb + " log table " + ks + "." + n.name());
        }
        return Need.of(p, AuthResource.table(ks, n.name()));
    }

    private List<Need> read(QualifiedName from, SessionContext s) {
        String ks = SchemaService.keyspace(from, s);
        List<Need> out = new ArrayList<>();
        if (ks.equals("system_auth")) {
            out.add(Need.superuser("read system_auth (it holds the roles' password hashes)"));
        } else if (ks.equals("system_queues")) {
            for (AuthResource r : queueResources(queueRules.apply(from.name()))) {
                out.add(Need.of(Permission.SELECT, r));
            }
        } else if (SchemaService.SYSTEM_KEYSPACES.contains(ks)) {
            return out; // the schema, peers and views: every role reads them, drivers first of all
        } else if (from.name().endsWith(SystemTables.CDC_LOG_SUFFIX)) {
            String base = from.name().substring(0, from.name().length() - SystemTables.CDC_LOG_SUFFIX.length());
            out.add(Need.of(Permission.SELECT, AuthResource.table(ks, base)));
        } else {
            out.add(Need.of(Permission.SELECT, AuthResource.table(ks, from.name())));
        }
        return out;
    }

    /**
     * The capture seed: the user a capture process runs as (capture_user), and an apply process's
     * (apply_user), need privileges on their rule sets and queue. The rule sets pick what the
     * queue holds, and the queue's readers need SELECT on all of it ({@link #queueResources}): so
     * the user must hold SELECT there. Transformation functions carry no grants here (they are
     * classes the operator installs on every node), so they need none.
     *
     * @param holdsSelect whether the user holds SELECT on a resource (a superuser holds all)
     * @return the resources the user lacks SELECT on, in the rules' order
     */
    public List<AuthResource> missingForProcessUser(String queue, java.util.function.Predicate<AuthResource> holdsSelect) {
        return queueResources(queueRules.apply(queue)).stream().filter(r -> !holdsSelect.test(r)).toList();
    }

    /**
     * Refuses to start a process whose user lacks what {@link #missingForProcessUser} says, when the
     * node authenticates (with allow-all there are no roles to hold anything).
     *
     * @param what          the procedure and process, for the message ({@code start_capture cap})
     * @param userParameter {@code capture_user} or {@code apply_user}
     * @throws dev.tributary.node.errors.TributaryException INVALID_REQUEST when the user is not a role,
     *         PERMISSION_DENIED naming what it lacks and the GRANT that gives it
     */
    public void requireProcessUser(String what, String userParameter, String user, String queue) {
        if (access == null || !access.authenticates()) {
            return;
        }
        if (access.roles().role(user).isEmpty()) {
            throw new dev.tributary.node.errors.InvalidRequestException(what + ": " + userParameter + " " + user
                    + " is not a role; CREATE ROLE it, or set " + userParameter + " to a role that exists");
        }
        dev.tributary.node.auth.Principal p = dev.tributary.node.auth.Principal.role(user);
        List<AuthResource> missing = missingForProcessUser(queue, r -> access.holds(p, Permission.SELECT, r));
        if (!missing.isEmpty()) {
            AuthResource first = missing.get(0);
            String on = first.table() != null ? "TABLE " + first.keyspace() + "." + first.table()
                    : first.keyspace() != null ? "KEYSPACE " + first.keyspace() : "ALL KEYSPACES";
            throw new dev.tributary.node.errors.TributaryException(dev.tributary.node.errors.ErrorCode.PERMISSION_DENIED, what
                    + ": " + userParameter + " " + user + " has no SELECT on " + missing.stream().map(AuthResource::toString)
                    .collect(java.util.stream.Collectors.joining(", ")) + ", which the rules of queue " + queue
                    + " put into it; GRANT SELECT ON " + on + " TO " + user);
        }
    }

    /**
     * The objects positive rules capture: a table rule's table, a schema rule's keyspace; a global
     * or custom rule (whose condition may name anything), or no rule at all (the queue holds what
     * earlier captures put there), means every keyspace.
     */
    static List<AuthResource> queueResources(List<StreamsRuleRow> rules) {
        List<AuthResource> out = new ArrayList<>();
        for (StreamsRuleRow r : rules) {
            if (!"POSITIVE".equals(r.ruleSetType())) {
                continue;
            }
            String type = r.streamsRuleType();
            AuthResource res;
            if ("TABLE".equals(type) && r.schemaName() != null && r.objectName() != null) {
                res = AuthResource.table(lower(r.schemaName()), lower(r.objectName()));
            } else if ("SCHEMA".equals(type) && r.schemaName() != null) {
                res = AuthResource.keyspace(lower(r.schemaName()));
            } else {
                return List.of(AuthResource.ALL_KEYSPACES);
            }
            if (!out.contains(res)) {
                out.add(res);
            }
        }
        return out.isEmpty() ? List.of(AuthResource.ALL_KEYSPACES) : out;
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    /** An administration procedure: ALTER on the table or keyspace it names, else on every keyspace. */
    static Need call(Call c) {
        String pkg = c.procedure().keyspace() == null ? "" : c.procedure().keyspace().toLowerCase(Locale.ROOT);
        String proc = c.procedure().name().toLowerCase(Locale.ROOT);
        if (pkg.equals("dbms_streams") && proc.equals("set_tag")) {
            return null;
        }
        if (pkg.equals("system") || pkg.equals("dbms_system")) {
            return Need.superuser("run " + pkg + "." + proc);
        }
        Optional<String> table = argument(c, "table_name");
        if (table.isPresent() && table.get().indexOf('.') > 0) {
            String[] t = ProcedureArgs.table(pkg + "." + proc, table.get());
            return Need.of(Permission.ALTER, AuthResource.table(t[0], t[1]));
        }
        Optional<String> schema = argument(c, "schema_name");
        if (schema.isPresent()) {
            return Need.of(Permission.ALTER, AuthResource.keyspace(lower(schema.get())));
        }
        return Need.of(Permission.ALTER, AuthResource.ALL_KEYSPACES);
    }

    private static Optional<String> argument(Call c, String name) {
        for (Argument a : c.arguments()) {
            if (name.equalsIgnoreCase(a.name()) && a.value() instanceof StringLit s) {
                return Optional.of(s.value());
            }
        }
        return Optional.empty();
    }
}
