package dev.tributary.client.internal;

import dev.tributary.client.CqlDuration;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Collection;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;

/**
 * Writes JSON text for values of the Java value model, as docs/REFERENCE.md, "JSON forms", fixes it:
 * text as strings, integers and floating-point numbers as numbers, varint/decimal as strings,
 * timestamps as {@code 2020-03-25T12:44:43.006Z}, dates {@code YYYY-MM-DD}, times
 * {@code HH:MM:SS.fffffffff}, blobs {@code 0x} + lowercase hex, UUIDs canonical, lists and sets
 * as arrays, maps and user types as objects (keys as JSON strings), NULL as null. Beyond the
 * section: durations and inet addresses are strings (the CQL literal and the textual address),
 * and NaN / infinite floats are the strings {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}
 * since JSON numbers cannot hold them. Output is compact (no spaces). Stateless and thread-safe.
 */
public final class Json {
    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSSSSS");
    private static final HexFormat HEX = HexFormat.of();

    private Json() {
    }

    /** The JSON text of one value. */
    public static String write(Object value) {
        StringBuilder sb = new StringBuilder();
        write(sb, value);
        return sb.toString();
    }

    /** Appends the JSON text of one value. */
    public static void write(StringBuilder sb, Object value) {
        String text = stringForm(value);
        if (text != null) {
            quote(sb, text);
        } else if (value == null) {
            sb.append("null");
        } else if (value instanceof Byte || value instanceof Short || value instanceof Integer
                || value instanceof Long || value instanceof Boolean) {
            sb.append(value);
        } else if (value instanceof Float f) {
            // Java's E notation (1.0E10) is a valid JSON number.
            sb.append(Float.toString(f));
        } else if (value instanceof Double d) {
            sb.append(Double.toString(d));
        } else if (value instanceof Collection<?> c) {
            sb.append('[');
            boolean first = true;
            for (Object e : c) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                write(sb, e);
            }
            sb.append(']');
        } else if (value instanceof Map<?, ?> m) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                quote(sb, key(e.getKey()));
                sb.append(':');
                write(sb, e.getValue());
            }
            sb.append('}');
        } else {
            throw new IllegalArgumentException("no JSON form for " + value.getClass().getName());
        }
    }

    /**
     * A map key as a JSON object key: a value whose JSON form is a string gives that string
     * ({@code 0x0a}, a timestamp), any other gives its JSON text ({@code 1}, {@code [1,2]}).
     */
    public static String key(Object key) {
        String text = stringForm(key);
        return text != null ? text : write(key);
    }

    /** The content of the JSON string a value is written as, or null if it is not written as one. */
    private static String stringForm(Object value) {
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof BigInteger || value instanceof BigDecimal || value instanceof CqlDuration
                || value instanceof UUID || value instanceof LocalDate) {
            return value.toString();
        }
        if (value instanceof Instant t) {
            return timestamp(t);
        }
        if (value instanceof LocalTime t) {
            return time(t);
        }
        if (value instanceof ByteBuffer b) {
            return hex(b);
        }
        if (value instanceof byte[] b) {
            return "0x" + HEX.formatHex(b);
        }
        if (value instanceof InetAddress a) {
            return a.getHostAddress();
        }
        if (value instanceof Float || value instanceof Double) {
            double d = ((Number) value).doubleValue();
            if (Double.isNaN(d)) {
                return "NaN";
            }
            if (Double.isInfinite(d)) {
                return d > 0 ? "Infinity" : "-Infinity";
            }
        }
        return null;
    }

    /** {@code 2020-03-25T12:44:43.006Z}: UTC, always three fraction digits. */
    public static String timestamp(Instant t) {
        return TIMESTAMP.format(t);
    }

    /** {@code HH:MM:SS.fffffffff}: always nine fraction digits. */
    public static String time(LocalTime t) {
        return TIME.format(t);
    }

    /** {@code 0x} + lowercase hex of the buffer's remaining bytes; the buffer is not moved. */
    public static String hex(ByteBuffer b) {
        ByteBuffer d = b.duplicate();
        byte[] bytes = new byte[d.remaining()];
        d.get(bytes);
        return "0x" + HEX.formatHex(bytes);
    }

    /** Appends a JSON string literal. */
    public static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"':
                    sb.append("\\\"");
                    break;
                case '\\':
                    sb.append("\\\\");
                    break;
                case '\n':
                    sb.append("\\n");
                    break;
                case '\r':
                    sb.append("\\r");
                    break;
                case '\t':
                    sb.append("\\t");
                    break;
                case '\b':
                    sb.append("\\b");
                    break;
                case '\f':
                    sb.append("\\f");
                    break;
                default:
                    // U+2028/2029 are valid in JSON but break JavaScript line parsing.
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        sb.append('"');
    }

    /** A JSON string literal. */
    public static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2);
        quote(sb, s);
        return sb.toString();
    }
}
