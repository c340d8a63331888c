package dev.tributary.cql;

import static dev.tributary.cql.ParserTestSupport.i;
import static dev.tributary.cql.ParserTestSupport.parse;
import static dev.tributary.cql.ParserTestSupport.qn;
import static dev.tributary.cql.ParserTestSupport.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.cql.ast.Argument;
import dev.tributary.cql.ast.BlobLit;
import dev.tributary.cql.ast.BooleanLit;
import dev.tributary.cql.ast.Call;
import dev.tributary.cql.ast.NullLit;
import dev.tributary.dictionary.types.Blob;
import dev.tributary.cql.errors.CqlInvalidException;
import java.util.List;
import org.junit.jupiter.api.Test;

class CallParserTest {

    @Test
    void namedArguments() {
        Call c = parse("CALL dbms_streams_adm.add_table_rules(table_name => 'hr.employees', streams_type => 'capture', "
                + "inclusion_rule => true)", Call.class);
        assertEquals(qn("dbms_streams_adm", "add_table_rules"), c.procedure());
        assertEquals(List.of(new Argument("table_name", s("hr.employees")), new Argument("streams_type", s("capture")),
                new Argument("inclusion_rule", new BooleanLit(true))), c.arguments());
    }

    @Test
    void positionalThenNamedAndOtherValueKinds() {
        Call c = parse("call DBMS_CAPTURE_ADM.CREATE_CAPTURE('strm01_queue', CAPTURE_NAME => 'strm01_capture', "
                + "first_scn => NULL, start_scn => 42)", Call.class);
        assertEquals(qn("dbms_capture_adm", "create_capture"), c.procedure());
        assertEquals(List.of(new Argument(null, s("strm01_queue")), new Argument("capture_name", s("strm01_capture")),
                new Argument("first_scn", NullLit.INSTANCE), new Argument("start_scn", i(42))), c.arguments());
    }

    @Test
    void noArgumentsAndBlobTag() {
        assertEquals(new Call(qn("dbms_streams", "get_tag"), List.of()), CqlParser.parse("CALL dbms_streams.get_tag()"));
        Call tag = parse("CALL dbms_streams.set_tag(tag => 0x1d)", Call.class);
        assertEquals(new Argument("tag", new BlobLit(Blob.fromHex("1d"))), tag.arguments().get(0));
    }

    @Test
    void ruleConditionsAreStrings() {
        Call c = parse("CALL dbms_rule_adm.create_rule(rule_name => 'r1', condition => "
                + "':dml.get_object_owner() = ''HR'' AND :dml.is_null_tag() = ''Y''')", Call.class);
        assertEquals(s(":dml.get_object_owner() = 'HR' AND :dml.is_null_tag() = 'Y'"), c.arguments().get(1).value());
    }

    @Test
    void positionalAfterNamedAndRepeatedNamesAreInvalid() {
        CqlInvalidException e = assertThrows(CqlInvalidException.class,
                () -> CqlParser.parse("CALL p.q(a => 1, 2)"));
        assertTrue(e.getMessage().contains("CALL p.q"), e.getMessage());
        CqlInvalidException twice = assertThrows(CqlInvalidException.class,
                () -> CqlParser.parse("CALL p.q(a => 1, A => 2)"));
        assertTrue(twice.getMessage().contains("given twice"), twice.getMessage());
    }
}
