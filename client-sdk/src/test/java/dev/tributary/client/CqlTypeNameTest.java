package dev.tributary.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.CqlTypeName.Kind;
import dev.tributary.client.errors.ValueConversionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CqlTypeNameTest {

    @ParameterizedTest
    @EnumSource(Kind.class)
    void parsesEveryNativeTypeInAnyCase(Kind kind) {
        assertEquals(new CqlTypeName.Native(kind), CqlTypeName.parse(kind.cql()));
        assertEquals(new CqlTypeName.Native(kind), CqlTypeName.parse(" " + kind.cql().toUpperCase() + " "));
    }

    @Test
    void parsesNestedFrozenCollections() {
        CqlTypeName t = CqlTypeName.parse("frozen<map<text, list<int>>>");
        CqlTypeName.MapOf m = (CqlTypeName.MapOf) t;
        assertTrue(m.frozen());
        assertEquals(new CqlTypeName.Native(Kind.TEXT), m.key());
        assertEquals(new CqlTypeName.ListOf(new CqlTypeName.Native(Kind.INT), false), m.value());
        assertEquals("frozen<map<text, list<int>>>", t.toString());
        assertEquals(t, CqlTypeName.parse("FROZEN < MAP<TEXT,LIST<INT>> >"));
    }

    @Test
    void parsesSetsAndListsOfFrozenCollections() {
        CqlTypeName t = CqlTypeName.parse("set<frozen<list<blob>>>");
        CqlTypeName.SetOf s = (CqlTypeName.SetOf) t;
        assertFalse(s.frozen());
        assertEquals(new CqlTypeName.ListOf(new CqlTypeName.Native(Kind.BLOB), true), s.element());
    }

    @Test
    void anyOtherNameIsAUserType() {
        assertEquals(new CqlTypeName.UserDefined("address", false), CqlTypeName.parse("address"));
        assertEquals(new CqlTypeName.UserDefined("ks.address", true), CqlTypeName.parse("frozen<ks.address>"));
        assertEquals(new CqlTypeName.UserDefined("\"Ks\".\"My\"\"Type\"", false),
                CqlTypeName.parse("\"Ks\".\"My\"\"Type\""));
        CqlTypeName.ListOf l = (CqlTypeName.ListOf) CqlTypeName.parse("list<frozen<address>>");
        assertEquals(new CqlTypeName.UserDefined("address", true), l.element());
    }

    @Test
    void aQuotedNativeNameIsAUserType() {
        assertEquals(new CqlTypeName.UserDefined("\"int\"", false), CqlTypeName.parse("\"int\""));
    }

    @Test
    void malformedTypesNameTheTextAndPosition() {
        ValueConversionException e = assertThrows(ValueConversionException.class, () -> CqlTypeName.parse("map<text>"));
        assertTrue(e.getMessage().contains("expected ','"), e.getMessage());
        assertTrue(e.getMessage().contains("'map<text>'"), e.getMessage());
        assertThrows(ValueConversionException.class, () -> CqlTypeName.parse("list<int"));
        assertThrows(ValueConversionException.class, () -> CqlTypeName.parse("int int"));
        assertThrows(ValueConversionException.class, () -> CqlTypeName.parse(""));
        assertThrows(ValueConversionException.class, () -> CqlTypeName.parse("tuple<int, int>"));
    }
}
