package dev.tributary.dictionary.schema;

import dev.tributary.dictionary.errors.InvalidSchemaException;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A table's {@code cdc = {...}} options, as in ScyllaDB: whether changes go to the CDC log, and
 * what each log entry holds (preimage, postimage, full delta or only the keys) and keeps for how
 * long. Immutable.
 *
 * @param ttlSeconds how long log rows live; 0 means forever
 */
public record CdcOptions(boolean enabled, Preimage preimage, boolean postimage, Delta delta, int ttlSeconds) {
    /** ScyllaDB's default log TTL: 24 hours. */
    public static final int DEFAULT_TTL_SECONDS = 86_400;
    public static final Preimage DEFAULT_PREIMAGE = Preimage.OFF;
    public static final boolean DEFAULT_POSTIMAGE = false;
    public static final Delta DEFAULT_DELTA = Delta.FULL;

    /** CDC off, every other option at its default. */
    public static final CdcOptions DISABLED =
            new CdcOptions(false, DEFAULT_PREIMAGE, DEFAULT_POSTIMAGE, DEFAULT_DELTA, DEFAULT_TTL_SECONDS);

    /** The row image before the change: none, the changed columns, or the whole row. */
    public enum Preimage {
        OFF("false"), ON("true"), FULL("full");

        private final String option;

        Preimage(String option) {
            this.option = option;
        }

        /** The value as written in the {@code preimage} option. */
        public String option() {
            return option;
        }
    }

    /** What the delta row holds: every written column, or only the primary key. */
    public enum Delta {
        FULL, KEYS;

        public String option() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public CdcOptions {
        Objects.requireNonNull(preimage, "preimage");
        Objects.requireNonNull(delta, "delta");
        if (ttlSeconds < 0) {
            throw new InvalidSchemaException("invalid cdc option 'ttl': " + ttlSeconds + " is negative");
        }
    }

    /** CDC on, every other option at its default. */
    public static CdcOptions enabledWithDefaults() {
        return DISABLED.withEnabled(true);
    }

    public CdcOptions withEnabled(boolean on) {
        return new CdcOptions(on, preimage, postimage, delta, ttlSeconds);
    }

    /**
     * Reads the options of a {@code cdc = {...}} map as a parser gives them: keys are option names,
     * values are {@code String}, {@code Boolean} or {@code Number}. Options not given take their
     * defaults ({@code enabled} false).
     * <ul>
     * <li>{@code enabled}, {@code postimage}: true/false or 'true'/'false';</li>
     * <li>{@code preimage}: false/true or 'false'/'true'/'full';</li>
     * <li>{@code delta}: 'full' or 'keys';</li>
     * <li>{@code ttl}: a non-negative number of seconds, or its digits as a string.</li>
     * </ul>
     *
     * @throws InvalidSchemaException for an unknown option or a bad value, naming the option
     */
    public static CdcOptions fromOptions(Map<String, Object> opts) {
        boolean enabled = false;
        Preimage preimage = DEFAULT_PREIMAGE;
        boolean postimage = DEFAULT_POSTIMAGE;
        Delta delta = DEFAULT_DELTA;
        int ttl = DEFAULT_TTL_SECONDS;
        for (Map.Entry<String, Object> e : opts.entrySet()) {
            String key = e.getKey() == null ? "null" : e.getKey().toLowerCase(Locale.ROOT);
            Object v = e.getValue();
            switch (key) {
                case "enabled":
                    enabled = bool(key, v);
                    break;
                case "postimage":
                    postimage = bool(key, v);
                    break;
                case "preimage":
                    preimage = preimage(v);
                    break;
                case "delta":
                    delta = delta(v);
                    break;
                case "ttl":
                    ttl = ttl(v);
                    break;
                default:
                    throw new InvalidSchemaException("unknown cdc option '" + e.getKey()
                            + "'; known options are enabled, preimage, postimage, delta, ttl");
            }
        }
        return new CdcOptions(enabled, preimage, postimage, delta, ttl);
    }

    /** The options as strings, for display ({@code DESCRIBE}, system views), keys sorted. */
    public Map<String, String> toOptions() {
        TreeMap<String, String> m = new TreeMap<>();
        m.put("delta", delta.option());
        m.put("enabled", Boolean.toString(enabled));
        m.put("postimage", Boolean.toString(postimage));
        m.put("preimage", preimage.option());
        m.put("ttl", Integer.toString(ttlSeconds));
        return Collections.unmodifiableMap(m);
    }

    private static InvalidSchemaException bad(String option, Object v, String expected) {
        return new InvalidSchemaException("invalid value " + render(v) + " for cdc option '" + option + "': expected "
                + expected);
    }

    private static String render(Object v) {
        return v instanceof String ? "'" + v + "'" : String.valueOf(v);
    }

    private static boolean bool(String option, Object v) {
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof String s) {
            if (s.equalsIgnoreCase("true")) {
                return true;
            }
            if (s.equalsIgnoreCase("false")) {
                return false;
            }
        }
        throw bad(option, v, "true or false");
    }

    private static Preimage preimage(Object v) {
        if (v instanceof Boolean b) {
            return b ? Preimage.ON : Preimage.OFF;
        }
        if (v instanceof String s) {
            for (Preimage p : Preimage.values()) {
                if (p.option().equalsIgnoreCase(s)) {
                    return p;
                }
            }
        }
        throw bad("preimage", v, "false, true or 'full'");
    }

    private static Delta delta(Object v) {
        if (v instanceof String s) {
            for (Delta d : Delta.values()) {
                if (d.option().equalsIgnoreCase(s)) {
                    return d;
                }
            }
        }
        throw bad("delta", v, "'full' or 'keys'");
    }

    private static int ttl(Object v) {
        long seconds;
        if (v instanceof Byte || v instanceof Short || v instanceof Integer || v instanceof Long) {
            seconds = ((Number) v).longValue();
        } else if (v instanceof java.math.BigInteger b && b.bitLength() < 32) {
            seconds = b.longValue();
        } else if (v instanceof String s && !s.isEmpty() && s.chars().allMatch(c -> c >= '0' && c <= '9')
                && s.length() <= 10) {
            seconds = Long.parseLong(s);
        } else {
            throw bad("ttl", v, "a whole number of seconds");
        }
        if (seconds < 0 || seconds > Integer.MAX_VALUE) {
            throw bad("ttl", v, "a number of seconds from 0 to " + Integer.MAX_VALUE);
        }
        return (int) seconds;
    }
}
