package dev.tributary.rules.internal;

import dev.tributary.rules.errors.ConditionSyntaxException;
import java.util.ArrayList;
import java.util.List;

/** Splits a condition into tokens; positions are 0-based offsets into the text. */
final class Lexer {

    enum Type {
        IDENT, QUOTED_IDENT, STRING, NUMBER, BIND,
        LPAREN, RPAREN, COMMA, DOT, EQ, NE, LT, LE, GT, GE, PLUS, MINUS, STAR, SLASH, CONCAT, EOF
    }

    /** One token: {@code value} is the decoded content of strings, quoted identifiers and bind names. */
    record Token(Type type, String text, String value, int start) {
        boolean isKeyword(String keyword) {
            return type == Type.IDENT && text.equalsIgnoreCase(keyword);
        }
    }

    private final String text;
    private int pos;

    private Lexer(String text) {
        this.text = text;
    }

    static List<Token> tokenize(String text) {
        return new Lexer(text).run();
    }

    private List<Token> run() {
        List<Token> tokens = new ArrayList<>();
        while (true) {
            skipWhitespace();
            if (pos >= text.length()) {
                tokens.add(new Token(Type.EOF, "", "", text.length()));
                return tokens;
            }
            tokens.add(next());
        }
    }

    private void skipWhitespace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private Token next() {
        int start = pos;
        char c = text.charAt(pos);
        if (isIdentStart(c)) {
            while (pos < text.length() && isIdentPart(text.charAt(pos))) {
                pos++;
            }
            String word = text.substring(start, pos);
            return new Token(Type.IDENT, word, word, start);
        }
        if (Character.isDigit(c) || (c == '.' && pos + 1 < text.length() && Character.isDigit(text.charAt(pos + 1)))) {
            return number(start);
        }
        switch (c) {
            case '\'':
                return quoted(start, '\'', Type.STRING, "string literal");
            case '"':
                return quoted(start, '"', Type.QUOTED_IDENT, "quoted identifier");
            case ':': {
                pos++;
                int nameStart = pos;
                while (pos < text.length() && isIdentPart(text.charAt(pos))) {
                    pos++;
                }
                if (pos == nameStart) {
                    throw error(start, ":", "expected a variable name after ':'");
                }
                return new Token(Type.BIND, text.substring(start, pos), text.substring(nameStart, pos), start);
            }
            case '(':
                return single(Type.LPAREN);
            case ')':
                return single(Type.RPAREN);
            case ',':
                return single(Type.COMMA);
            case '.':
                return single(Type.DOT);
            case '=':
                return single(Type.EQ);
            case '+':
                return single(Type.PLUS);
            case '-':
                return single(Type.MINUS);
            case '*':
                return single(Type.STAR);
            case '/':
                return single(Type.SLASH);
            case '<':
                if (peekAt(1) == '=') {
                    return pair(Type.LE);
                }
                if (peekAt(1) == '>') {
                    return pair(Type.NE);
                }
                return single(Type.LT);
            case '>':
                if (peekAt(1) == '=') {
                    return pair(Type.GE);
                }
                return single(Type.GT);
            case '!':
            case '^':
                if (peekAt(1) == '=') {
                    return pair(Type.NE);
                }
                break;
            case '|':
                if (peekAt(1) == '|') {
                    return pair(Type.CONCAT);
                }
                break;
            default:
                break;
        }
        throw error(start, String.valueOf(c), "unexpected character '" + c + "'");
    }

    private char peekAt(int offset) {
        int i = pos + offset;
        return i < text.length() ? text.charAt(i) : '\0';
    }

    private Token single(Type type) {
        Token t = new Token(type, text.substring(pos, pos + 1), text.substring(pos, pos + 1), pos);
        pos++;
        return t;
    }

    private Token pair(Type type) {
        Token t = new Token(type, text.substring(pos, pos + 2), text.substring(pos, pos + 2), pos);
        pos += 2;
        return t;
    }

    private Token number(int start) {
        while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
            pos++;
        }
        if (pos < text.length() && text.charAt(pos) == '.') {
            pos++;
            while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
                pos++;
            }
        }
        if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
            int save = pos;
            pos++;
            if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
                pos++;
            }
            if (pos < text.length() && Character.isDigit(text.charAt(pos))) {
                while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
                    pos++;
                }
            } else {
                pos = save;
            }
        }
        if (pos < text.length() && isIdentStart(text.charAt(pos))) {
            throw error(start, text.substring(start, pos + 1), "malformed number");
        }
        String n = text.substring(start, pos);
        return new Token(Type.NUMBER, n, n, start);
    }

    private Token quoted(int start, char quote, Type type, String what) {
        StringBuilder value = new StringBuilder();
        pos++;
        while (true) {
            if (pos >= text.length()) {
                throw error(start, text.substring(start, Math.min(text.length(), start + 20)), "unterminated " + what);
            }
            char c = text.charAt(pos);
            if (c == quote) {
                if (peekAt(1) == quote) {
                    value.append(quote);
                    pos += 2;
                    continue;
                }
                pos++;
                break;
            }
            value.append(c);
            pos++;
        }
        if (type == Type.QUOTED_IDENT && value.length() == 0) {
            throw error(start, "\"\"", "empty quoted identifier");
        }
        return new Token(type, text.substring(start, pos), value.toString(), start);
    }

    private ConditionSyntaxException error(int at, String near, String detail) {
        return new ConditionSyntaxException(text, at + 1, near, detail);
    }

    private static boolean isIdentStart(char c) {
        return Character.isLetter(c) || c == '_';
    }

    private static boolean isIdentPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$' || c == '#';
    }
}
