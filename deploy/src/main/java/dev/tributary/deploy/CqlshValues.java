package dev.tributary.deploy;

import dev.tributary.client.CqlDuration;
import dev.tributary.client.CqlTypeName;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Formats values for table output the way cqlsh does: timestamps
 * {@code 2020-03-25 12:44:43.006000+0000}, booleans {@code True}/{@code False}, floats with 5 and
 * doubles with 12 significant digits (cqlsh's default precisions, Python {@code %g}), blobs
 * {@code 0x...}, NULL as {@code null}, collections {@code [1, 2]}, {@code {'a', 'b'}},
 * {@code {'k': 1}}, user types {@code {street: 'Main'}}; text inside collections is quoted with
 * {@code '} (doubled inside), and control characters in text are shown escaped. Stateless.
 */
final class CqlshValues {
    static final int FLOAT_PRECISION = 5;
    static final int DOUBLE_PRECISION = 12;
    private static final double EPSILON = Math.ulp(1.0);
    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSSZ").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSSSSS");
    private static final HexFormat HEX = HexFormat.of();

    private CqlshValues() {
    }

    /** A column value; {@code type} (may be null) tells a user type from a map. */
    static String format(Object value, CqlTypeName type) {
        StringBuilder sb = new StringBuilder();
        format(sb, value, type, false);
        return sb.toString();
    }

    private static void format(StringBuilder sb, Object value, CqlTypeName type, boolean nested) {
        if (value == null) {
            sb.append("null");
        } else if (value instanceof String s) {
            if (nested) {
                sb.append('\'').append(escapeControls(s).replace("'", "''")).append('\'');
            } else {
                sb.append(escapeControls(s));
            }
        } else if (value instanceof Boolean b) {
            sb.append(b ? "True" : "False");
        } else if (value instanceof Float f) {
            sb.append(floating(f.doubleValue(), FLOAT_PRECISION));
        } else if (value instanceof Double d) {
            sb.append(floating(d, DOUBLE_PRECISION));
        } else if (value instanceof Byte || value instanceof Short || value instanceof Integer
                || value instanceof Long || value instanceof BigInteger || value instanceof BigDecimal
                || value instanceof UUID || value instanceof CqlDuration) {
            sb.append(value);
        } else if (value instanceof Instant t) {
            quoted(sb, TIMESTAMP.format(t), nested);
        } else if (value instanceof LocalDate d) {
            quoted(sb, d.toString(), nested);
        } else if (value instanceof LocalTime t) {
            quoted(sb, TIME.format(t), nested);
        } else if (value instanceof InetAddress a) {
            quoted(sb, a.getHostAddress(), nested);
        } else if (value instanceof ByteBuffer b) {
            ByteBuffer d = b.duplicate();
            byte[] bytes = new byte[d.remaining()];
            d.get(bytes);
            sb.append("0x").append(HEX.formatHex(bytes));
        } else if (value instanceof Set<?> set) {
            elements(sb, set, elementType(type), '{', '}');
        } else if (value instanceof List<?> list) {
            elements(sb, list, elementType(type), '[', ']');
        } else if (value instanceof Map<?, ?> map) {
            if (type instanceof CqlTypeName.UserDefined) {
                fields(sb, map);
            } else {
                entries(sb, map, type instanceof CqlTypeName.MapOf m ? m : null);
            }
        } else {
            sb.append(value);
        }
    }

    private static void quoted(StringBuilder sb, String text, boolean nested) {
        if (nested) {
            sb.append('\'').append(text).append('\'');
        } else {
            sb.append(text);
        }
    }

    private static CqlTypeName elementType(CqlTypeName type) {
        if (type instanceof CqlTypeName.ListOf l) {
            return l.element();
        }
        if (type instanceof CqlTypeName.SetOf s) {
            return s.element();
        }
        return null;
    }

    private static void elements(StringBuilder sb, Collection<?> items, CqlTypeName element, char open, char close) {
        sb.append(open);
        boolean first = true;
        for (Object e : items) {
            if (!first) {
                sb.append(", ");
            }
            first = false;
            format(sb, e, element, true);
        }
        sb.append(close);
    }

    private static void entries(StringBuilder sb, Map<?, ?> map, CqlTypeName.MapOf type) {
        sb.append('{');
        boolean first = true;
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (!first) {
                sb.append(", ");
            }
            first = false;
            format(sb, e.getKey(), type == null ? null : type.key(), true);
            sb.append(": ");
            format(sb, e.getValue(), type == null ? null : type.value(), true);
        }
        sb.append('}');
    }

    private static void fields(StringBuilder sb, Map<?, ?> fields) {
        sb.append('{');
        boolean first = true;
        for (Map.Entry<?, ?> e : fields.entrySet()) {
            if (!first) {
                sb.append(", ");
            }
            first = false;
            sb.append(e.getKey()).append(": ");
            // Field types travel with the value, not the column type; go by the Java class.
            format(sb, e.getValue(), null, true);
        }
        sb.append('}');
    }

    /** Control characters as cqlsh shows them: \n, \t, \r, other ones as \xNN. */
    static String escapeControls(String s) {
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != 0x7f) {
                if (sb != null) {
                    sb.append(c);
                }
                continue;
            }
            if (sb == null) {
                sb = new StringBuilder(s.length() + 8).append(s, 0, i);
            }
            switch (c) {
                case '\n':
                    sb.append("\\n");
                    break;
                case '\t':
                    sb.append("\\t");
                    break;
                case '\r':
                    sb.append("\\r");
                    break;
                default:
                    sb.append(String.format("\\x%02x", (int) c));
            }
        }
        return sb == null ? s : sb.toString();
    }

    /**
     * cqlsh's {@code format_floating_point_type}: NaN and infinities by name; otherwise Python
     * {@code '%.*g'} with the precision raised by the digits before the point when the value
     * would print without an exponent.
     */
    static String floating(double v, int precision) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "Infinity" : "-Infinity";
        }
        int p = precision;
        double abs = Math.abs(v);
        if (abs > EPSILON) {
            // Python int() truncates toward zero, as the cast does.
            int exponent = (int) Math.log10(abs);
            if (exponent >= -4 && exponent < p) {
                p = p + exponent + 1;
            }
        }
        return percentG(v, p);
    }

    /** Python's {@code '%.<p>g' % v} for a finite double. */
    static String percentG(double v, int precision) {
        int p = Math.max(precision, 1);
        if (v == 0) {
            return (1 / v < 0) ? "-0" : "0";
        }
        BigDecimal rounded = new BigDecimal(v).round(new MathContext(p, RoundingMode.HALF_EVEN));
        int exponent = rounded.precision() - rounded.scale() - 1;
        if (exponent < -4 || exponent >= p) {
            BigDecimal mantissa = rounded.movePointLeft(exponent).setScale(p - 1, RoundingMode.HALF_EVEN);
            int e = Math.abs(exponent);
            return stripZeros(mantissa.toPlainString()) + "e" + (exponent < 0 ? "-" : "+") + (e < 10 ? "0" : "") + e;
        }
        return stripZeros(rounded.setScale(Math.max(p - 1 - exponent, 0), RoundingMode.HALF_EVEN).toPlainString());
    }

    private static String stripZeros(String s) {
        if (s.indexOf('.') < 0) {
            return s;
        }
        int end = s.length();
        while (s.charAt(end - 1) == '0') {
            end--;
        }
        if (s.charAt(end - 1) == '.') {
            end--;
        }
        return s.substring(0, end);
    }
}
