package dev.tributary.node.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tributary.cql.CqlParser;
import dev.tributary.cql.ast.Call;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class InstanceObjectsTest {
    private static List<InstanceObjects.Named> of(String call) {
        return InstanceObjects.of((Call) CqlParser.parse(call));
    }

    private static InstanceObjects.Named n(InstanceObjects.Kind kind, String name) {
        return new InstanceObjects.Named(kind, name);
    }

    @Test
    @DisplayName("CAP-RAC-2: the captures, applies, queues and rule sets an administration CALL names, by argument")
    void namedObjects() {
        assertEquals(List.of(n(InstanceObjects.Kind.CAPTURE, "cc")), of("CALL dbms_capture_adm.start_capture(capture_name => 'CC')"));
        assertEquals(List.of(n(InstanceObjects.Kind.QUEUE, "cq"), n(InstanceObjects.Kind.APPLY, "ap")),
                of("CALL dbms_apply_adm.create_apply(queue_name => 'strmadmin.cq', apply_name => 'ap')"));
        assertEquals(List.of(n(InstanceObjects.Kind.CAPTURE, "cc"), n(InstanceObjects.Kind.QUEUE, "cq")),
                of("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', streams_name => 'cc', "
                        + "queue_name => 'cq')"));
        assertEquals(List.of(n(InstanceObjects.Kind.APPLY, "ap")),
                of("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'apply', streams_name => 'ap')"));
        assertEquals(List.of(n(InstanceObjects.Kind.CAPTURE, "x"), n(InstanceObjects.Kind.APPLY, "x")),
                of("CALL dbms_streams_adm.remove_rule(rule_name => 'r', streams_name => 'x')"), "no type: either");
        assertEquals(List.of(n(InstanceObjects.Kind.RULE_SET, "rs")),
                of("CALL dbms_rule_adm.add_rule(rule_name => 'r', rule_set_name => 'strmadmin.rs')"));
        assertEquals(List.of(), of("CALL dbms_capture_adm.build()"), "nothing named: runs where it is called");
        assertEquals(List.of(), of("CALL system.decommission()"), "not a process package");
    }
}
