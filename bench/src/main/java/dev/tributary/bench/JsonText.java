package dev.tributary.bench;

import com.google.gson.stream.JsonWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes the report's values as JSON: maps (in their iteration order), lists, strings, booleans,
 * whole numbers, and doubles (rounded to 3 decimals; NaN and infinities become null). Gson writes
 * the syntax; the rounding is the report's. Stateless.
 */
final class JsonText {
    private JsonText() {
    }

    static String of(Object value) {
        StringWriter out = new StringWriter();
        JsonWriter w = new JsonWriter(out);
        w.setHtmlSafe(false);
        w.setSerializeNulls(true);
        try {
            write(w, value);
            w.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.toString();
    }

    private static void write(JsonWriter w, Object value) throws IOException {
        if (value == null) {
            w.nullValue();
        } else if (value instanceof String s) {
            w.value(s);
        } else if (value instanceof Boolean b) {
            w.value(b);
        } else if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                w.nullValue();
            } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                w.value((long) d);
            } else {
                w.jsonValue(String.format(Locale.ROOT, "%.3f", d).replaceAll("0+$", "").replaceAll("\\.$", ""));
            }
        } else if (value instanceof Number n) {
            w.value(n.longValue());
        } else if (value instanceof Map<?, ?> m) {
            w.beginObject();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                write(w.name(String.valueOf(e.getKey())), e.getValue());
            }
            w.endObject();
        } else if (value instanceof List<?> l) {
            w.beginArray();
            for (Object e : l) {
                write(w, e);
            }
            w.endArray();
        } else {
            throw new IllegalArgumentException("no JSON form for " + value.getClass().getName());
        }
    }
}
