package dev.tributary.cql;

import dev.tributary.cql.ast.BindMarker;
import dev.tributary.cql.ast.BlobLit;
import dev.tributary.cql.ast.BooleanLit;
import dev.tributary.cql.ast.DecimalLit;
import dev.tributary.cql.ast.DurationLit;
import dev.tributary.cql.ast.FloatSpecial;
import dev.tributary.cql.ast.FunctionCall;
import dev.tributary.cql.ast.IntegerLit;
import dev.tributary.cql.ast.ListLit;
import dev.tributary.cql.ast.MapLit;
import dev.tributary.cql.ast.NullLit;
import dev.tributary.cql.ast.SetLit;
import dev.tributary.cql.ast.StringLit;
import dev.tributary.cql.ast.Term;
import dev.tributary.cql.ast.TupleLit;
import dev.tributary.cql.ast.UdtLit;
import dev.tributary.cql.ast.UuidLit;
import dev.tributary.cql.errors.CqlInvalidException;
import dev.tributary.cql.errors.CqlTypeException;
import dev.tributary.cql.lexer.DurationLiterals;
import dev.tributary.cql.internal.InetLiterals;
import dev.tributary.cql.internal.TemporalLiterals;
import dev.tributary.dictionary.types.Blob;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.dictionary.types.CqlType.Kind;
import dev.tributary.dictionary.types.TimeUuids;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.random.RandomGenerator;

/**
 * Turns a {@link Term} into the Java value of a column's {@link CqlType}, following the value
 * model of docs/ARCHITECTURE.md ({@code Integer} for int, {@code Instant} for timestamp, immutable
 * {@code List}/{@code Set}/{@code Map} for collections, {@code Map<String,Object>} for user types).
 *
 * <p>Sets and maps come back in the order of the literal (duplicate set elements dropped); sorting
 * them into CQL order is the storage layer's job. Bound values are checked for the Java class the
 * type needs; a narrower integral or float value is widened ({@code Integer} into bigint), never
 * narrowed. The value functions {@code now()}, {@code currenttimeuuid()}, {@code uuid()},
 * {@code currenttimestamp()}, {@code currentdate()}, {@code currenttime()},
 * {@code totimestamp(x)}, {@code todate(x)}, {@code tounixtimestamp(x)}, {@code dateof(x)},
 * {@code unixtimestampof(x)}, {@code mintimeuuid(t)} and {@code maxtimeuuid(t)} are evaluated
 * here, with the injected clock and randomness.
 *
 * <p>Thread-safe (immutable; the timeuuid generator is thread-safe).
 *
 * @see CqlTypeException thrown when a value does not fit (names the column, type and literal)
 * @see CqlInvalidException thrown for an unknown function, a wrong argument count, or a bind
 *      marker without a value
 */
public final class TermTyper {
    private static final Pattern UUID_TEXT = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private final TimeUuidGenerator timeUuids;
    private final RandomGenerator random;

    public TermTyper(TimeUuidGenerator timeUuids, RandomGenerator random) {
        this.timeUuids = Objects.requireNonNull(timeUuids, "timeUuids");
        this.random = Objects.requireNonNull(random, "random");
    }

    /** The system clock, a secure random source, and a timeuuid generator with a random node. */
    public static TermTyper systemDefault() {
        SecureRandom random = new SecureRandom();
        return new TermTyper(TimeUuidGenerator.withRandomNode(InstantSource.system(), random), random);
    }

    /**
     * @param columnName   how messages name the target (a column, or e.g. {@code [ttl]})
     * @param boundValues  the values for bind markers, by marker index; may be null when the term
     *                     has no marker
     * @return the value, or null for NULL
     */
    public Object toValue(CqlType type, Term term, String columnName, List<Object> boundValues) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(term, "term");
        Objects.requireNonNull(columnName, "columnName");
        return convert(type, term, columnName, boundValues);
    }

    private Object convert(CqlType type, Term term, String col, List<Object> bound) {
        if (term instanceof NullLit) {
            return null;
        }
        if (term instanceof BindMarker m) {
            return fromJava(type, boundValue(m, col, bound), col);
        }
        if (term instanceof FunctionCall f) {
            return assignResult(type, evaluate(f, col, bound), f, col);
        }
        if (type instanceof CqlType.Native n) {
            return scalar(n, term, col);
        }
        if (type instanceof CqlType.ListType l) {
            if (!(term instanceof ListLit list)) {
                throw literalMismatch(type, term, col);
            }
            List<Object> out = new ArrayList<>();
            for (Term e : list.elements()) {
                out.add(element(l.element(), e, "value(" + col + ")", bound, col));
            }
            return List.copyOf(out);
        }
        if (type instanceof CqlType.SetType s) {
            List<Term> elements;
            if (term instanceof SetLit set) {
                elements = set.elements();
            } else if (term instanceof MapLit map && map.entries().isEmpty()) {
                elements = List.of();
            } else {
                throw literalMismatch(type, term, col);
            }
            Set<Object> out = new LinkedHashSet<>();
            for (Term e : elements) {
                out.add(element(s.element(), e, "value(" + col + ")", bound, col));
            }
            return Collections.unmodifiableSet(out);
        }
        if (type instanceof CqlType.MapType m) {
            if (!(term instanceof MapLit map)) {
                throw literalMismatch(type, term, col);
            }
            Map<Object, Object> out = new LinkedHashMap<>();
            for (MapLit.Entry e : map.entries()) {
                Object k = element(m.key(), e.key(), "key(" + col + ")", bound, col);
                Object v = element(m.value(), e.value(), "value(" + col + ")", bound, col);
                if (out.put(k, v) != null) {
                    throw new CqlTypeException(col, type.cql(), term.cql(), "Invalid map literal for " + quoted(col)
                            + " of type " + type.cql() + ": duplicate key " + e.key().cql());
                }
            }
            return Collections.unmodifiableMap(out);
        }
        CqlType.UserType u = (CqlType.UserType) type;
        Map<String, Term> given;
        if (term instanceof UdtLit udt) {
            given = udt.fields();
        } else if (term instanceof MapLit map && map.entries().isEmpty()) {
            given = Map.of();
        } else {
            throw literalMismatch(type, term, col);
        }
        for (String name : given.keySet()) {
            if (u.fields().stream().noneMatch(f -> f.name().equals(name))) {
                throw new CqlTypeException(col, type.cql(), term.cql(), "Unknown field " + quoted(name)
                        + " in value of user defined type " + type.cql() + " for " + quoted(col));
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (CqlType.Field f : u.fields()) {
            Term t = given.get(f.name());
            out.put(f.name(), t == null ? null : convert(f.type(), t, col + "." + f.name(), bound));
        }
        return Collections.unmodifiableMap(out);
    }

    /** A collection element: like a value, but never null. */
    private Object element(CqlType type, Term term, String name, List<Object> bound, String col) {
        Object v = convert(type, term, name, bound);
        if (v == null) {
            throw new CqlTypeException(name, type.cql(), term.cql(),
                    "null is not supported inside collections (" + quoted(col) + ")");
        }
        return v;
    }

    // ---------------------------------------------------------------- literals into scalars

    private Object scalar(CqlType.Native type, Term term, String col) {
        Kind k = type.kind();
        if (term instanceof IntegerLit i) {
            return integer(type, i, col);
        }
        if (term instanceof DecimalLit d) {
            return switch (k) {
                case FLOAT -> finiteFloat(type, d, col, Float.parseFloat(d.text()));
                case DOUBLE -> finiteDouble(type, d, col, Double.parseDouble(d.text()));
                case DECIMAL -> decimal(type, d, col);
                default -> throw constantMismatch("FLOAT", type, term, col);
            };
        }
        if (term instanceof FloatSpecial f) {
            return switch (k) {
                case FLOAT -> (float) f.value();
                case DOUBLE -> f.value();
                default -> throw constantMismatch("FLOAT", type, term, col);
            };
        }
        if (term instanceof BooleanLit b) {
            if (k == Kind.BOOLEAN) {
                return b.value();
            }
            throw constantMismatch("BOOLEAN", type, term, col);
        }
        if (term instanceof StringLit s) {
            return string(type, s, col);
        }
        if (term instanceof UuidLit u) {
            if (k == Kind.UUID) {
                return u.value();
            }
            if (k == Kind.TIMEUUID) {
                return timeUuid(type, u.value(), term.cql(), col, "UUID");
            }
            throw constantMismatch("UUID", type, term, col);
        }
        if (term instanceof BlobLit b) {
            if (k == Kind.BLOB) {
                return b.value();
            }
            throw constantMismatch("HEX", type, term, col);
        }
        if (term instanceof DurationLit d) {
            if (k == Kind.DURATION) {
                return d.value();
            }
            throw constantMismatch("DURATION", type, term, col);
        }
        throw literalMismatch(type, term, col);
    }

    private Object integer(CqlType.Native type, IntegerLit lit, String col) {
        BigInteger v = lit.value();
        switch (type.kind()) {
            case TINYINT:
                return (byte) inRange(type, lit, col, Byte.MIN_VALUE, Byte.MAX_VALUE);
            case SMALLINT:
                return (short) inRange(type, lit, col, Short.MIN_VALUE, Short.MAX_VALUE);
            case INT:
                return (int) inRange(type, lit, col, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case BIGINT:
            case COUNTER:
                return inRange(type, lit, col, Long.MIN_VALUE, Long.MAX_VALUE);
            case VARINT:
                return v;
            case DECIMAL:
                return new BigDecimal(v);
            case FLOAT:
                return finiteFloat(type, lit, col, new BigDecimal(v).floatValue());
            case DOUBLE:
                return finiteDouble(type, lit, col, new BigDecimal(v).doubleValue());
            case TIMESTAMP:
                return Instant.ofEpochMilli(inRange(type, lit, col, Long.MIN_VALUE, Long.MAX_VALUE));
            case DATE:
                return TemporalLiterals.dateFromNumber(inRange(type, lit, col, 0, TemporalLiterals.MAX_DATE_NUMBER));
            case TIME:
                return TemporalLiterals.timeFromNanos(inRange(type, lit, col, 0, TemporalLiterals.MAX_TIME_NANOS));
            default:
                throw constantMismatch("INTEGER", type, lit, col);
        }
    }

    private static long inRange(CqlType type, Term lit, String col, long min, long max) {
        BigInteger v = ((IntegerLit) lit).value();
        if (v.compareTo(BigInteger.valueOf(min)) < 0 || v.compareTo(BigInteger.valueOf(max)) > 0) {
            throw new CqlTypeException(col, type.cql(), lit.cql(),
                    "value " + v + " out of range for " + type.cql() + " column " + quoted(col));
        }
        return v.longValue();
    }

    private static float finiteFloat(CqlType type, Term lit, String col, float f) {
        if (Float.isInfinite(f)) {
            throw new CqlTypeException(col, type.cql(), lit.cql(),
                    "value " + lit.cql() + " out of range for " + type.cql() + " column " + quoted(col));
        }
        return f;
    }

    private static double finiteDouble(CqlType type, Term lit, String col, double d) {
        if (Double.isInfinite(d)) {
            throw new CqlTypeException(col, type.cql(), lit.cql(),
                    "value " + lit.cql() + " out of range for " + type.cql() + " column " + quoted(col));
        }
        return d;
    }

    private static BigDecimal decimal(CqlType type, DecimalLit d, String col) {
        try {
            return new BigDecimal(d.text());
        } catch (NumberFormatException | ArithmeticException e) {
            throw new CqlTypeException(col, type.cql(), d.cql(),
                    "value " + d.cql() + " out of range for " + type.cql() + " column " + quoted(col));
        }
    }

    private Object string(CqlType.Native type, StringLit lit, String col) {
        String s = lit.value();
        try {
            switch (type.kind()) {
                case TEXT:
                case VARCHAR:
                    return s;
                case ASCII:
                    for (int i = 0; i < s.length(); i++) {
                        if (s.charAt(i) > 127) {
                            throw new IllegalArgumentException("non-ASCII character at position " + i);
                        }
                    }
                    return s;
                case TIMESTAMP:
                    return TemporalLiterals.parseTimestamp(s);
                case DATE:
                    return TemporalLiterals.parseDate(s);
                case TIME:
                    return TemporalLiterals.parseTime(s);
                case INET:
                    return InetLiterals.parse(s);
                case DURATION:
                    return DurationLiterals.parse(s.trim());
                case UUID:
                    return parseUuid(s);
                case TIMEUUID:
                    return timeUuid(type, parseUuid(s), lit.cql(), col, "STRING");
                default:
                    throw constantMismatch("STRING", type, lit, col);
            }
        } catch (IllegalArgumentException e) {
            throw new CqlTypeException(col, type.cql(), lit.cql(), "Invalid STRING constant (" + lit.cql() + ") for "
                    + quoted(col) + " of type " + type.cql() + ": " + e.getMessage());
        }
    }

    private static UUID parseUuid(String s) {
        if (!UUID_TEXT.matcher(s).matches()) {
            throw new IllegalArgumentException("not a UUID");
        }
        return UUID.fromString(s);
    }

    private static UUID timeUuid(CqlType type, UUID u, String literal, String col, String constantKind) {
        if (!TimeUuids.isTimeUuid(u)) {
            throw new CqlTypeException(col, type.cql(), literal, "Invalid " + constantKind + " constant (" + literal
                    + ") for " + quoted(col) + " of type " + type.cql() + ": a timeuuid is a version 1 UUID, this is version "
                    + u.version());
        }
        return u;
    }

    // ---------------------------------------------------------------- bound Java values

    private static Object boundValue(BindMarker m, String col, List<Object> bound) {
        if (bound == null || m.index() >= bound.size()) {
            throw new CqlInvalidException("No value bound for marker ?" + m.index() + " (" + quoted(col) + "); "
                    + (bound == null ? 0 : bound.size()) + " values given");
        }
        return bound.get(m.index());
    }

    private static Object fromJava(CqlType type, Object v, String col) {
        if (v == null) {
            return null;
        }
        if (type instanceof CqlType.Native n) {
            Object out = scalarFromJava(n.kind(), v);
            if (out == null) {
                throw boundMismatch(type, v, col, n.kind().javaClass().getSimpleName());
            }
            if (n.kind() == Kind.ASCII && !((String) out).chars().allMatch(c -> c < 128)) {
                throw new CqlTypeException(col, type.cql(), describe(v), "Invalid bound value " + describe(v) + " for "
                        + quoted(col) + " of type ascii: non-ASCII character");
            }
            if (n.kind() == Kind.TIMEUUID && !TimeUuids.isTimeUuid((UUID) out)) {
                throw new CqlTypeException(col, type.cql(), describe(v), "Invalid bound value " + describe(v) + " for "
                        + quoted(col) + " of type timeuuid: not a version 1 UUID");
            }
            return out;
        }
        if (type instanceof CqlType.ListType l) {
            if (!(v instanceof List<?> list)) {
                throw boundMismatch(type, v, col, "List");
            }
            List<Object> out = new ArrayList<>();
            for (Object e : list) {
                out.add(boundElement(l.element(), e, "value(" + col + ")", col));
            }
            return List.copyOf(out);
        }
        if (type instanceof CqlType.SetType s) {
            if (!(v instanceof Set<?> set)) {
                throw boundMismatch(type, v, col, "Set");
            }
            Set<Object> out = new LinkedHashSet<>();
            for (Object e : set) {
                out.add(boundElement(s.element(), e, "value(" + col + ")", col));
            }
            return Collections.unmodifiableSet(out);
        }
        if (type instanceof CqlType.MapType m) {
            if (!(v instanceof Map<?, ?> map)) {
                throw boundMismatch(type, v, col, "Map");
            }
            Map<Object, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.put(boundElement(m.key(), e.getKey(), "key(" + col + ")", col),
                        boundElement(m.value(), e.getValue(), "value(" + col + ")", col));
            }
            return Collections.unmodifiableMap(out);
        }
        CqlType.UserType u = (CqlType.UserType) type;
        if (!(v instanceof Map<?, ?> map)) {
            throw boundMismatch(type, v, col, "Map<String,Object>");
        }
        for (Object key : map.keySet()) {
            if (!(key instanceof String name) || u.fields().stream().noneMatch(f -> f.name().equals(name))) {
                throw new CqlTypeException(col, type.cql(), describe(v), "Unknown field " + describe(key)
                        + " in bound value of user defined type " + type.cql() + " for " + quoted(col));
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (CqlType.Field f : u.fields()) {
            out.put(f.name(), fromJava(f.type(), map.get(f.name()), col + "." + f.name()));
        }
        return Collections.unmodifiableMap(out);
    }

    private static Object boundElement(CqlType type, Object v, String name, String col) {
        if (v == null) {
            throw new CqlTypeException(name, type.cql(), "null", "null is not supported inside collections ("
                    + quoted(col) + ")");
        }
        return fromJava(type, v, name);
    }

    /** The value in the type's Java class, widened if needed; null when the class does not fit. */
    private static Object scalarFromJava(Kind k, Object v) {
        switch (k) {
            case TINYINT:
                return v instanceof Byte ? v : null;
            case SMALLINT:
                return v instanceof Short || v instanceof Byte ? ((Number) v).shortValue() : null;
            case INT:
                return isIntegral(v, 3) ? ((Number) v).intValue() : null;
            case BIGINT:
            case COUNTER:
                return isIntegral(v, 4) ? ((Number) v).longValue() : null;
            case VARINT:
                if (v instanceof BigInteger) {
                    return v;
                }
                return isIntegral(v, 4) ? BigInteger.valueOf(((Number) v).longValue()) : null;
            case DECIMAL:
                if (v instanceof BigDecimal) {
                    return v;
                }
                if (v instanceof BigInteger b) {
                    return new BigDecimal(b);
                }
                if (isIntegral(v, 4)) {
                    return BigDecimal.valueOf(((Number) v).longValue());
                }
                if ((v instanceof Float || v instanceof Double) && Double.isFinite(((Number) v).doubleValue())) {
                    return new BigDecimal(v.toString());
                }
                return null;
            case FLOAT:
                if (v instanceof Float) {
                    return v;
                }
                return isIntegral(v, 2) ? ((Number) v).floatValue() : null;
            case DOUBLE:
                if (v instanceof Double) {
                    return v;
                }
                return v instanceof Float || isIntegral(v, 3) ? ((Number) v).doubleValue() : null;
            case TIMESTAMP:
                return v instanceof Instant i ? i.truncatedTo(ChronoUnit.MILLIS) : null;
            case BLOB:
                if (v instanceof byte[] bytes) {
                    return Blob.of(bytes);
                }
                return v instanceof Blob ? v : null;
            default:
                return k.javaClass().isInstance(v) ? v : null;
        }
    }

    /** Byte (1), Short (2), Integer (3) or Long (4), up to {@code widest}. */
    private static boolean isIntegral(Object v, int widest) {
        int rank = v instanceof Byte ? 1 : v instanceof Short ? 2 : v instanceof Integer ? 3 : v instanceof Long ? 4 : 99;
        return rank <= widest;
    }

    // ---------------------------------------------------------------- functions

    /** A function's result with the kind of value it is. */
    private record Evaluated(Kind kind, Object value) {
    }

    private Evaluated evaluate(FunctionCall f, String col, List<Object> bound) {
        String name = f.name();
        Instant now;
        switch (name) {
            case "now":
            case "currenttimeuuid":
                arity(f, 0);
                return new Evaluated(Kind.TIMEUUID, timeUuids.next());
            case "uuid":
                arity(f, 0);
                return new Evaluated(Kind.UUID, randomUuid());
            case "currenttimestamp":
                arity(f, 0);
                return new Evaluated(Kind.TIMESTAMP, timeUuids.clock().instant().truncatedTo(ChronoUnit.MILLIS));
            case "currentdate":
                arity(f, 0);
                now = timeUuids.clock().instant();
                return new Evaluated(Kind.DATE, LocalDate.ofInstant(now, ZoneOffset.UTC));
            case "currenttime":
                arity(f, 0);
                now = timeUuids.clock().instant();
                return new Evaluated(Kind.TIME, LocalTime.ofInstant(now, ZoneOffset.UTC));
            case "totimestamp":
            case "dateof": {
                Evaluated a = argument(f, col, bound, name.equals("dateof")
                        ? new Kind[] {Kind.TIMEUUID} : new Kind[] {Kind.TIMEUUID, Kind.DATE, Kind.TIMESTAMP});
                return new Evaluated(Kind.TIMESTAMP, a.value() == null ? null : asInstant(a));
            }
            case "todate": {
                Evaluated a = argument(f, col, bound, new Kind[] {Kind.TIMEUUID, Kind.TIMESTAMP, Kind.DATE});
                return new Evaluated(Kind.DATE, a.value() == null ? null : LocalDate.ofInstant(asInstant(a), ZoneOffset.UTC));
            }
            case "tounixtimestamp":
            case "unixtimestampof": {
                Evaluated a = argument(f, col, bound, name.equals("unixtimestampof")
                        ? new Kind[] {Kind.TIMEUUID} : new Kind[] {Kind.TIMEUUID, Kind.TIMESTAMP, Kind.DATE});
                return new Evaluated(Kind.BIGINT, a.value() == null ? null : asInstant(a).toEpochMilli());
            }
            case "mintimeuuid":
            case "maxtimeuuid": {
                Evaluated a = argument(f, col, bound, new Kind[] {Kind.TIMESTAMP});
                if (a.value() == null) {
                    return new Evaluated(Kind.TIMEUUID, null);
                }
                long millis = ((Instant) a.value()).toEpochMilli();
                return new Evaluated(Kind.TIMEUUID,
                        name.equals("mintimeuuid") ? TimeUuids.minTimeUuid(millis) : TimeUuids.maxTimeUuid(millis));
            }
            case "token":
                throw new CqlInvalidException("token(...) is not a value for " + quoted(col)
                        + "; use it on both sides of a WHERE relation");
            default:
                throw new CqlInvalidException("Unknown function '" + name + "' in " + f.cql() + " for " + quoted(col));
        }
    }

    private static Instant asInstant(Evaluated a) {
        return switch (a.kind()) {
            case TIMEUUID -> Instant.ofEpochMilli(TimeUuids.millis((UUID) a.value()));
            case DATE -> ((LocalDate) a.value()).atStartOfDay(ZoneOffset.UTC).toInstant();
            default -> (Instant) a.value();
        };
    }

    /** The single argument of {@code f}, as the first of {@code kinds} it can be read as. */
    private Evaluated argument(FunctionCall f, String col, List<Object> bound, Kind[] kinds) {
        arity(f, 1);
        Term arg = f.args().get(0);
        if (arg instanceof FunctionCall inner) {
            Evaluated e = evaluate(inner, col, bound);
            for (Kind k : kinds) {
                if (k == e.kind()) {
                    return e;
                }
            }
            throw new CqlTypeException(col, kinds[0].name().toLowerCase(Locale.ROOT), arg.cql(), "Type error: " + inner.cql()
                    + " (type " + e.kind().name().toLowerCase(Locale.ROOT) + ") is not a valid argument of system." + f.name());
        }
        CqlTypeException first = null;
        for (Kind k : kinds) {
            try {
                return new Evaluated(k, convert(CqlType.of(k), arg, col, bound));
            } catch (CqlTypeException e) {
                first = first == null ? e : first;
            }
        }
        throw new CqlTypeException(col, kinds[0].name().toLowerCase(Locale.ROOT), arg.cql(), "Invalid argument " + arg.cql()
                + " of function system." + f.name() + " for " + quoted(col) + ": " + first.getMessage());
    }

    private static void arity(FunctionCall f, int n) {
        if (f.args().size() != n) {
            throw new CqlInvalidException("Invalid number of arguments in call to function system." + f.name() + ": "
                    + n + " required but " + f.args().size() + " provided");
        }
    }

    private Object assignResult(CqlType type, Evaluated e, FunctionCall f, String col) {
        if (type instanceof CqlType.Native n
                && (n.kind() == e.kind() || (n.kind() == Kind.UUID && e.kind() == Kind.TIMEUUID))) {
            return e.value();
        }
        throw new CqlTypeException(col, type.cql(), f.cql(), "Type error: cannot assign result of function system."
                + f.name() + " (type " + e.kind().name().toLowerCase(Locale.ROOT) + ") to " + quoted(col) + " of type " + type.cql());
    }

    private UUID randomUuid() {
        long msb = (random.nextLong() & ~0xF000L) | 0x4000L;
        long lsb = (random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(msb, lsb);
    }

    // ---------------------------------------------------------------- messages

    private static CqlTypeException constantMismatch(String constantKind, CqlType type, Term term, String col) {
        return new CqlTypeException(col, type.cql(), term.cql(), "Invalid " + constantKind + " constant (" + term.cql()
                + ") for " + quoted(col) + " of type " + type.cql());
    }

    private static CqlTypeException literalMismatch(CqlType type, Term term, String col) {
        String what;
        if (term instanceof ListLit) {
            what = "list literal";
        } else if (term instanceof SetLit) {
            what = "set literal";
        } else if (term instanceof MapLit) {
            what = "map literal";
        } else if (term instanceof UdtLit) {
            what = "user type literal";
        } else if (term instanceof TupleLit) {
            what = "tuple literal";
        } else {
            return constantMismatch(constantKind(term), type, term, col);
        }
        return new CqlTypeException(col, type.cql(), term.cql(), "Invalid " + what + " " + term.cql() + " for "
                + quoted(col) + " of type " + type.cql());
    }

    /** How Cassandra names the kind of a constant in its messages. */
    private static String constantKind(Term term) {
        if (term instanceof StringLit) {
            return "STRING";
        }
        if (term instanceof IntegerLit) {
            return "INTEGER";
        }
        if (term instanceof DecimalLit || term instanceof FloatSpecial) {
            return "FLOAT";
        }
        if (term instanceof BooleanLit) {
            return "BOOLEAN";
        }
        if (term instanceof UuidLit) {
            return "UUID";
        }
        if (term instanceof BlobLit) {
            return "HEX";
        }
        return "DURATION";
    }

    private static CqlTypeException boundMismatch(CqlType type, Object v, String col, String expectedClass) {
        return new CqlTypeException(col, type.cql(), describe(v), "Invalid bound value " + describe(v) + " for "
                + quoted(col) + " of type " + type.cql() + ": expected " + expectedClass + ", got "
                + v.getClass().getSimpleName());
    }

    private static String describe(Object v) {
        if (v == null) {
            return "null";
        }
        String s = v instanceof Collection<?> || v instanceof Map<?, ?> ? v.getClass().getSimpleName() : String.valueOf(v);
        if (s.length() > 40) {
            s = s.substring(0, 40) + "...";
        }
        return "(" + (v instanceof String ? "'" + s + "'" : s) + ")";
    }

    private static String quoted(String name) {
        return "\"" + name + "\"";
    }
}
