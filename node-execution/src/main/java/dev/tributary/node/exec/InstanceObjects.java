package dev.tributary.node.exec;

import dev.tributary.cql.ast.Argument;
import dev.tributary.cql.ast.Call;
import dev.tributary.cql.ast.StringLit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The objects of one instance that an administration CALL names: its capture and apply processes,
 * queues and rule sets live in the store of the instance they were created on (and move with it
 * when its replica group's leader moves), so a CALL run on another node must reach that instance,
 * as Oracle's DBMS_ packages run from any instance of a RAC database. Pure: which arguments name
 * what; the node finds where each one is.
 */
public final class InstanceObjects {
    /** The packages whose procedures act on an instance's processes, queues and rules. */
    private static final Set<String> PACKAGES = Set.of("dbms_capture_adm", "dbms_apply_adm", "dbms_streams_adm",
            "dbms_rule_adm");

    public enum Kind { CAPTURE, APPLY, QUEUE, RULE_SET }

    /**
     * One named object, its name lowercased for comparing; a queue's or rule set's owner prefix
     * ({@code strmadmin.q}) is dropped, as the views list them without it.
     */
    public record Named(Kind kind, String name) {
        public Named {
            name = name.trim().toLowerCase(Locale.ROOT);
            if ((kind == Kind.QUEUE || kind == Kind.RULE_SET) && name.indexOf('.') >= 0) {
                name = name.substring(name.lastIndexOf('.') + 1);
            }
        }
    }

    private InstanceObjects() {
    }

    /**
     * What {@code call} names: {@code capture_name}, {@code apply_name}, {@code queue_name},
     * {@code rule_set_name}, and {@code streams_name} as a capture or an apply by its
     * {@code streams_type} (either, when the type is not given). Empty for other packages and
     * for arguments that are not string literals.
     */
    public static List<Named> of(Call call) {
        String pkg = call.procedure().keyspace();
        if (pkg == null || !PACKAGES.contains(pkg.toLowerCase(Locale.ROOT))) {
            return List.of();
        }
        String streamsType = text(call, "streams_type");
        List<Named> out = new ArrayList<>();
        for (Argument a : call.arguments()) {
            if (a.name() == null || !(a.value() instanceof StringLit s) || s.value().isBlank()) {
                continue;
            }
            switch (a.name()) {
                case "capture_name" -> out.add(new Named(Kind.CAPTURE, s.value()));
                case "apply_name" -> out.add(new Named(Kind.APPLY, s.value()));
                case "queue_name" -> out.add(new Named(Kind.QUEUE, s.value()));
                case "rule_set_name" -> out.add(new Named(Kind.RULE_SET, s.value()));
                case "streams_name" -> {
                    if (streamsType == null || streamsType.equalsIgnoreCase("capture")) {
                        out.add(new Named(Kind.CAPTURE, s.value()));
                    }
                    if (streamsType == null || streamsType.equalsIgnoreCase("apply")) {
                        out.add(new Named(Kind.APPLY, s.value()));
                    }
                }
                default -> {
                }
            }
        }
        return out;
    }

    private static String text(Call call, String name) {
        for (Argument a : call.arguments()) {
            if (name.equals(a.name()) && a.value() instanceof StringLit s) {
                return s.value();
            }
        }
        return null;
    }

    /** The local-only queries that list an instance's objects of each kind: the name in the first column. */
    public static String listing(Kind kind) {
        return switch (kind) {
            case CAPTURE -> "SELECT capture_name FROM system_views.capture";
            case APPLY -> "SELECT apply_name FROM system_views.apply";
            case QUEUE -> "SELECT queue_name FROM system_views.buffered_queues";
            case RULE_SET -> "SELECT rule_set_name FROM system_views.rule_sets";
        };
    }
}
