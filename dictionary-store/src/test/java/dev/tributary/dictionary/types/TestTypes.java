package dev.tributary.dictionary.types;

import java.util.List;

/** Types used across the value tests. */
final class TestTypes {
    static final CqlType ASCII = CqlType.of(CqlType.Kind.ASCII);
    static final CqlType TEXT = CqlType.of(CqlType.Kind.TEXT);
    static final CqlType VARCHAR = CqlType.of(CqlType.Kind.VARCHAR);
    static final CqlType TINYINT = CqlType.of(CqlType.Kind.TINYINT);
    static final CqlType SMALLINT = CqlType.of(CqlType.Kind.SMALLINT);
    static final CqlType INT = CqlType.of(CqlType.Kind.INT);
    static final CqlType BIGINT = CqlType.of(CqlType.Kind.BIGINT);
    static final CqlType COUNTER = CqlType.of(CqlType.Kind.COUNTER);
    static final CqlType VARINT = CqlType.of(CqlType.Kind.VARINT);
    static final CqlType DECIMAL = CqlType.of(CqlType.Kind.DECIMAL);
    static final CqlType FLOAT = CqlType.of(CqlType.Kind.FLOAT);
    static final CqlType DOUBLE = CqlType.of(CqlType.Kind.DOUBLE);
    static final CqlType BOOLEAN = CqlType.of(CqlType.Kind.BOOLEAN);
    static final CqlType TIMESTAMP = CqlType.of(CqlType.Kind.TIMESTAMP);
    static final CqlType DATE = CqlType.of(CqlType.Kind.DATE);
    static final CqlType TIME = CqlType.of(CqlType.Kind.TIME);
    static final CqlType DURATION = CqlType.of(CqlType.Kind.DURATION);
    static final CqlType BLOB = CqlType.of(CqlType.Kind.BLOB);
    static final CqlType UUID = CqlType.of(CqlType.Kind.UUID);
    static final CqlType TIMEUUID = CqlType.of(CqlType.Kind.TIMEUUID);
    static final CqlType INET = CqlType.of(CqlType.Kind.INET);

    static final CqlType.UserType ADDRESS = new CqlType.UserType("ks", "address",
            List.of(new CqlType.Field("street", TEXT), new CqlType.Field("zip", INT),
                    new CqlType.Field("tags", new CqlType.SetType(TEXT, true))), true);

    private TestTypes() {
    }

    static CqlType list(CqlType e) {
        return new CqlType.ListType(e, false);
    }

    static CqlType set(CqlType e) {
        return new CqlType.SetType(e, false);
    }

    static CqlType map(CqlType k, CqlType v) {
        return new CqlType.MapType(k, v, false);
    }

    static CqlType frozen(CqlType t) {
        return t.withFrozen(true);
    }

    /** A version-1 UUID with the given 60-bit timestamp and low bits. */
    static java.util.UUID timeUuid(long timestamp, long lsb) {
        long msb = (timestamp << 32) // time_low
                | ((timestamp >>> 16) & 0xFFFF0000L) // time_mid
                | 0x1000L // version 1
                | ((timestamp >>> 48) & 0x0FFFL); // time_hi
        return new java.util.UUID(msb, lsb);
    }
}
