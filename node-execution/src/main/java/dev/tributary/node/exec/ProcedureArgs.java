package dev.tributary.node.exec;

import dev.tributary.cql.ast.Argument;
import dev.tributary.cql.ast.BlobLit;
import dev.tributary.cql.ast.BooleanLit;
import dev.tributary.cql.ast.DecimalLit;
import dev.tributary.cql.ast.IntegerLit;
import dev.tributary.cql.ast.NullLit;
import dev.tributary.cql.ast.StringLit;
import dev.tributary.cql.ast.Term;
import dev.tributary.node.errors.InvalidRequestException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The arguments of a CALL, by parameter name as in the capture seed's packages: named
 * ({@code name => value}) or positional in the procedure's parameter order. Unknown parameters
 * and values of the wrong kind are errors that name the procedure and the parameter.
 */
public final class ProcedureArgs {
    private final String procedure;
    private final Map<String, Object> values = new LinkedHashMap<>();

    /** The arguments of a CALL to a procedure with these parameters, in their order. */
    public static ProcedureArgs of(String procedure, dev.tributary.cql.ast.Call c, String... parameters) {
        return new ProcedureArgs(procedure, List.of(parameters), c.arguments());
    }

    ProcedureArgs(String procedure, List<String> parameters, List<Argument> args) {
        this.procedure = procedure;
        for (int i = 0; i < args.size(); i++) {
            Argument a = args.get(i);
            String name;
            if (a.name() == null) {
                if (i >= parameters.size()) {
                    throw new InvalidRequestException(procedure + " takes at most " + parameters.size() + " arguments ("
                            + String.join(", ", parameters) + ")");
                }
                name = parameters.get(i);
            } else {
                name = a.name().toLowerCase(Locale.ROOT);
                if (!parameters.contains(name)) {
                    throw new InvalidRequestException(procedure + " has no parameter '" + a.name() + "'; it takes "
                            + String.join(", ", parameters));
                }
            }
            if (values.containsKey(name)) {
                throw new InvalidRequestException(procedure + ": parameter " + name + " is given twice");
            }
            values.put(name, literal(name, a.value()));
        }
    }

    private Object literal(String name, Term t) {
        if (t instanceof StringLit s) {
            return s.value();
        } else if (t instanceof IntegerLit i) {
            return i.value().longValueExact();
        } else if (t instanceof BooleanLit b) {
            return b.value();
        } else if (t instanceof NullLit) {
            return null;
        } else if (t instanceof BlobLit b) {
            return b.value();
        } else if (t instanceof DecimalLit d) {
            return d.text();
        }
        throw new InvalidRequestException(procedure + ": parameter " + name + " must be a constant, got " + t.cql());
    }

    /** The value as given (String, Long, Boolean, Blob, or null). */
    public Object raw(String name) {
        return values.get(name);
    }

    public boolean has(String name) {
        return values.get(name) != null;
    }

    public String string(String name, String def) {
        Object v = values.get(name);
        return v == null ? def : v.toString();
    }

    public String requireString(String name) {
        String v = string(name, null);
        if (v == null || v.isBlank()) {
            throw new InvalidRequestException(procedure + " needs parameter " + name);
        }
        return v;
    }

    public boolean bool(String name, boolean def) {
        Object v = values.get(name);
        if (v == null) {
            return def;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        String s = v.toString().toLowerCase(Locale.ROOT);
        if (s.equals("true") || s.equals("y") || s.equals("yes")) {
            return true;
        }
        if (s.equals("false") || s.equals("n") || s.equals("no")) {
            return false;
        }
        throw new InvalidRequestException(procedure + ": parameter " + name + " must be true or false, got " + v);
    }

    public Long longValue(String name) {
        Object v = values.get(name);
        if (v == null) {
            return null;
        }
        if (v instanceof Long l) {
            return l;
        }
        try {
            return Long.parseLong(v.toString());
        } catch (NumberFormatException e) {
            throw new InvalidRequestException(procedure + ": parameter " + name + " must be a number, got " + v);
        }
    }

    /** {@code keyspace.table} as its two names, lower-cased; refused naming {@code proc} otherwise. */
    public static String[] table(String proc, String qualified) {
        int dot = qualified.indexOf('.');
        if (dot <= 0 || dot == qualified.length() - 1) {
            throw new InvalidRequestException(proc + ": a table is written keyspace.table, got '" + qualified + "'");
        }
        return new String[] {qualified.substring(0, dot).toLowerCase(Locale.ROOT), qualified.substring(dot + 1).toLowerCase(Locale.ROOT)};
    }
}
