package dev.tributary.client;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.stream.JsonWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
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
 * since JSON numbers cannot hold them. Output is compact (no spaces); Gson writes the syntax.
 * Stateless and thread-safe.
 */
public final class Json {
    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSSSSS");
    private static final HexFormat HEX = HexFormat.of();
    /** Section 2 keeps '<', '>', '&' and '=' as they are, and writes a null value. */
    private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().serializeNulls().create();

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
        sb.append(text(w -> value(w, value)));
    }

    /** Named values, written in the order given; a name given twice is written twice. */
    @FunctionalInterface
    public interface Fields {
        void field(String name, Object value);
    }

    /** A JSON object of the fields {@code body} gives, e.g. a row's columns or an LCR's attributes. */
    public static String object(java.util.function.Consumer<Fields> body) {
        return text(w -> {
            w.beginObject();
            body.accept((name, v) -> {
                try {
                    value(w.name(name), v);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            w.endObject();
        });
    }

    private interface Writing {
        void to(JsonWriter w) throws IOException;
    }

    private static String text(Writing writing) {
        StringWriter out = new StringWriter();
        try (JsonWriter w = GSON.newJsonWriter(out)) {
            writing.to(w);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.toString();
    }

    private static void value(JsonWriter w, Object value) throws IOException {
        String text = stringForm(value);
        if (text != null) {
            w.value(text);
        } else if (value == null) {
            w.nullValue();
        } else if (value instanceof Byte || value instanceof Short || value instanceof Integer || value instanceof Long) {
            w.value(((Number) value).longValue());
        } else if (value instanceof Boolean b) {
            w.value(b);
        } else if (value instanceof Float || value instanceof Double) {
            w.value((Number) value); // Java's E notation (1.0E10) is a valid JSON number
        } else if (value instanceof Collection<?> c) {
            w.beginArray();
            for (Object e : c) {
                value(w, e);
            }
            w.endArray();
        } else if (value instanceof Map<?, ?> m) {
            w.beginObject();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                value(w.name(key(e.getKey())), e.getValue());
            }
            w.endObject();
        } else {
            throw new IllegalArgumentException("no JSON form for " + value.getClass().getName());
        }
    }

    /**
     * A map key as a JSON object key: a value whose JSON form is a string gives that string
     * ({@code 0x0a}, a timestamp), any other gives its JSON text ({@code 1}, {@code [1,2]}).
     */
    private static String key(Object key) {
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
}
