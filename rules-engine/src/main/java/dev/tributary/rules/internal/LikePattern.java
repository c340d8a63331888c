package dev.tributary.rules.internal;

/**
 * A compiled SQL LIKE pattern: {@code %} matches any sequence, {@code _} any one character, and
 * the optional escape character makes the next {@code %}, {@code _} or escape literal. Matching
 * is case-sensitive and linear-time-ish (greedy with one backtrack point, the classic wildcard
 * algorithm). Immutable and thread-safe.
 */
public final class LikePattern {
    private static final byte LITERAL = 0;
    private static final byte ONE = 1;
    private static final byte ANY = 2;

    private final char[] chars;
    private final byte[] kinds;
    private final int length;

    private LikePattern(char[] chars, byte[] kinds, int length) {
        this.chars = chars;
        this.kinds = kinds;
        this.length = length;
    }

    /**
     * Compiles a pattern.
     *
     * @param escape the escape character, or {@code null} for none
     * @throws IllegalArgumentException if the escape character is not followed by {@code %},
     *     {@code _} or itself, or the escape is not exactly one character
     */
    public static LikePattern compile(String pattern, String escape) {
        if (escape != null && escape.length() != 1) {
            throw new IllegalArgumentException("the ESCAPE character must be exactly one character, not '" + escape + "'");
        }
        char esc = escape == null ? 0 : escape.charAt(0);
        char[] chars = new char[pattern.length()];
        byte[] kinds = new byte[pattern.length()];
        int n = 0;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (escape != null && c == esc) {
                if (i + 1 >= pattern.length()) {
                    throw new IllegalArgumentException("LIKE pattern '" + pattern + "' ends with its escape character");
                }
                char next = pattern.charAt(++i);
                if (next != '%' && next != '_' && next != esc) {
                    throw new IllegalArgumentException("in LIKE pattern '" + pattern
                            + "' the escape character must be followed by %, _ or itself");
                }
                chars[n] = next;
                kinds[n++] = LITERAL;
            } else if (c == '%') {
                if (n > 0 && kinds[n - 1] == ANY) {
                    continue;
                }
                kinds[n++] = ANY;
            } else if (c == '_') {
                kinds[n++] = ONE;
            } else {
                chars[n] = c;
                kinds[n++] = LITERAL;
            }
        }
        return new LikePattern(chars, kinds, n);
    }

    public boolean matches(String s) {
        int si = 0;
        int pi = 0;
        int starP = -1;
        int starS = -1;
        while (si < s.length()) {
            if (pi < length && (kinds[pi] == ONE || (kinds[pi] == LITERAL && chars[pi] == s.charAt(si)))) {
                si++;
                pi++;
            } else if (pi < length && kinds[pi] == ANY) {
                starP = pi++;
                starS = si;
            } else if (starP >= 0) {
                pi = starP + 1;
                si = ++starS;
            } else {
                return false;
            }
        }
        while (pi < length && kinds[pi] == ANY) {
            pi++;
        }
        return pi == length;
    }
}
