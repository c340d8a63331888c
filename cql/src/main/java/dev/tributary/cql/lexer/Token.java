package dev.tributary.cql.lexer;

import dev.tributary.cql.errors.CqlSyntaxException;
import java.util.Objects;

/**
 * One lexical token. {@link #text()} is the normalized value (a lowercased unquoted name, the
 * unescaped content of a string or quoted name, the hex digits of a blob, a number as written);
 * {@link #image()} is the exact source text. {@link #line()} and {@link #column()} are 1-based,
 * {@link #offset()} is the 0-based character offset of the first character.
 */
public record Token(TokenKind kind, String text, String image, int line, int column, int offset) {
    public Token {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(image, "image");
    }

    /** The offset just after the token. */
    public int end() {
        return offset + image.length();
    }

    /** The token as shown in error messages: its image, or {@code <EOF>}. */
    public String display() {
        return kind == TokenKind.EOF ? CqlSyntaxException.EOF : image;
    }

    /** True for an unquoted word (reserved or not) spelled {@code word} in any case. */
    public boolean isWord(String word) {
        return (kind == TokenKind.IDENT || kind == TokenKind.KEYWORD) && text.equals(word);
    }
}
