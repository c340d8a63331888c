package dev.tributary.node.capture;

import dev.tributary.capture.lcr.DdlLcr;
import dev.tributary.capture.lcr.LcrColumn;
import dev.tributary.capture.lcr.RowLcr;
import dev.tributary.capture.log.LogRecord;
import dev.tributary.dictionary.types.Blob;
import dev.tributary.dictionary.types.CqlDuration;
import java.net.InetAddress;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/** The JSON form of an LCR (docs/REFERENCE.md, "JSON forms"). */
public final class LcrJson {
    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSSSSS");

    private LcrJson() {
    }

    public static String of(LogRecord r) {
        StringBuilder b = new StringBuilder(256).append('{');
        if (r.lcr() instanceof RowLcr row) {
            field(b, "lcr", "ROW");
            common(b, row.sourceDatabaseName(), row.commandType(), row.objectOwner(), row.objectName(), row.tag(),
                    row.transactionId(), row.scn());
            b.append(",\"commit_scn\":").append(row.commitScn());
            b.append(",\"old_values\":");
            columns(b, row.oldValues());
            b.append(",\"new_values\":");
            columns(b, row.newValues());
            position(b, r);
            extra(b, row.extra());
        } else {
            DdlLcr d = (DdlLcr) r.lcr();
            field(b, "lcr", "DDL");
            common(b, d.sourceDatabaseName(), d.commandType(), d.objectOwner(), d.objectName(), d.tag(), d.transactionId(),
                    d.scn());
            b.append(',');
            field(b, "object_type", d.objectType());
            b.append(',');
            field(b, "ddl_text", d.ddlText());
            b.append(',');
            field(b, "logon_user", d.logonUser());
            b.append(',');
            field(b, "current_schema", d.currentSchema());
            b.append(',');
            field(b, "base_table_owner", d.baseTableOwner());
            b.append(',');
            field(b, "base_table_name", d.baseTableName());
            position(b, r);
            extra(b, d.extra());
        }
        return b.append('}').toString();
    }

    private static void common(StringBuilder b, String db, String command, String owner, String name, byte[] tag, String tx,
            long scn) {
        b.append(',');
        field(b, "source_database_name", db);
        b.append(',');
        field(b, "command_type", command);
        b.append(',');
        field(b, "object_owner", owner);
        b.append(',');
        field(b, "object_name", name);
        b.append(",\"tag\":");
        if (tag == null) {
            b.append("null");
        } else {
            string(b, "0x" + HexFormat.of().formatHex(tag));
        }
        b.append(',');
        field(b, "transaction_id", tx);
        b.append(",\"scn\":").append(scn);
    }

    private static void position(StringBuilder b, LogRecord r) {
        b.append(',');
        field(b, "stream_id", "0x" + HexFormat.of().formatHex(r.position().stream().toBytes()));
        b.append(',');
        field(b, "time", r.position().time().toString());
        b.append(",\"batch_seq_no\":").append(r.position().batchSeqNo());
        b.append(",\"end_of_batch\":").append(r.endOfBatch());
    }

    private static void extra(StringBuilder b, List<LcrColumn> extra) {
        b.append(",\"extra\":");
        columns(b, extra);
    }

    private static void field(StringBuilder b, String name, String value) {
        string(b, name);
        b.append(':');
        if (value == null) {
            b.append("null");
        } else {
            string(b, value);
        }
    }

    private static void columns(StringBuilder b, List<LcrColumn> cols) {
        if (cols == null) {
            b.append("null");
            return;
        }
        b.append('{');
        for (int i = 0; i < cols.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            string(b, cols.get(i).name());
            b.append(':');
            value(b, cols.get(i).value());
        }
        b.append('}');
    }

    /** A value as JSON (collections and user types as arrays and objects), as in an LCR's JSON. */
    public static String valueJson(Object v) {
        StringBuilder b = new StringBuilder();
        value(b, v);
        return b.toString();
    }

    static void value(StringBuilder b, Object v) {
        if (v == null) {
            b.append("null");
        } else if (v instanceof String s) {
            string(b, s);
        } else if (v instanceof Byte || v instanceof Short || v instanceof Integer || v instanceof Long || v instanceof Boolean) {
            b.append(v);
        } else if (v instanceof Float || v instanceof Double) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                string(b, v.toString()); // JSON has no NaN or Infinity
            } else {
                b.append(v);
            }
        } else if (v instanceof java.math.BigInteger || v instanceof java.math.BigDecimal) {
            string(b, v.toString());
        } else if (v instanceof Instant i) {
            string(b, TS.format(i));
        } else if (v instanceof LocalTime t) {
            string(b, TIME.format(t));
        } else if (v instanceof java.time.LocalDate d) {
            string(b, d.toString());
        } else if (v instanceof Blob bl) {
            string(b, bl.toString());
        } else if (v instanceof InetAddress a) {
            string(b, a.getHostAddress());
        } else if (v instanceof CqlDuration d) {
            string(b, d.months() + "mo" + d.days() + "d" + d.nanos() + "ns");
        } else if (v instanceof Map<?, ?> m) {
            b.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) {
                    b.append(',');
                }
                first = false;
                string(b, e.getKey() instanceof String s ? s : jsonKey(e.getKey()));
                b.append(':');
                value(b, e.getValue());
            }
            b.append('}');
        } else if (v instanceof Collection<?> c) {
            b.append('[');
            boolean first = true;
            for (Object o : c) {
                if (!first) {
                    b.append(',');
                }
                first = false;
                value(b, o);
            }
            b.append(']');
        } else {
            string(b, v.toString()); // uuid and timeuuid
        }
    }

    private static String jsonKey(Object k) {
        StringBuilder kb = new StringBuilder();
        value(kb, k);
        String s = kb.toString();
        return s.startsWith("\"") ? s.substring(1, s.length() - 1) : s;
    }

    static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
