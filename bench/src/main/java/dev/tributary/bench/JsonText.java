package dev.tributary.bench;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes the report's values as JSON: maps (in their iteration order), lists, strings, booleans,
 * whole numbers, and doubles (rounded to 3 decimals; NaN and infinities become null). Gson writes
 * the syntax; the rounding is the report's. Stateless.
 */
final class JsonText {
    private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().serializeNulls().create();

    private JsonText() {
    }

    static String of(Object value) {
        return GSON.toJson(element(value));
    }

    private static JsonElement element(Object value) {
        if (value == null) {
            return JsonNull.INSTANCE;
        } else if (value instanceof String s) {
            return new JsonPrimitive(s);
        } else if (value instanceof Boolean b) {
            return new JsonPrimitive(b);
        } else if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                return JsonNull.INSTANCE;
            } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                return new JsonPrimitive((long) d);
            }
            String rounded = String.format(Locale.ROOT, "%.3f", d).replaceAll("0+$", "").replaceAll("\\.$", "");
            return new JsonPrimitive(new BigDecimal(rounded));
        } else if (value instanceof Number n) {
            return new JsonPrimitive(n.longValue());
        } else if (value instanceof Map<?, ?> m) {
            JsonObject o = new JsonObject();
            m.forEach((k, v) -> o.add(String.valueOf(k), element(v)));
            return o;
        } else if (value instanceof List<?> l) {
            JsonArray a = new JsonArray();
            l.forEach(e -> a.add(element(e)));
            return a;
        }
        throw new IllegalArgumentException("no JSON form for " + value.getClass().getName());
    }
}
