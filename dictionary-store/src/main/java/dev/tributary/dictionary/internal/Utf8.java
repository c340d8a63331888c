package dev.tributary.dictionary.internal;

/**
 * UTF-8 helpers that work on {@code String} and {@code byte[]} directly, so the value codec can
 * size, write, validate and order text without an intermediate byte array. Stateless and
 * thread-safe.
 */
public final class Utf8 {
    private Utf8() {
    }

    /**
     * The UTF-8 length of {@code s}. An unpaired surrogate counts as one byte because, like
     * {@code String.getBytes(UTF_8)}, {@link #write} replaces it with {@code '?'}.
     */
    public static int encodedLength(String s) {
        int n = s.length();
        int len = n;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                continue;
            }
            if (c < 0x800) {
                len += 1;
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                len += 2; // 4 bytes for the two chars
                i++;
            } else if (Character.isSurrogate(c)) {
                continue;
            } else {
                len += 2;
            }
        }
        return len;
    }

    /** Writes {@code s} as UTF-8 at {@code offset}; returns the offset after it. */
    public static int write(String s, byte[] dest, int offset) {
        int n = s.length();
        int p = offset;
        int i = 0;
        // most text is ASCII: a tight loop without branches on the multi-byte cases
        while (i < n) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                break;
            }
            dest[p++] = (byte) c;
            i++;
        }
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                dest[p++] = (byte) c;
            } else if (c < 0x800) {
                dest[p++] = (byte) (0xC0 | (c >> 6));
                dest[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                    int cp = Character.toCodePoint(c, s.charAt(++i));
                    dest[p++] = (byte) (0xF0 | (cp >> 18));
                    dest[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                    dest[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                    dest[p++] = (byte) (0x80 | (cp & 0x3F));
                } else {
                    dest[p++] = '?';
                }
            } else {
                dest[p++] = (byte) (0xE0 | (c >> 12));
                dest[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                dest[p++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        return p;
    }

    /** True if {@code s} has no unpaired surrogate, i.e. it is a sequence of Unicode scalar values. */
    public static boolean isWellFormed(String s) {
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                } else {
                    return false;
                }
            }
        }
        return true;
    }

    /** True if every char of {@code s} is US-ASCII. */
    public static boolean isAscii(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /** True if every byte of the range is US-ASCII. */
    public static boolean isAscii(byte[] b, int offset, int length) {
        for (int i = offset, end = offset + length; i < end; i++) {
            if (b[i] < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * True if the range is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
     * above U+10FFFF, no truncated sequence).
     */
    public static boolean isValid(byte[] b, int offset, int length) {
        int i = offset;
        int end = offset + length;
        while (i < end) {
            int c = b[i];
            if (c >= 0) {
                i++;
                continue;
            }
            c &= 0xFF;
            if (c < 0xC2) {
                return false; // continuation byte first, or an overlong two-byte form
            }
            if (c < 0xE0) {
                if (i + 1 >= end || !cont(b[i + 1])) {
                    return false;
                }
                i += 2;
            } else if (c < 0xF0) {
                if (i + 2 >= end || !cont(b[i + 1]) || !cont(b[i + 2])) {
                    return false;
                }
                int b1 = b[i + 1] & 0xFF;
                if ((c == 0xE0 && b1 < 0xA0) || (c == 0xED && b1 >= 0xA0)) {
                    return false; // overlong, or a UTF-16 surrogate
                }
                i += 3;
            } else if (c < 0xF5) {
                if (i + 3 >= end || !cont(b[i + 1]) || !cont(b[i + 2]) || !cont(b[i + 3])) {
                    return false;
                }
                int b1 = b[i + 1] & 0xFF;
                if ((c == 0xF0 && b1 < 0x90) || (c == 0xF4 && b1 >= 0x90)) {
                    return false; // overlong, or above U+10FFFF
                }
                i += 4;
            } else {
                return false;
            }
        }
        return true;
    }

    private static boolean cont(byte b) {
        return (b & 0xC0) == 0x80;
    }

    /**
     * Compares two strings as their UTF-8 bytes compare unsigned (which is code point order),
     * without encoding them. {@code String.compareTo} differs: it orders UTF-16 units, putting
     * U+10000 and above before U+E000..U+FFFF.
     */
    public static int compare(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char ca = a.charAt(i);
            char cb = b.charAt(i);
            if (ca != cb) {
                // the strings agree up to i, so i is a code point boundary in both
                return Integer.compare(a.codePointAt(i), b.codePointAt(i));
            }
        }
        return Integer.compare(a.length(), b.length());
    }
}
