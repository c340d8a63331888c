package dev.tributary.rules;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.rules.errors.CatalogCodecException;
import dev.tributary.rules.errors.InvalidRuleArgumentException;
import dev.tributary.rules.transform.AddColumn;
import dev.tributary.rules.transform.DeleteColumn;
import dev.tributary.rules.transform.RenameColumn;
import dev.tributary.rules.transform.RenameSchema;
import dev.tributary.rules.transform.RenameTable;
import dev.tributary.rules.transform.ValueType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CatalogCodecTest {

    private static RuleCatalog populated() {
        RuleCatalog c = new RuleCatalog("DB1", "strmadmin");
        StreamsClient client = StreamsClient.capture("CAP", Optional.empty(), Optional.empty());
        StreamsRulesResult t = c.addTableRules(client, "hr.employees", StreamsRuleOptions.DEFAULTS.withDdl(true)
                .withAndCondition(":lcr.get_command_type() <> 'DELETE'"));
        client = client.withRuleSet(t.role(), t.ruleSet());
        c.addSubsetRules(client, "hr.employees", "department_id IN (10, 50)", true, Optional.of("db2"));
        c.addSchemaRules(client, "\"Odd Ks\"", StreamsRuleOptions.DEFAULTS.withInclusionRule(false));
        c.createRuleSet("empty_set", "nothing in it");
        c.createRule("custom", ":dml.get_value('NEW', 'x') LIKE 'a%'", "a comment with 'quotes' and ünïcode");
        String dml = t.dmlRule().orElseThrow().toString();
        c.addTransformation(dml, new RenameSchema("hr", "hr2", 0));
        c.addTransformation(dml, new RenameTable("hr", "employees", "hr", "staff", 2));
        c.addTransformation(dml, new RenameColumn("hr", "employees", "salary", "pay", ValueType.BOTH, 1));
        c.addTransformation(dml, new DeleteColumn("hr", "employees", "ssn", ValueType.OLD, 0));
        c.setCustomTransformation(dml, Optional.of("hr.mask"));
        Object[] values = {null, "text", 1, 2L, (short) 3, (byte) 4, new BigInteger("123456789012345678901234567890"),
            new BigDecimal("-1.50"), 2.5d, 1.25f, true, Instant.parse("2024-05-06T07:08:09.123456789Z"),
            LocalDate.of(2024, 2, 29), LocalTime.of(23, 59, 58, 1), UUID.randomUUID(), new byte[] {1, 2, 3}};
        for (int i = 0; i < values.length; i++) {
            c.addTransformation(dml, new AddColumn("hr", "employees", "c" + i, values[i], ValueType.NEW, 0));
        }
        return c;
    }

    @Test
    @DisplayName("a snapshot survives encode and decode unchanged, and restores an equal catalog")
    void roundTrip() {
        RuleCatalog original = populated();
        CatalogSnapshot snapshot = original.snapshot();
        byte[] bytes = CatalogCodec.encode(snapshot);
        CatalogSnapshot decoded = CatalogCodec.decode(bytes);
        assertEquals(snapshot, decoded);
        assertArrayEquals(bytes, CatalogCodec.encode(decoded), "encoding is deterministic");

        RuleCatalog restored = RuleCatalog.restore(decoded, "DB1", "strmadmin");
        assertEquals(original.ruleRows(), restored.ruleRows());
        assertEquals(original.ruleSetRows(), restored.ruleSetRows());
        assertEquals(original.ruleSetRuleRows(), restored.ruleSetRuleRows());
        // the name sequence carries on where it was
        StreamsRulesResult next = restored.addTableRules(StreamsClient.capture("X", Optional.empty(), Optional.empty()),
                "hr.jobs", StreamsRuleOptions.DEFAULTS);
        assertTrue(original.snapshot().rules().stream().noneMatch(r -> r.qualifiedName().equals(next.dmlRule().orElseThrow())));
        assertEquals(snapshot.sequence() + 2, restored.snapshot().sequence());
    }

    @Test
    @DisplayName("add_column values keep their type through the codec")
    void valuesKeepTheirType() {
        CatalogSnapshot decoded = CatalogCodec.decode(CatalogCodec.encode(populated().snapshot()));
        Rule dml = decoded.rules().stream().filter(r -> r.name().equals("EMPLOYEES2")).findFirst().orElseThrow();
        List<Object> values = dml.transformations().declarative().stream().filter(t -> t instanceof AddColumn)
                .map(t -> ((AddColumn) t).value()).toList();
        assertEquals(16, values.size());
        assertEquals(Arrays.asList(null, "text", 1, 2L, (short) 3, (byte) 4), values.subList(0, 6));
        assertEquals(new BigDecimal("-1.50"), values.get(7));
        assertEquals(Instant.parse("2024-05-06T07:08:09.123456789Z"), values.get(11));
        assertArrayEquals(new byte[] {1, 2, 3}, (byte[]) values.get(15));
        assertEquals(Optional.of("hr.mask"), dml.transformations().custom());
    }

    @Test
    @DisplayName("values the codec cannot store are refused when the transformation is added")
    void unstorableValue() {
        RuleCatalog c = populated();
        assertThrows(InvalidRuleArgumentException.class, () -> c.addTransformation("employees2",
                new AddColumn("hr", "employees", "x", new Object(), ValueType.NEW, 0)));
    }

    @Test
    @DisplayName("truncated, corrupt and foreign bytes are reported as CATALOG_CORRUPT")
    void corruptInput() {
        byte[] bytes = CatalogCodec.encode(populated().snapshot());
        for (int cut : new int[] {0, 3, 6, 14, bytes.length / 2, bytes.length - 1}) {
            CatalogCodecException e = assertThrows(CatalogCodecException.class, () -> CatalogCodec.decode(Arrays.copyOf(bytes, cut)));
            assertEquals("CATALOG_CORRUPT", e.code());
        }
        byte[] wrongMagic = bytes.clone();
        wrongMagic[0] = 'X';
        assertTrue(assertThrows(CatalogCodecException.class, () -> CatalogCodec.decode(wrongMagic)).getMessage().contains("magic"));
        byte[] wrongVersion = bytes.clone();
        wrongVersion[5] = 9;
        assertTrue(assertThrows(CatalogCodecException.class, () -> CatalogCodec.decode(wrongVersion)).getMessage().contains("version 9"));
        byte[] trailing = Arrays.copyOf(bytes, bytes.length + 1);
        assertThrows(CatalogCodecException.class, () -> CatalogCodec.decode(trailing));
    }

    @Test
    @DisplayName("an empty catalog round-trips")
    void empty() {
        CatalogSnapshot s = new RuleCatalog("DB1", "a").snapshot();
        assertEquals(s, CatalogCodec.decode(CatalogCodec.encode(s)));
    }
}
