package dev.tributary.cql.lexer;

import dev.tributary.cql.errors.CqlSyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Splits statement text into {@link Token}s, on demand: {@link #next()} reads just one token, so a
 * script can be executed statement by statement and a bad character late in it is reported only
 * when it is reached. Whitespace and comments (line comments starting with {@code --} or
 * {@code //}, and block comments) are skipped. After the input ends, every call returns an
 * {@link TokenKind#EOF} token.
 *
 * <p>Words are ASCII letters, digits and {@code _}; a word that is a whole ISO-8601 duration
 * ({@code P1D}, {@code PT2H}) is a duration, so such a name must be double-quoted. Not thread-safe
 * (it is a cursor); cheap to create.
 */
public final class CqlLexer {
    private final String s;
    private int pos;
    private int line = 1;
    private int column = 1;

    public CqlLexer(String input) {
        this.s = Objects.requireNonNull(input, "input");
    }

    /** All tokens of {@code input}, ending with the EOF token. */
    public static List<Token> tokenize(String input) {
        CqlLexer lexer = new CqlLexer(input);
        List<Token> out = new ArrayList<>();
        Token t;
        do {
            t = lexer.next();
            out.add(t);
        } while (t.kind() != TokenKind.EOF);
        return out;
    }

    /**
     * @throws CqlSyntaxException for a character that starts no token, an unterminated string,
     *                            quoted name or comment, an odd-length blob or a malformed duration
     */
    public Token next() {
        skipSpaceAndComments();
        int startLine = line;
        int startColumn = column;
        int start = pos;
        if (pos >= s.length()) {
            return new Token(TokenKind.EOF, "", "", startLine, startColumn, start);
        }
        char c = s.charAt(pos);
        if (isHexDigit(c) && uuidAt(pos)) {
            bump(36);
            return make(TokenKind.UUID, s.substring(start, pos).toLowerCase(Locale.ROOT), start, startLine, startColumn);
        }
        if (isLetter(c)) {
            return word(start, startLine, startColumn);
        }
        if (isDigit(c)) {
            return number(start, startLine, startColumn);
        }
        switch (c) {
            case '\'':
                return quotedString(start, startLine, startColumn);
            case '"':
                return quotedName(start, startLine, startColumn);
            case '$':
                if (s.startsWith("$$", pos)) {
                    return dollarString(start, startLine, startColumn);
                }
                break;
            case '=':
                if (s.startsWith("=>", pos)) {
                    return punct(TokenKind.ARROW, 2, start, startLine, startColumn);
                }
                return punct(TokenKind.EQ, 1, start, startLine, startColumn);
            case '!':
                if (s.startsWith("!=", pos)) {
                    return punct(TokenKind.NEQ, 2, start, startLine, startColumn);
                }
                break;
            case '<':
                if (s.startsWith("<=", pos)) {
                    return punct(TokenKind.LTE, 2, start, startLine, startColumn);
                }
                return punct(TokenKind.LT, 1, start, startLine, startColumn);
            case '>':
                if (s.startsWith(">=", pos)) {
                    return punct(TokenKind.GTE, 2, start, startLine, startColumn);
                }
                return punct(TokenKind.GT, 1, start, startLine, startColumn);
            case '+':
                return punct(TokenKind.PLUS, 1, start, startLine, startColumn);
            case '-':
                return punct(TokenKind.MINUS, 1, start, startLine, startColumn);
            case '*':
                return punct(TokenKind.STAR, 1, start, startLine, startColumn);
            case '?':
                return punct(TokenKind.QMARK, 1, start, startLine, startColumn);
            case '(':
                return punct(TokenKind.LPAREN, 1, start, startLine, startColumn);
            case ')':
                return punct(TokenKind.RPAREN, 1, start, startLine, startColumn);
            case '[':
                return punct(TokenKind.LBRACKET, 1, start, startLine, startColumn);
            case ']':
                return punct(TokenKind.RBRACKET, 1, start, startLine, startColumn);
            case '{':
                return punct(TokenKind.LBRACE, 1, start, startLine, startColumn);
            case '}':
                return punct(TokenKind.RBRACE, 1, start, startLine, startColumn);
            case ',':
                return punct(TokenKind.COMMA, 1, start, startLine, startColumn);
            case ';':
                return punct(TokenKind.SEMICOLON, 1, start, startLine, startColumn);
            case '.':
                return punct(TokenKind.DOT, 1, start, startLine, startColumn);
            case ':':
                return punct(TokenKind.COLON, 1, start, startLine, startColumn);
            default:
                break;
        }
        int cp = s.codePointAt(pos);
        throw new CqlSyntaxException(startLine, startColumn, new String(Character.toChars(cp)), "a CQL token");
    }

    private Token word(int start, int startLine, int startColumn) {
        int altIso = DurationLiterals.alternativeIsoLength(s, pos);
        if (altIso > 0 && !isIdentChar(charAt(pos + altIso))) {
            bump(altIso);
            return make(TokenKind.DURATION, s.substring(start, pos), start, startLine, startColumn);
        }
        while (pos < s.length() && isIdentChar(s.charAt(pos))) {
            bump(1);
        }
        String image = s.substring(start, pos);
        String lower = image.toLowerCase(Locale.ROOT);
        if ((lower.charAt(0) == 'p') && DurationLiterals.isIsoDuration(image)) {
            return checkedDuration(image, start, startLine, startColumn);
        }
        switch (lower) {
            case "true":
            case "false":
                return make(TokenKind.BOOLEAN, lower, start, startLine, startColumn);
            case "nan":
            case "infinity":
                return make(TokenKind.FLOAT, lower, start, startLine, startColumn);
            default:
                break;
        }
        TokenKind kind = Identifiers.RESERVED.contains(lower) ? TokenKind.KEYWORD : TokenKind.IDENT;
        return make(kind, lower, start, startLine, startColumn);
    }

    private Token number(int start, int startLine, int startColumn) {
        if (s.charAt(pos) == '0' && (charAt(pos + 1) == 'x' || charAt(pos + 1) == 'X')) {
            return hexBlob(start, startLine, startColumn);
        }
        skipDigits();
        TokenKind kind = TokenKind.INTEGER;
        if (charAt(pos) == '.') {
            bump(1);
            skipDigits();
            skipExponent();
            kind = TokenKind.FLOAT;
        } else if (exponentAt(pos)) {
            skipExponent();
            kind = TokenKind.FLOAT;
        } else if (isLetter(charAt(pos)) || charAt(pos) == 'µ') {
            return unitDuration(start, startLine, startColumn);
        }
        if (isIdentChar(charAt(pos))) {
            throw badWord(start, startLine, startColumn, "a number");
        }
        String image = s.substring(start, pos);
        return make(kind, image, start, startLine, startColumn);
    }

    private Token unitDuration(int start, int startLine, int startColumn) {
        while (pos < s.length() && (isIdentChar(s.charAt(pos)) || s.charAt(pos) == 'µ')) {
            bump(1);
        }
        return checkedDuration(s.substring(start, pos), start, startLine, startColumn);
    }

    private Token checkedDuration(String image, int start, int startLine, int startColumn) {
        try {
            DurationLiterals.parse(image);
        } catch (IllegalArgumentException e) {
            throw new CqlSyntaxException(startLine, startColumn, image, "a number or duration", e.getMessage());
        }
        return make(TokenKind.DURATION, image, start, startLine, startColumn);
    }

    private Token hexBlob(int start, int startLine, int startColumn) {
        bump(2);
        int digitsStart = pos;
        while (pos < s.length() && isHexDigit(s.charAt(pos))) {
            bump(1);
        }
        if (isIdentChar(charAt(pos))) {
            throw badWord(start, startLine, startColumn, "a blob (0x and hex digits)");
        }
        String digits = s.substring(digitsStart, pos);
        if (digits.length() % 2 != 0) {
            throw new CqlSyntaxException(startLine, startColumn, s.substring(start, pos),
                    "a blob with an even number of hex digits");
        }
        return make(TokenKind.HEX_BLOB, digits.toLowerCase(Locale.ROOT), start, startLine, startColumn);
    }

    private CqlSyntaxException badWord(int start, int startLine, int startColumn, String expected) {
        while (pos < s.length() && (isIdentChar(s.charAt(pos)) || s.charAt(pos) == '.')) {
            bump(1);
        }
        return new CqlSyntaxException(startLine, startColumn, s.substring(start, pos), expected);
    }

    private Token quotedString(int start, int startLine, int startColumn) {
        bump(1);
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= s.length()) {
                throw new CqlSyntaxException(startLine, startColumn, s.substring(start), "a closing ' for this string");
            }
            char c = s.charAt(pos);
            if (c == '\'') {
                if (charAt(pos + 1) == '\'') {
                    sb.append('\'');
                    bump(2);
                    continue;
                }
                bump(1);
                return make(TokenKind.STRING, sb.toString(), start, startLine, startColumn);
            }
            sb.append(c);
            bump(1);
        }
    }

    private Token dollarString(int start, int startLine, int startColumn) {
        int close = s.indexOf("$$", pos + 2);
        if (close < 0) {
            throw new CqlSyntaxException(startLine, startColumn, s.substring(start), "a closing $$ for this string");
        }
        String content = s.substring(pos + 2, close);
        bump(close + 2 - pos);
        return make(TokenKind.STRING, content, start, startLine, startColumn);
    }

    private Token quotedName(int start, int startLine, int startColumn) {
        bump(1);
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= s.length()) {
                throw new CqlSyntaxException(startLine, startColumn, s.substring(start), "a closing \" for this name");
            }
            char c = s.charAt(pos);
            if (c == '"') {
                if (charAt(pos + 1) == '"') {
                    sb.append('"');
                    bump(2);
                    continue;
                }
                bump(1);
                if (sb.length() == 0) {
                    throw new CqlSyntaxException(startLine, startColumn, "\"\"", "a non-empty quoted name");
                }
                return make(TokenKind.QUOTED_IDENT, sb.toString(), start, startLine, startColumn);
            }
            sb.append(c);
            bump(1);
        }
    }

    private void skipSpaceAndComments() {
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (Character.isWhitespace(c)) {
                bump(1);
            } else if (s.startsWith("--", pos) || s.startsWith("//", pos)) {
                while (pos < s.length() && s.charAt(pos) != '\n') {
                    bump(1);
                }
            } else if (s.startsWith("/*", pos)) {
                int startLine = line;
                int startColumn = column;
                int close = s.indexOf("*/", pos + 2);
                if (close < 0) {
                    throw new CqlSyntaxException(startLine, startColumn, "/*", "a closing */ for this comment");
                }
                bump(close + 2 - pos);
            } else {
                return;
            }
        }
    }

    private Token punct(TokenKind kind, int length, int start, int startLine, int startColumn) {
        bump(length);
        return make(kind, s.substring(start, pos), start, startLine, startColumn);
    }

    private Token make(TokenKind kind, String text, int start, int startLine, int startColumn) {
        return new Token(kind, text, s.substring(start, pos), startLine, startColumn, start);
    }

    /** Moves over {@code n} characters, keeping line and column (a column counts UTF-16 units). */
    private void bump(int n) {
        for (int k = 0; k < n; k++) {
            if (s.charAt(pos) == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
            pos++;
        }
    }

    private void skipDigits() {
        while (pos < s.length() && isDigit(s.charAt(pos))) {
            bump(1);
        }
    }

    private boolean exponentAt(int i) {
        char e = charAt(i);
        if (e != 'e' && e != 'E') {
            return false;
        }
        char n = charAt(i + 1);
        return isDigit(n) || ((n == '+' || n == '-') && isDigit(charAt(i + 2)));
    }

    private void skipExponent() {
        if (exponentAt(pos)) {
            bump(isDigit(charAt(pos + 1)) ? 1 : 2);
            skipDigits();
        }
    }

    /** Whether a canonical UUID (8-4-4-4-12 hex digits) starts at {@code i} and is not part of a longer word. */
    private boolean uuidAt(int i) {
        if (i + 36 > s.length()) {
            return false;
        }
        for (int k = 0; k < 36; k++) {
            char c = s.charAt(i + k);
            boolean dash = k == 8 || k == 13 || k == 18 || k == 23;
            if (dash ? c != '-' : !isHexDigit(c)) {
                return false;
            }
        }
        return !isIdentChar(charAt(i + 36));
    }

    private char charAt(int i) {
        return i < s.length() ? s.charAt(i) : '\0';
    }

    private static boolean isLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isHexDigit(char c) {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static boolean isIdentChar(char c) {
        return isLetter(c) || isDigit(c) || c == '_';
    }
}
