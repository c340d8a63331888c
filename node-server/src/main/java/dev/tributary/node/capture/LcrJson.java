package dev.tributary.node.capture;

import com.google.gson.stream.JsonWriter;
import dev.tributary.capture.lcr.DdlLcr;
import dev.tributary.capture.lcr.LcrColumn;
import dev.tributary.capture.lcr.RowLcr;
import dev.tributary.capture.log.LogRecord;
import dev.tributary.dictionary.types.CqlDuration;
import dev.tributary.dictionary.types.CqlType.Kind;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The JSON form of an LCR (INTERFACE.md section 5), with values as in section 2. The forms are
 * ours; Gson writes the syntax.
 */
public final class LcrJson {
    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSSSSS");

    private LcrJson() {
    }

    public static String of(LogRecord r) {
        return text(w -> {
            w.beginObject();
            if (r.lcr() instanceof RowLcr row) {
                w.name("lcr").value("ROW");
                common(w, row.sourceDatabaseName(), row.commandType(), row.objectOwner(), row.objectName(), row.tag(),
                        row.transactionId(), row.scn());
                w.name("commit_scn").value(row.commitScn());
                columns(w.name("old_values"), row.oldValues());
                columns(w.name("new_values"), row.newValues());
                position(w, r);
                columns(w.name("extra"), row.extra());
            } else {
                DdlLcr d = (DdlLcr) r.lcr();
                w.name("lcr").value("DDL");
                common(w, d.sourceDatabaseName(), d.commandType(), d.objectOwner(), d.objectName(), d.tag(), d.transactionId(),
                        d.scn());
                w.name("object_type").value(d.objectType());
                w.name("ddl_text").value(d.ddlText());
                w.name("logon_user").value(d.logonUser());
                w.name("current_schema").value(d.currentSchema());
                w.name("base_table_owner").value(d.baseTableOwner());
                w.name("base_table_name").value(d.baseTableName());
                position(w, r);
                columns(w.name("extra"), d.extra());
            }
            w.endObject();
        });
    }

    /** A value as JSON (collections and user types as arrays and objects), as in an LCR's JSON. */
    public static String valueJson(Object v) {
        return text(w -> value(w, v));
    }

    private interface Writing {
        void to(JsonWriter w) throws IOException;
    }

    private static String text(Writing writing) {
        StringWriter out = new StringWriter();
        JsonWriter w = new JsonWriter(out);
        w.setHtmlSafe(false);
        w.setSerializeNulls(true);
        try {
            writing.to(w);
            w.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.toString();
    }

    private static void common(JsonWriter w, String db, String command, String owner, String name, byte[] tag, String tx,
            long scn) throws IOException {
        w.name("source_database_name").value(db);
        w.name("command_type").value(command);
        w.name("object_owner").value(owner);
        w.name("object_name").value(name);
        w.name("tag").value(tag == null ? null : "0x" + HexFormat.of().formatHex(tag));
        w.name("transaction_id").value(tx);
        w.name("scn").value(scn);
    }

    private static void position(JsonWriter w, LogRecord r) throws IOException {
        w.name("stream_id").value("0x" + HexFormat.of().formatHex(r.position().stream().toBytes()));
        w.name("time").value(r.position().time().toString());
        w.name("batch_seq_no").value(r.position().batchSeqNo());
        w.name("end_of_batch").value(r.endOfBatch());
    }

    private static void columns(JsonWriter w, List<LcrColumn> cols) throws IOException {
        if (cols == null) {
            w.nullValue();
            return;
        }
        w.beginObject();
        for (LcrColumn c : cols) {
            value(w.name(c.name()), c.value());
        }
        w.endObject();
    }

    private static void value(JsonWriter w, Object v) throws IOException {
        String text = stringForm(v);
        if (text != null) {
            w.value(text);
        } else if (v == null) {
            w.nullValue();
        } else if (v instanceof Boolean b) {
            w.value(b);
        } else if (v instanceof Number n) { // the integers, and floats JSON can hold
            w.value(n);
        } else if (v instanceof Map<?, ?> m) {
            w.beginObject();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                String key = stringForm(e.getKey());
                value(w.name(key != null ? key : valueJson(e.getKey())), e.getValue());
            }
            w.endObject();
        } else {
            w.beginArray();
            for (Object o : (Collection<?>) v) {
                value(w, o);
            }
            w.endArray();
        }
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
