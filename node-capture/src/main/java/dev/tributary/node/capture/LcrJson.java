package dev.tributary.node.capture;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import dev.tributary.capture.lcr.DdlLcr;
import dev.tributary.capture.lcr.LcrColumn;
import dev.tributary.capture.lcr.RowLcr;
import dev.tributary.capture.log.LogRecord;
import dev.tributary.dictionary.types.CqlDuration;
import dev.tributary.dictionary.types.CqlType.Kind;
import java.net.InetAddress;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/** The JSON form of an LCR (docs/REFERENCE.md, "JSON forms"). The forms are ours; Gson writes the syntax. */
public final class LcrJson {
    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSSSSS");
    /** Text as it is ('<', '>', '&' and '=' unescaped), and null fields written. */
    private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().serializeNulls().create();

    private LcrJson() {
    }

    public static String of(LogRecord r) {
        JsonObject o = new JsonObject();
        if (r.lcr() instanceof RowLcr row) {
            o.addProperty("lcr", "ROW");
            common(o, row.sourceDatabaseName(), row.commandType(), row.objectOwner(), row.objectName(), row.tag(),
                    row.transactionId(), row.scn());
            o.addProperty("commit_scn", row.commitScn());
            o.add("old_values", columns(row.oldValues()));
            o.add("new_values", columns(row.newValues()));
            position(o, r);
            o.add("extra", columns(row.extra()));
        } else {
            DdlLcr d = (DdlLcr) r.lcr();
            o.addProperty("lcr", "DDL");
            common(o, d.sourceDatabaseName(), d.commandType(), d.objectOwner(), d.objectName(), d.tag(), d.transactionId(),
                    d.scn());
            o.addProperty("object_type", d.objectType());
            o.addProperty("ddl_text", d.ddlText());
            o.addProperty("logon_user", d.logonUser());
            o.addProperty("current_schema", d.currentSchema());
            o.addProperty("base_table_owner", d.baseTableOwner());
            o.addProperty("base_table_name", d.baseTableName());
            position(o, r);
            o.add("extra", columns(d.extra()));
        }
        return GSON.toJson(o);
    }

    /** A value as JSON (collections and user types as arrays and objects), as in an LCR's JSON. */
    public static String valueJson(Object v) {
        return GSON.toJson(element(v));
    }

    private static void common(JsonObject o, String db, String command, String owner, String name, byte[] tag, String tx,
            long scn) {
        o.addProperty("source_database_name", db);
        o.addProperty("command_type", command);
        o.addProperty("object_owner", owner);
        o.addProperty("object_name", name);
        o.addProperty("tag", tag == null ? null : "0x" + HexFormat.of().formatHex(tag));
        o.addProperty("transaction_id", tx);
        o.addProperty("scn", scn);
    }

    private static void position(JsonObject o, LogRecord r) {
        o.addProperty("stream_id", "0x" + HexFormat.of().formatHex(r.position().stream().toBytes()));
        o.addProperty("time", r.position().time().toString());
        o.addProperty("batch_seq_no", r.position().batchSeqNo());
        o.addProperty("end_of_batch", r.endOfBatch());
    }

    private static JsonElement columns(List<LcrColumn> cols) {
        if (cols == null) {
            return JsonNull.INSTANCE;
        }
        JsonObject o = new JsonObject();
        for (LcrColumn c : cols) {
            o.add(c.name(), element(c.value()));
        }
        return o;
    }

    private static JsonElement element(Object v) {
        String text = stringForm(v);
        if (text != null) {
            return new JsonPrimitive(text);
        } else if (v == null) {
            return JsonNull.INSTANCE;
        } else if (v instanceof Boolean b) {
            return new JsonPrimitive(b);
        } else if (v instanceof Number n) { // the integers, and floats JSON can hold
            return new JsonPrimitive(n);
        } else if (v instanceof Map<?, ?> m) {
            JsonObject o = new JsonObject();
            m.forEach((k, e) -> {
                String key = stringForm(k);
                o.add(key != null ? key : valueJson(k), element(e));
            });
            return o;
        }
        JsonArray a = new JsonArray();
        for (Object e : (Collection<?>) v) {
            a.add(element(e));
        }
        return a;
    }

    /** The content of the JSON string a value is written as; null for null, numbers, booleans, maps and lists. */
    private static String stringForm(Object v) {
        if (v == null || v instanceof Map<?, ?> || v instanceof Collection<?>) {
            return null;
        }
        return switch (Kind.of(v).orElse(Kind.TEXT)) { // anything else by its toString
            case TINYINT, SMALLINT, INT, BIGINT, COUNTER, BOOLEAN -> null;
            case FLOAT, DOUBLE -> {
                double d = ((Number) v).doubleValue();
                yield Double.isNaN(d) || Double.isInfinite(d) ? v.toString() : null; // JSON has no NaN or Infinity
            }
            case TIMESTAMP -> TS.format((Instant) v);
            case TIME -> TIME.format((LocalTime) v);
            case INET -> ((InetAddress) v).getHostAddress();
            case DURATION -> {
                CqlDuration d = (CqlDuration) v;
                yield d.months() + "mo" + d.days() + "d" + d.nanos() + "ns";
            }
            default -> v.toString(); // text, varint, decimal, date, blob (0x...), uuid
        };
    }
}
