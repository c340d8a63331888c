package dev.tributary.client.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses JSON text (RFC 8259) into plain Java values: objects as ordered
 * {@code Map<String,Object>}, arrays as {@code List<Object>}, strings, {@code Long} for integers
 * that fit (else {@code BigInteger}), {@code BigDecimal} for other numbers, {@code Boolean} and
 * null. Tests check what Gson writes with it: a parser of its own, so that a writer bug is not read
 * back by the same library. Stateless and thread-safe.
 */
public final class JsonReader {
    private final String s;
    private int i;

    private JsonReader(String s) {
        this.s = s;
    }

    /**
     * Parses one JSON value; surrounding whitespace is allowed, anything else is not.
     *
     * @throws IllegalArgumentException naming the position and what was expected
     */
    public static Object parse(String text) {
        JsonReader r = new JsonReader(text);
        Object v = r.value();
        r.skipWhitespace();
        if (r.i != text.length()) {
            throw r.error("end of input");
        }
        return v;
    }

    private Object value() {
        skipWhitespace();
        if (i >= s.length()) {
            throw error("a value");
        }
        char c = s.charAt(i);
        switch (c) {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", null);
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return number();
                }
                throw error("a value");
        }
    }

    private Map<String, Object> object() {
        i++;
        Map<String, Object> out = new LinkedHashMap<>();
        skipWhitespace();
        if (peek() == '}') {
            i++;
            return Collections.unmodifiableMap(out);
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"') {
                throw error("an object key");
            }
            String key = string();
            skipWhitespace();
            expect(':');
            out.put(key, value());
            skipWhitespace();
            char c = peek();
            i++;
            if (c == '}') {
                return Collections.unmodifiableMap(out);
            }
            if (c != ',') {
                i--;
                throw error("',' or '}'");
            }
        }
    }

    private List<Object> array() {
        i++;
        List<Object> out = new ArrayList<>();
        skipWhitespace();
        if (peek() == ']') {
            i++;
            return Collections.unmodifiableList(out);
        }
        while (true) {
            out.add(value());
            skipWhitespace();
            char c = peek();
            i++;
            if (c == ']') {
                return Collections.unmodifiableList(out);
            }
            if (c != ',') {
                i--;
                throw error("',' or ']'");
            }
        }
    }

    private String string() {
        i++;
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (i >= s.length()) {
                throw error("closing '\"'");
            }
            char c = s.charAt(i++);
            if (c == '"') {
                return sb.toString();
            }
            if (c < 0x20) {
                i--;
                throw error("an escaped control character");
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            if (i >= s.length()) {
                throw error("an escape");
            }
            char e = s.charAt(i++);
            switch (e) {
                case '"':
                case '\\':
                case '/':
                    sb.append(e);
                    break;
                case 'b':
                    sb.append('\b');
                    break;
                case 'f':
                    sb.append('\f');
                    break;
                case 'n':
                    sb.append('\n');
                    break;
                case 'r':
                    sb.append('\r');
                    break;
                case 't':
                    sb.append('\t');
                    break;
                case 'u':
                    if (i + 4 > s.length()) {
                        throw error("four hex digits");
                    }
                    try {
                        sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    } catch (NumberFormatException ex) {
                        throw error("four hex digits");
                    }
                    i += 4;
                    break;
                default:
                    i--;
                    throw error("a valid escape");
            }
        }
    }

    private Object number() {
        int start = i;
        if (peek() == '-') {
            i++;
        }
        digits();
        boolean integral = true;
        if (peek() == '.') {
            integral = false;
            i++;
            digits();
        }
        if (peek() == 'e' || peek() == 'E') {
            integral = false;
            i++;
            if (peek() == '+' || peek() == '-') {
                i++;
            }
            digits();
        }
        String text = s.substring(start, i);
        if (integral) {
            BigInteger big = new BigInteger(text);
            return big.bitLength() < 64 ? (Object) big.longValue() : big;
        }
        return new BigDecimal(text);
    }

    private void digits() {
        int start = i;
        while (i < s.length() && Character.isDigit(s.charAt(i))) {
            i++;
        }
        if (start == i) {
            throw error("a digit");
        }
    }

    private Object literal(String word, Object value) {
        if (!s.startsWith(word, i)) {
            throw error("'" + word + "'");
        }
        i += word.length();
        return value;
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("'" + c + "'");
        }
        i++;
    }

    private char peek() {
        return i < s.length() ? s.charAt(i) : '\0';
    }

    private void skipWhitespace() {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t' || s.charAt(i) == '\n'
                || s.charAt(i) == '\r')) {
            i++;
        }
    }

    private IllegalArgumentException error(String expected) {
        return new IllegalArgumentException("invalid JSON at position " + i + ": expected " + expected);
    }
}
